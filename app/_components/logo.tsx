import Link from "next/link";

export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg className="logo-mark" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="30" height="30" rx="8" fill="var(--accent)" />
      <path
        d="M7 10.5 16 17l9-6.5"
        fill="none"
        stroke="var(--accent-text)"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <rect x="7" y="9" width="18" height="14" rx="2.5" fill="none" stroke="var(--accent-text)" strokeWidth="2.2" />
    </svg>
  );
}

export function Logo({ href = "/" }: { href?: string }) {
  return (
    <Link href={href} className="logo" aria-label="Letterpress home">
      <LogoMark />
      <span>Letterpress</span>
    </Link>
  );
}
