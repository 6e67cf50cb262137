"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import {
  CardIcon,
  CatalogueIcon,
  ChartIcon,
  GlobeIcon,
  HomeIcon,
  KeyIcon,
  LibraryIcon,
  MailIcon,
  PlusIcon,
  SettingsIcon,
} from "../_components/icons";

type Item = { href: string; label: string; icon: React.ReactNode; exact?: boolean };
const SECTIONS: { title: string | null; items: Item[] }[] = [
  { title: null, items: [{ href: "/dashboard", label: "Overview", icon: <HomeIcon />, exact: true }] },
  {
    title: "Templates",
    items: [
      { href: "/dashboard/library", label: "Library", icon: <LibraryIcon /> },
      { href: "/dashboard/catalogue", label: "Catalogue", icon: <CatalogueIcon /> },
      { href: "/dashboard/templates/new", label: "New template", icon: <PlusIcon /> },
    ],
  },
  {
    title: "Sending",
    items: [
      { href: "/dashboard/emails", label: "Emails", icon: <MailIcon /> },
      { href: "/dashboard/domains", label: "Domains", icon: <GlobeIcon /> },
    ],
  },
  {
    title: "Account",
    items: [
      { href: "/dashboard/usage", label: "Usage", icon: <ChartIcon /> },
      { href: "/dashboard/settings/api-keys", label: "API keys", icon: <KeyIcon /> },
      { href: "/dashboard/billing", label: "Plan & billing", icon: <CardIcon /> },
      { href: "/dashboard/settings", label: "Settings", icon: <SettingsIcon />, exact: true },
    ],
  },
];

function isActive(pathname: string, item: Item): boolean {
  return item.exact ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`);
}

export function SidebarNav() {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Dashboard">
      {SECTIONS.map((section) => (
        <div key={section.title ?? "top"} className="nav">
          {section.title && <div className="nav-section">{section.title}</div>}
          {section.items.map((item) => (
            <Link
              key={item.href}
              href={item.href}
              className="nav-link"
              aria-current={isActive(pathname, item) ? "page" : undefined}
            >
              {item.icon}
              {item.label}
            </Link>
          ))}
        </div>
      ))}
    </nav>
  );
}

export function MobileNav() {
  const pathname = usePathname();
  return (
    <nav className="mobile-nav" aria-label="Dashboard">
      {SECTIONS.flatMap((section) => section.items).map((item) => (
        <Link
          key={item.href}
          href={item.href}
          className="nav-link"
          aria-current={isActive(pathname, item) ? "page" : undefined}
        >
          {item.icon}
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
