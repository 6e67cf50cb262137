import Link from "next/link";
import { getCurrentAccount } from "@/lib/auth/current";
import { Logo } from "./logo";

/** The marketing header: docs, and sign-in or the dashboard depending on the session. */
export async function SiteHeader() {
  const account = await getCurrentAccount().catch(() => null);
  return (
    <header className="site-header">
      <div className="site-header-inner">
        <Logo />
        <nav className="site-nav" aria-label="Main">
          {/* Signed out, a phone has no room for it next to Sign in and Get started; the page links to the docs itself. */}
          <Link href="/docs" className={account ? undefined : "hide-sm"}>
            API docs
          </Link>
          <Link href="/#pricing" className="hide-sm">
            Pricing
          </Link>
          {account ? (
            <Link href="/dashboard" className="btn btn-primary btn-sm">
              Dashboard
            </Link>
          ) : (
            <>
              <Link href="/signin">Sign in</Link>
              <Link href="/signup" className="btn btn-primary btn-sm">
                Get started
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container row-between">
        <span>© {new Date().getUTCFullYear()} Letterpress. Email templates, rendered and sent.</span>
        <nav className="row" aria-label="Footer">
          <Link href="/docs">API reference</Link>
          <a href="/api/v1/openapi.json">OpenAPI JSON</a>
          <Link href="/signin">Sign in</Link>
        </nav>
      </div>
    </footer>
  );
}
