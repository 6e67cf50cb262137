import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { getConfig } from "@/lib/core/config";
import { signOutAction, signOutEverywhereAction } from "../../(auth)/actions";
import { formatDate, PLAN_LABEL } from "../../_components/format";
import { ArrowRightIcon, CardIcon, KeyIcon } from "../../_components/icons";
import { PageHeader } from "../_components/page-header";
import { CardSection } from "../../_components/card-section";
import { ChangeEmailForm, ChangePasswordForm } from "./account-forms";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const account = await requireAccount("/dashboard/settings");
  const supabase = getConfig().supabase !== null;
  return (
    <>
      <PageHeader title="Settings" intro="Your account, sign-in and API access." />
      <div className="stack">
        <CardSection headingId="account-title" title="Account">
          <div className="card-body">
            <dl className="dl">
              <dt>Email</dt>
              <dd>{account.person.email}</dd>
              <dt>Plan</dt>
              <dd>
                {PLAN_LABEL[account.plan]} · <Link href="/dashboard/billing">Change plan</Link>
              </dd>
              <dt>Member since</dt>
              <dd>{formatDate(account.created_at)}</dd>
              <dt>Sign-in</dt>
              <dd>{supabase ? "Supabase Auth (email and password)" : "Email and password (this server)"}</dd>
              <dt>Account id</dt>
              <dd className="mono">{account.id}</dd>
            </dl>
          </div>
          <div className="card-footer row-between">
            <span className="muted small">Signed in on this browser.</span>
            <div className="row">
              <form action={signOutEverywhereAction}>
                <button type="submit" className="btn btn-ghost btn-sm">
                  Sign out everywhere
                </button>
              </form>
              <form action={signOutAction}>
                <button type="submit" className="btn btn-secondary btn-sm">
                  Sign out
                </button>
              </form>
            </div>
          </div>
        </CardSection>

        <CardSection headingId="password-title" title="Password">
          <ChangePasswordForm />
        </CardSection>

        <CardSection headingId="email-title" title="Sign-in email">
          <ChangeEmailForm email={account.person.email} />
        </CardSection>

        <CardSection headingId="danger-title" title="Danger zone">
          <p className="card-body">
            <Link href="/dashboard/settings/delete-team">Delete this team</Link> ·{" "}
            <Link href="/dashboard/settings/delete-sign-in">Delete my sign-in</Link>
          </p>
        </CardSection>

        <div className="stats">
          <Link
            href="/dashboard/settings/api-keys"
            className="card stat"
            style={{ textDecoration: "none", color: "inherit" }}
          >
            <span className="row" style={{ color: "var(--accent)" }}>
              <KeyIcon /> <strong>API keys</strong>
            </span>
            <span className="muted small">Generate, review and revoke the keys your servers use.</span>
            <span className="row small" style={{ color: "var(--accent)" }}>
              Manage keys <ArrowRightIcon size={14} />
            </span>
          </Link>
          <Link
            href="/dashboard/settings/team"
            className="card stat"
            style={{ textDecoration: "none", color: "inherit" }}
          >
            <span className="row" style={{ color: "var(--accent)" }}>
              <strong>Team</strong>
            </span>
            <span className="muted small">Members, roles and invitations of {account.name}.</span>
            <span className="row small" style={{ color: "var(--accent)" }}>
              Manage the team <ArrowRightIcon size={14} />
            </span>
          </Link>
          <Link href="/dashboard/billing" className="card stat" style={{ textDecoration: "none", color: "inherit" }}>
            <span className="row" style={{ color: "var(--accent)" }}>
              <CardIcon /> <strong>Plan & billing</strong>
            </span>
            <span className="muted small">Compare plans and their monthly limits.</span>
            <span className="row small" style={{ color: "var(--accent)" }}>
              View plans <ArrowRightIcon size={14} />
            </span>
          </Link>
        </div>
      </div>
    </>
  );
}
