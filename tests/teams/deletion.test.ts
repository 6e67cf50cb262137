import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { runAsActor } from "@/lib/audit/context";
import { deletePersonRow, deleteTeamRow } from "@/lib/teams/data-deletion";
import { sender, setApiCallsUsed, type Sender } from "../support/api";

/** Every table with a column naming a team, found from the schema so a future table is covered too. */
async function teamTables(): Promise<{ table: string; column: string }[]> {
  return getDb()<{ table: string; column: string }[]>`
    select c.table_name as table, c.column_name as column from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
      and c.column_name in ('account_id', 'owner_account_id')
    order by 1, 2`;
}

/** Rows referencing the team, per table (tables with none left out). */
async function rowsOf(accountId: string): Promise<Record<string, number>> {
  const db = getDb();
  const counts: Record<string, number> = {};
  for (const { table, column } of await teamTables()) {
    const [row] = await db<
      { n: number }[]
    >`select count(*)::int as n from ${db(table)} where ${db(column)} = ${accountId}`;
    if (row.n > 0) counts[`${table}.${column}`] = row.n;
  }
  const [account] = await db<{ n: number }[]>`select count(*)::int as n from accounts where id = ${accountId}`;
  if (account.n > 0) counts["accounts.id"] = account.n;
  return counts;
}

async function person(email: string): Promise<string> {
  const [row] = await getDb()<{ id: string }[]>`insert into people (email) values (${email}) returning id`;
  return row.id;
}

async function join(accountId: string, personId: string, role: "admin" | "member"): Promise<void> {
  await getDb()`insert into memberships (account_id, person_id, role) values (${accountId}, ${personId}, ${role})
    on conflict do nothing`;
}

/** A team with one of a lot: key, domain, library entry, own template bought by `buyer`, usage, member, invitation,
 * suppression, audit entry. */
async function fullTeam(buyer: Sender): Promise<Sender> {
  const team = await sender("monthly");
  const db = getDb();
  await setApiCallsUsed(team, 3);
  const [template] = await db<{ id: string }[]>`
    insert into templates (owner_account_id, name, code, is_public, price)
    values (${team.accountId}, 'Sold', 'export default () => null', true, 5) returning id`;
  await db`insert into purchases (account_id, template_id, amount, status, processor)
    values (${buyer.accountId}, ${template.id}, 5, 'completed', 'test')`;
  await join(team.accountId, await person(`member-${team.accountId}@example.com`), "member");
  await db`insert into invitations (account_id, email, role, token_hash, expires_at)
    values (${team.accountId}, 'invited@example.com', 'member', ${"hash-" + team.accountId}, now() + interval '7 days')`;
  await db`insert into email_suppressions (account_id, email, reason) values (${team.accountId}, 'gone@example.com', 'bounced')`;
  await db`insert into audit_log (account_id, action, actor_type, actor_label, target_type)
    values (${team.accountId}, 'api_key.created', 'system', 'Letterpress', 'api_key')`;
  return team;
}

describe("deleting a team", () => {
  it("leaves no row of any table referencing it, and another team's rows untouched", async () => {
    const other = await sender("monthly");
    const team = await fullTeam(other);
    const before = await rowsOf(team.accountId);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining([
        "accounts.id",
        "api_keys.account_id",
        "audit_log.account_id",
        "invitations.account_id",
        "library_entries.account_id",
        "memberships.account_id",
        "sending_domains.account_id",
        "email_suppressions.account_id",
        "templates.owner_account_id",
        "usage_counters.account_id",
      ]),
    );
    const othersBefore = await rowsOf(other.accountId);

    expect(await deleteTeamRow(team.accountId)).toBe(true);

    expect(await rowsOf(team.accountId)).toEqual({});
    expect(await rowsOf(other.accountId)).toEqual(othersBefore);
    const purchases = await getDb()<{ template_id: string | null; status: string }[]>`
      select template_id, status from purchases where account_id = ${other.accountId}`;
    expect(purchases).toEqual([{ template_id: null, status: "completed" }]);
    expect(await deleteTeamRow(team.accountId)).toBe(false);
  });
});

describe("deleting a sign-in", () => {
  it("is refused while the person is the last admin of a team with other members, naming it, and changes nothing", async () => {
    const team = await sender("free");
    await getDb()`update accounts set name = 'Acme' where id = ${team.accountId}`;
    // The team's one admin is this person, not its creator.
    await getDb()`delete from memberships where account_id = ${team.accountId}`;
    const admin = await person(`admin-${team.accountId}@example.com`);
    await join(team.accountId, admin, "admin");
    await join(team.accountId, await person(`m-${team.accountId}@example.com`), "member");
    const before = await rowsOf(team.accountId);

    expect(await deletePersonRow(admin)).toEqual({ deleted: false, blocked_teams: ["Acme"], deleted_teams: [] });
    expect(await rowsOf(team.accountId)).toEqual(before);
    expect(await getDb()`select id from people where id = ${admin}`).toHaveLength(1);
  });

  it("deletes the teams they are alone in and leaves the others with a member.removed entry", async () => {
    const alone = await sender("free");
    const shared = await sender("free");
    const db = getDb();
    const leaver = await person(`leaver-${alone.accountId}@example.com`);
    await db`delete from memberships where account_id = ${alone.accountId}`;
    await join(alone.accountId, leaver, "admin");
    await join(shared.accountId, leaver, "member");
    await join(shared.accountId, await person(`stay-${shared.accountId}@example.com`), "admin");

    const result = await runAsActor(
      { actor: { type: "user", id: leaver, label: `leaver-${alone.accountId}@example.com` }, ip: "203.0.113.9" },
      () => deletePersonRow(leaver),
    );

    expect(result).toEqual({ deleted: true, blocked_teams: [], deleted_teams: [alone.accountId] });
    expect(await rowsOf(alone.accountId)).toEqual({});
    expect(await db`select 1 from people where id = ${leaver}`).toHaveLength(0);
    expect(await db`select 1 from memberships where person_id = ${leaver}`).toHaveLength(0);
    const entries = await db`
      select action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details
      from audit_log where account_id = ${shared.accountId} and action = 'member.removed'`;
    expect(entries).toEqual([
      {
        action: "member.removed",
        actor_type: "user",
        actor_id: leaver,
        actor_label: `leaver-${alone.accountId}@example.com`,
        target_type: "person",
        target_id: leaver,
        target_label: `leaver-${alone.accountId}@example.com`,
        ip: "203.0.113.9",
        details: { reason: "sign-in deleted" },
      },
    ]);
  });
});
