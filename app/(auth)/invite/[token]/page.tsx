import type { Metadata } from "next";
import Link from "next/link";
import { getCurrentSession } from "@/lib/auth/current";
import { ACCEPT_REFUSALS, findInvitation } from "@/lib/teams/service";
import { signOutAction } from "../../actions";
import { JoinTeamForm } from "./join-form";

// The URL holds a live token: no other site is told it.
export const metadata: Metadata = { title: "Join a team", referrer: "no-referrer" };

// GET /invite/<token>: where an invitation's link lands. Opening it changes nothing (another site can send a browser
// here); the person joins only by this page's button, a Server Action.
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await findInvitation(token);
  const refusal = !invitation
    ? ACCEPT_REFUSALS.not_found
    : invitation.revoked_at
      ? ACCEPT_REFUSALS.revoked
      : invitation.accepted_at
        ? ACCEPT_REFUSALS.accepted
        : invitation.expires_at <= new Date()
          ? ACCEPT_REFUSALS.expired
          : null;
  if (!invitation || refusal) {
    return (
      <>
        <h1>Join a team</h1>
        <div className="alert alert-danger" role="alert">
          <p>{refusal}</p>
        </div>
      </>
    );
  }
  const here = `/invite/${token}`;
  // A person in no team (say, removed from their last one) may join too: the session, not its team, is asked.
  const signedIn = await getCurrentSession();
  return (
    <>
      <h1>Join {invitation.team_name}</h1>
      <p className="subtitle">
        {invitation.inviter_email ?? "An admin"} invited <strong>{invitation.email}</strong> to join the team{" "}
        <strong>{invitation.team_name}</strong> as {invitation.role === "admin" ? "an admin" : "a member"}.
      </p>
      {!signedIn ? (
        <p className="auth-switch">
          <Link href={`/signin?next=${encodeURIComponent(here)}`}>Sign in</Link> or{" "}
          <Link href={`/signup?next=${encodeURIComponent(here)}`}>sign up</Link> with {invitation.email} to join.
        </p>
      ) : signedIn.person.email.toLowerCase() !== invitation.email.toLowerCase() ? (
        <div className="stack">
          <div className="alert alert-warning" role="status">
            <p>
              You are signed in as {signedIn.person.email}; this invitation is for {invitation.email}. Sign out, then
              sign in with {invitation.email} to join.
            </p>
          </div>
          <form action={signOutAction}>
            <button type="submit" className="btn btn-secondary btn-block">
              Sign out
            </button>
          </form>
        </div>
      ) : (
        <JoinTeamForm token={token} teamName={invitation.team_name} />
      )}
    </>
  );
}
