import { randomBytes } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { joinTeamAction, type JoinTeamState } from "@/app/(auth)/invite/[token]/actions";
import InvitePage from "@/app/(auth)/invite/[token]/page";
import { runAsActor } from "@/lib/audit/context";
import { getDb } from "@/lib/db/client";
import type { PersonTeam } from "@/lib/auth/data/accounts";
import { ACCEPT_REFUSALS, inviteMember } from "@/lib/teams/service";
import { browser, newBrowser, submit } from "../support/next-headers";
import { withLoggedEmails } from "../support/sign-up";
import { auditEntries, createPerson, createTeam, roles, type TestTeam } from "../support/teams";

vi.mock("next/headers", () => import("../support/next-headers"));
const session = vi.hoisted(() => ({ current: null as PersonTeam | null }));
vi.mock("@/lib/auth/current", () => ({ getCurrentSession: async () => session.current }));

/**
 * Signed in as `person`, in a team of their own (what the session's team is does not matter to this page), or in no
 * team at all.
 */
const signInAs = (person: { id: string; email: string }, inTeam = true) => {
  session.current = {
    person,
    team: inTeam ? { id: person.id, plan: "free", created_at: new Date(), name: person.email, role: "admin" } : null,
  } as PersonTeam;
};

async function invite(team: TestTeam, email: string): Promise<string> {
  const { emails } = await withLoggedEmails(() =>
    runAsActor({ actor: { type: "user", id: team.personId, label: team.email }, ip: null }, () =>
      inviteMember(team.admin, { email, role: "member" }),
    ),
  );
  return /\/invite\/([A-Za-z0-9_-]{43})$/.exec(emails[0].text)![1];
}

const page = async (token: string) =>
  renderToStaticMarkup(await InvitePage({ params: Promise.resolve({ token }) }))
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

beforeEach(() => {
  newBrowser("198.51.100.4");
  session.current = null;
});

describe("/invite/<token>", () => {
  it("signed out: names the team, inviter and role, and links to sign in and sign up coming back here", async () => {
    const team = await createTeam();
    const token = await invite(team, "ann@example.com");
    const html = renderToStaticMarkup(await InvitePage({ params: Promise.resolve({ token }) }));
    expect(html).toContain(`href="/signin?next=%2Finvite%2F${token}"`);
    expect(html).toContain(`href="/signup?next=%2Finvite%2F${token}"`);
    expect(await page(token)).toBe(
      `Join ${team.admin.name} ${team.email} invited ann@example.com to join the team ${team.admin.name} as a member. Sign in or sign up with ann@example.com to join.`,
    );
  });

  it("signed in with another address: says so and offers to sign out; its Join is refused and changes nothing", async () => {
    const team = await createTeam();
    const token = await invite(team, `ann-${randomBytes(4).toString("hex")}@example.com`);
    const other = await createPerson();
    signInAs(other);
    expect(await page(token)).toContain(`You are signed in as ${other.email}; this invitation is for`);
    expect(await submit<JoinTeamState>(joinTeamAction, { token })).toEqual({
      state: { status: "error", message: ACCEPT_REFUSALS.wrong_email },
    });
    expect(await roles(team.accountId)).toEqual([{ email: team.email, role: "admin" }]);
    expect(browser.cookies.has("lp-team")).toBe(false);
  });

  it("the invited person joins: member, the browser switched to the team, the dashboard, the entry with their address", async () => {
    const team = await createTeam();
    const person = await createPerson();
    const token = await invite(team, person.email);
    signInAs(person);
    expect(await page(token)).toContain(`Join ${team.admin.name}`);
    expect(await submit<JoinTeamState>(joinTeamAction, { token })).toEqual({ redirect: "/dashboard" });
    expect(browser.cookies.get("lp-team")).toBe(team.accountId);
    expect((await roles(team.accountId)).find((r) => r.email === person.email)).toEqual({
      email: person.email,
      role: "member",
    });
    const [invitation] = await getDb()<
      { id: string }[]
    >`select id from invitations where account_id = ${team.accountId}`;
    expect((await auditEntries(team.accountId)).at(-1)).toEqual({
      action: "member.joined",
      actor_type: "user",
      actor_id: person.id,
      actor_label: person.email,
      target_type: "member",
      target_id: person.id,
      target_label: person.email,
      ip: "198.51.100.4",
      details: { role: "member", invitation_id: invitation.id },
    });
    // Used: the page and a second Join both say so.
    expect(await page(token)).toBe(`Join a team ${ACCEPT_REFUSALS.accepted}`);
    expect(await submit<JoinTeamState>(joinTeamAction, { token })).toEqual({
      state: { status: "error", message: ACCEPT_REFUSALS.accepted },
    });
  });

  it("a person in no team (removed from their last one) sees Join and joins", async () => {
    const team = await createTeam();
    const person = await createPerson();
    const token = await invite(team, person.email);
    signInAs(person, false);
    // The Join button (its form's script aside).
    expect(await page(token)).toContain(
      `Join ${team.admin.name} ${team.email} invited ${person.email} to join the team ${team.admin.name} as a member. Join ${team.admin.name}`,
    );
    expect(await submit<JoinTeamState>(joinTeamAction, { token })).toEqual({ redirect: "/dashboard" });
    expect(browser.cookies.get("lp-team")).toBe(team.accountId);
    expect((await roles(team.accountId)).find((r) => r.email === person.email)).toEqual({
      email: person.email,
      role: "member",
    });
  });

  it("unknown, revoked and expired links say why", async () => {
    expect(await page("nope")).toBe(`Join a team ${ACCEPT_REFUSALS.not_found}`);
    const team = await createTeam();
    const token = await invite(team, "late@example.com");
    await getDb()`update invitations set expires_at = now() - interval '1 second' where account_id = ${team.accountId}`;
    expect(await page(token)).toBe(`Join a team ${ACCEPT_REFUSALS.expired}`);
    await getDb()`update invitations set revoked_at = now() where account_id = ${team.accountId}`;
    expect(await page(token)).toBe(`Join a team ${ACCEPT_REFUSALS.revoked}`);
  });

  it("Join while signed out goes to sign in, coming back to the invitation", async () => {
    expect(await submit<JoinTeamState>(joinTeamAction, { token: "abc" })).toEqual({
      redirect: "/signin?next=%2Finvite%2Fabc",
    });
  });
});
