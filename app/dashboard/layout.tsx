import type { Metadata } from "next";
import { connection } from "next/server";
import { requireAccount } from "@/lib/auth/current";
import { signOutAction } from "../(auth)/actions";
import { PLAN_LABEL } from "../_components/format";
import { LogOutIcon } from "../_components/icons";
import { Logo } from "../_components/logo";
import { MobileNav, NavLinks } from "./nav";
import { TeamSwitcher } from "./team-switcher";
import { personTeams } from "@/lib/auth/teams";

export const metadata: Metadata = {
  title: { default: "Dashboard", template: "%s · Letterpress" },
  robots: { index: false },
};

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  // Every dashboard page is the signed-in account's, rendered per request. Said before anything reads the runtime
  // configuration or the database, so a build with no runtime secret set (a Vercel preview) never prerenders one.
  await connection();
  const account = await requireAccount();
  const teams = (await personTeams(account.person.id)).map(({ id, name }) => ({ id, name }));
  // Under the links, in the sidebar and in the small screens' menu.
  const footer = (
    <div className="sidebar-footer">
      <div className="account-chip">
        <span className="avatar" aria-hidden="true">
          {account.person.email.slice(0, 1)}
        </span>
        <span className="who">
          <span className="email" title={account.person.email}>
            {account.person.email}
          </span>
          <span className="muted small" title={account.name}>
            {account.name} · {PLAN_LABEL[account.plan]} plan
          </span>
        </span>
      </div>
      <TeamSwitcher teams={teams} current={account.id} />
      <form action={signOutAction}>
        <button type="submit" className="btn btn-ghost btn-sm">
          <LogOutIcon size={15} /> Sign out
        </button>
      </form>
    </div>
  );
  return (
    <div className="app-shell">
      <aside className="sidebar">
        <Logo href="/dashboard" />
        <NavLinks />
        {footer}
      </aside>
      <header className="mobile-bar">
        <Logo href="/dashboard" />
        <MobileNav>{footer}</MobileNav>
      </header>
      <main id="main" className="main">
        <div className="main-inner">{children}</div>
      </main>
    </div>
  );
}
