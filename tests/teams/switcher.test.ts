import { describe, expect, it, vi } from "vitest";
import { createTeamAction, switchTeamAction } from "@/app/dashboard/teams/actions";
import { getCurrentAccount, requireAccount } from "@/lib/auth/current";
import { LOCAL_SESSION_COOKIE, TEAM_COOKIE } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { createUser, personSessionCookie } from "../support/api";
import { browser, newBrowser, submit } from "../support/next-headers";

// Issue 48: the current team of a session is the lp-team cookie's while the person is its member, else their first
// team; the switcher and "Create a team" set it; a removed member's next request no longer reaches the team.
vi.mock("next/headers", () => import("../support/next-headers"));

async function signedInBrowser(personId: string) {
  newBrowser();
  const [name, value] = (await personSessionCookie(personId)).split("=");
  browser.cookies.set(name, value);
}

const current = async () => {
  const account = await getCurrentAccount();
  return account && { id: account.id, name: account.name, role: account.role, person: account.person };
};

describe("the current team", () => {
  it("switches between the person's teams, refuses another team, and creates a team with them as admin", async () => {
    const owner = await createUser();
    const other = await createUser();
    // The owner is also a member of the other team, joined later.
    await getDb()`
      insert into memberships (account_id, person_id, role, joined_at)
      values (${other.accountId}, ${owner.personId}, 'member', now() + interval '1 second')`;
    await signedInBrowser(owner.personId);
    const person = { id: owner.personId, email: owner.email };

    expect(await current()).toEqual({ id: owner.accountId, name: owner.email, role: "admin", person });

    expect(await submit(switchTeamAction, { team: other.accountId })).toEqual({ redirect: "/dashboard" });
    expect(browser.cookies.get(TEAM_COOKIE)).toBe(other.accountId);
    expect(await current()).toEqual({ id: other.accountId, name: other.email, role: "member", person });

    const stranger = await createUser();
    expect(await submit(switchTeamAction, { team: stranger.accountId })).toEqual({
      state: { status: "error", message: "You are not a member of that team." },
    });
    expect(browser.cookies.get(TEAM_COOKIE)).toBe(other.accountId);
    // A cookie naming a team the person is not in (set by hand) reaches nothing of it.
    browser.cookies.set(TEAM_COOKIE, stranger.accountId);
    expect(await current()).toEqual({ id: owner.accountId, name: owner.email, role: "admin", person });

    expect(await submit(createTeamAction, { name: "  " })).toEqual({
      state: { status: "error", message: "Name the team", fields: { name: "Name the team" }, values: { name: "  " } },
    });
    expect(await submit(createTeamAction, { name: " Operations " })).toEqual({ redirect: "/dashboard" });
    const created = browser.cookies.get(TEAM_COOKIE)!;
    expect(await current()).toEqual({ id: created, name: "Operations", role: "admin", person });
    expect(await getDb()`select person_id, role from memberships where account_id = ${created}`).toEqual([
      { person_id: owner.personId, role: "admin" },
    ]);
  });

  it("no longer reaches a team once the member is removed, and offers a person in no team to create one", async () => {
    const owner = await createUser();
    const other = await createUser();
    await getDb()`
      insert into memberships (account_id, person_id, role) values (${other.accountId}, ${owner.personId}, 'member')`;
    await signedInBrowser(owner.personId);
    browser.cookies.set(TEAM_COOKIE, other.accountId);
    expect((await current())?.id).toBe(other.accountId);

    await getDb()`delete from memberships where account_id = ${other.accountId} and person_id = ${owner.personId}`;
    expect((await current())?.id).toBe(owner.accountId);

    await getDb()`delete from memberships where person_id = ${owner.personId}`;
    expect(await current()).toBeNull();
    await expect(requireAccount()).rejects.toMatchObject({ digest: expect.stringContaining("/teams/new") });
    expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(true);
  });
});
