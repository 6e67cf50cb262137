import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { API_CALL_LIMITS } from "@/lib/core/plans";
import { migrate } from "@/lib/db/migrate";
import { withDatabaseBefore } from "../support/migration-db";

// Issue 48: a database of the schema before teams (20261202130000_teams.sql), upgraded by db:migrate. Each account
// becomes a team whose one member, its admin, is the person who owned it; that person keeps the account's id, so
// their password and their local session's cookie (which names that id and the session's row) go on working.
describe("the upgrade to teams", () => {
  it(
    "turns an account with a key, a template, an email and a session into a team whose admin is its owner",
    { timeout: 120_000 },
    async () => {
      await withDatabaseBefore("20261202130000_teams.sql", async (db) => {
        const passwordHash = await hashPassword("correct horse battery");
        const [{ id: account }] = await db<{ id: string }[]>`
          insert into accounts (email, plan, password_hash) values ('Owner@x.example', 'monthly', ${passwordHash})
          returning id`;
        const [{ id: key }] = await db<{ id: string }[]>`
          insert into api_keys (account_id, name, key_hash, prefix, display_fragment)
          values (${account}, 'production', 'hash-1', 'lp_live_', 'abcd') returning id`;
        const [{ id: template }] = await db<{ id: string }[]>`
          insert into templates (owner_account_id, name, code) values (${account}, 'Mine', 'export default () => null')
          returning id`;
        await db`
          insert into sent_emails (account_id, status, provider, from_address, to_addresses, subject, html)
          values (${account}, 'sent', 'outbox', 'a@x.example', '{b@x.example}', 'Hi', '<p>Hi</p>')`;
        const [{ id: session }] = await db<{ id: string }[]>`
          insert into sessions (account_id, expires_at) values (${account}, now() + interval '1 day') returning id`;

        await migrate(db);

        expect(await db`select id, name, plan from accounts`).toEqual([
          { id: account, name: "Owner@x.example", plan: "monthly" },
        ]);
        expect(await db`select id, email, password_hash, auth_user_id from people`).toEqual([
          { id: account, email: "Owner@x.example", password_hash: passwordHash, auth_user_id: null },
        ]);
        expect(await db`select account_id, person_id, role from memberships`).toEqual([
          { account_id: account, person_id: account, role: "admin" },
        ]);
        expect(await db`select id, account_id, created_by from api_keys`).toEqual([
          { id: key, account_id: account, created_by: account },
        ]);
        expect(await db`select id, owner_account_id from templates`).toEqual([
          { id: template, owner_account_id: account },
        ]);
        expect(await db`select account_id, subject from sent_emails`).toEqual([{ account_id: account, subject: "Hi" }]);
        expect(await db`select id, person_id from sessions`).toEqual([{ id: session, person_id: account }]);

        // Sign-in checks the password against the person's kept hash.
        const [person] = await db<{ password_hash: string }[]>`
          select password_hash from people where lower(email) = 'owner@x.example'`;
        expect(await verifyPassword("correct horse battery", person.password_hash)).toBe(true);
        // The session's cookie names the person (the account's old id) and the session: the API's one statement
        // accepts it, in the team, as its admin.
        expect(
          await db`
            select account_id, plan, person_id, person_email, role, key_id
            from authenticate_and_meter(null, ${account}::uuid, null, null, now(), ${db.json(API_CALL_LIMITS)},
                                        ${session}::uuid, false)`,
        ).toEqual([
          {
            account_id: account,
            plan: "monthly",
            person_id: account,
            person_email: "Owner@x.example",
            role: "admin",
            key_id: null,
          },
        ]);
      });
    },
  );
});
