import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current";
import { signOutAction } from "../(auth)/actions";
import { PLAN_LABEL } from "../_components/format";
import { LogOutIcon } from "../_components/icons";
import { Logo } from "../_components/logo";
import { MobileNav, SidebarNav } from "./nav";

export const metadata: Metadata = {
  title: { default: "Dashboard", template: "%s · Letterpress" },
  robots: { index: false },
};

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const account = await requireAccount();
  const signOut = (
    <form action={signOutAction}>
      <button type="submit" className="btn btn-ghost btn-sm">
        <LogOutIcon size={15} /> Sign out
      </button>
    </form>
  );
  return (
    <div className="app-shell">
      <aside className="sidebar">
        <Logo href="/dashboard" />
        <SidebarNav />
        <div className="sidebar-footer">
          <div className="account-chip">
            <span className="avatar" aria-hidden="true">
              {account.email.slice(0, 1)}
            </span>
            <span className="who">
              <span className="email" title={account.email}>
                {account.email}
              </span>
              <span className="muted small">{PLAN_LABEL[account.plan]} plan</span>
            </span>
          </div>
          {signOut}
        </div>
      </aside>
      <header className="mobile-bar">
        <div className="mobile-bar-top">
          <Logo href="/dashboard" />
          {signOut}
        </div>
        <MobileNav />
      </header>
      <main id="main" className="main">
        <div className="main-inner">{children}</div>
      </main>
    </div>
  );
}
