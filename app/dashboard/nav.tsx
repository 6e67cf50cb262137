"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import {
  CardIcon,
  CatalogueIcon,
  ChartIcon,
  ComponentIcon,
  GlobeIcon,
  HomeIcon,
  KeyIcon,
  LibraryIcon,
  MailIcon,
  MenuIcon,
  PlusIcon,
  SettingsIcon,
  ShieldIcon,
  SuppressedIcon,
  WebhookIcon,
} from "../_components/icons";

type Item = { href: string; label: string; icon: React.ReactNode; exact?: boolean };
const SECTIONS: { title: string | null; items: Item[] }[] = [
  { title: null, items: [{ href: "/dashboard", label: "Overview", icon: <HomeIcon />, exact: true }] },
  {
    title: "Templates",
    items: [
      { href: "/dashboard/library", label: "Library", icon: <LibraryIcon /> },
      { href: "/dashboard/components", label: "Components", icon: <ComponentIcon /> },
      { href: "/dashboard/catalogue", label: "Catalogue", icon: <CatalogueIcon /> },
      { href: "/dashboard/templates/new", label: "New template", icon: <PlusIcon /> },
    ],
  },
  {
    title: "Sending",
    items: [
      { href: "/dashboard/emails", label: "Emails", icon: <MailIcon /> },
      { href: "/dashboard/emails/suppressions", label: "Suppressions", icon: <SuppressedIcon /> },
      { href: "/dashboard/domains", label: "Domains", icon: <GlobeIcon /> },
      { href: "/dashboard/webhooks", label: "Webhooks", icon: <WebhookIcon /> },
    ],
  },
  {
    title: "Account",
    items: [
      { href: "/dashboard/usage", label: "Usage", icon: <ChartIcon /> },
      { href: "/dashboard/settings/api-keys", label: "API keys", icon: <KeyIcon /> },
      { href: "/dashboard/billing", label: "Plan & billing", icon: <CardIcon /> },
      { href: "/dashboard/audit-log", label: "Audit log", icon: <ShieldIcon /> },
      { href: "/dashboard/settings", label: "Settings", icon: <SettingsIcon />, exact: true },
    ],
  },
];

const ITEMS = SECTIONS.flatMap((section) => section.items);

function matches(pathname: string, item: Item): boolean {
  return item.exact ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`);
}

/** The current page's item: of those matching, the most specific (Suppressions, not Emails, for its page). */
function activeHref(pathname: string): string | undefined {
  let active: Item | undefined;
  for (const item of ITEMS)
    if (matches(pathname, item) && item.href.length > (active?.href.length ?? -1)) active = item;
  return active?.href;
}

/** The dashboard's sections and their links, the current page's marked; `onNavigate` runs when one is followed. */
export function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const active = activeHref(usePathname());
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
              aria-current={item.href === active ? "page" : undefined}
              onClick={onNavigate}
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

/**
 * The same links, and `children` under them (who is signed in, Sign out), behind a Menu button on small screens. A
 * <details> disclosure: it opens and closes without the page's script, from the keyboard too. Following a link closes
 * it, and so does any other navigation (the logo, back).
 */
export function MobileNav({ children }: { children: React.ReactNode }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  // Adjusted while rendering: the page changed under an open menu.
  const [openedAt, setOpenedAt] = useState(pathname);
  if (openedAt !== pathname) {
    setOpenedAt(pathname);
    setOpen(false);
  }
  return (
    <details className="mobile-menu" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="btn btn-secondary btn-sm">
        <MenuIcon size={16} /> Menu
      </summary>
      <div className="mobile-menu-panel">
        <NavLinks onNavigate={() => setOpen(false)} />
        {children}
      </div>
    </details>
  );
}
