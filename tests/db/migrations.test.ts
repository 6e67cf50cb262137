import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { withDatabaseBefore } from "../support/migration-db";

describe("migrations", () => {
  it("are all recorded where the Supabase CLI records them", async () => {
    const files = (await readdir("supabase/migrations")).filter((f) => f.endsWith(".sql")).sort();
    const rows = await getDb()<{ version: string; name: string }[]>`
      select version, name from supabase_migrations.schema_migrations order by version`;
    expect(rows.map((r) => `${r.version}_${r.name}.sql`)).toEqual(files);
  });

  it("apply nothing twice", async () => {
    const result = await migrate(getDb());
    expect(result.applied).toEqual([]);
  });

  it("enable row level security on every table in public", async () => {
    const tables = await getDb()<{ tablename: string; rowsecurity: boolean }[]>`
      select tablename, rowsecurity from pg_tables where schemaname = 'public' order by tablename`;
    expect(tables.length).toBeGreaterThanOrEqual(9);
    expect(tables.filter((t) => !t.rowsecurity).map((t) => t.tablename)).toEqual([]);
  });
});

/** The migration that brought the functions of the migrations to their files (npm run db:functions). */
const CATCH_UP = "20261201205538_sql_functions.sql";

/** Every function of public as the catalog holds it: identity, signature, whole definition and privileges. */
function functionsOf(db: postgres.Sql) {
  return db<{ oid: string; signature: string; definition: string; privileges: string | null }[]>`
    select p.oid::text as oid, p.oid::regprocedure::text as signature, pg_get_functiondef(p.oid) as definition,
           p.proacl::text as privileges
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' order by 2`;
}

/** As functionsOf, for comparing two databases: identities differ between them. */
async function definitionsOf(db: postgres.Sql) {
  return (await functionsOf(db)).map(({ oid: _oid, ...definition }) => definition);
}

// Each function's current definition is one file of supabase/sql-functions/; the migrations carry every change of one
// (written by npm run db:functions), so the suite's database, which tests/support/global-setup.ts builds from the
// migrations alone, holds every file's function (tests/db/supabase-tooling.test.ts compares definitions).
describe("SQL functions", () => {
  it("are one file each, named after the function, of one signature, and PUBLIC may execute none of them", async () => {
    const names = await getDb()<{ name: string }[]>`
      select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public'`;
    expect(names.map((f) => `${f.name}.sql`).sort()).toEqual((await readdir("supabase/sql-functions")).sort());
    expect(
      await getDb()`
        select p.oid::regprocedure::text as signature from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public'
          and exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a where a.grantee = 0)`,
    ).toEqual([]);
  });

  // Past eight, positional arguments are read by counting: such a function takes a jsonb record instead.
  it("take at most eight parameters", async () => {
    expect(
      await getDb()`
        select p.oid::regprocedure::text as signature from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.pronargs > 8`,
    ).toEqual([]);
  });

  // Until CATCH_UP, the files' changes reached a database only through db:migrate, which applied every file after the
  // migrations: a database Supabase's tooling built kept the functions of the migrations (record_counted_email of 23
  // parameters, no template_id_by_alias), and one db:migrate built had the files' already.
  it(
    "upgrade a database Supabase's tooling built before the catch-up to a fresh database's functions, keep its rows, and keep each function's identity on one db:migrate had given the files",
    // The file's first fresh database: on the embedded one it starts a cluster (PGlite's initdb), 15 to 25 s on a
    // loaded machine, before the migrations.
    { timeout: 120_000 },
    async () => {
      await withDatabaseBefore(CATCH_UP, async (db) => {
        const [{ id: account }] = await db<{ id: string }[]>`
          insert into accounts (email) values ('a@x.example') returning id`;
        await db`insert into sending_domains (account_id, domain, verified) values (${account}, 'x.example', true)`;
        // Emails recorded as the code of the time recorded them: one sent by the outbox, which bounced, and a batch of
        // two waiting for their hand-off.
        await db`
          select * from record_counted_email(
            ${account}::uuid, '2026-11-01T00:00:00Z'::timestamptz, 100, false, 'sent', 'outbox', null::uuid,
            'hello@x.example', '{ann@x.example}'::text[], '{}'::text[], '{}'::text[], '{}'::text[], 'Hi', '<p>Hi</p>',
            'Hi', '{}'::jsonb, '[]'::jsonb, '[]'::jsonb, null::timestamptz, 'lp-one', 'bounced',
            '{"bounce_type": "hard"}'::jsonb, null::integer)`;
        const batch = [1, 2].map((i) => ({
          from: "hello@x.example",
          to: [`reader-${i}@x.example`],
          subject: "Hi",
          html: "<p>Hi</p>",
        }));
        await db`
          select * from record_counted_emails(
            ${account}::uuid, '2026-11-01T00:00:00Z'::timestamptz, 100, false, 'pending', 'resend',
            ${db.json(batch)}, 'lp-batch', null::integer)`;
        const rows = () => db`
          select (select json_agg(json_build_object('id', t.id, 'plan', t.plan, 'created_at', t.created_at) order by t.id)
                    from accounts t) as accounts,
                 (select json_agg(t order by t.id) from sending_domains t) as sending_domains,
                 (select json_agg(t order by t.subject, t.batch_index) from sent_emails t) as sent_emails,
                 (select json_agg(t order by t.id) from email_events t) as email_events,
                 (select json_agg(t order by t.email) from email_suppressions t) as email_suppressions,
                 (select json_agg(t order by t.metric) from usage_counters t) as usage_counters,
                 (select json_agg(t order by t.metric) from usage_daily t) as usage_daily`;
        const [before] = await rows();
        expect(Object.fromEntries(Object.entries(before).map(([table, list]) => [table, list.length]))).toEqual({
          accounts: 1,
          sending_domains: 1,
          sent_emails: 3,
          email_events: 2,
          email_suppressions: 1,
          usage_counters: 1,
          usage_daily: 1,
        });

        const migrations = (await readdir("supabase/migrations")).sort();
        const earlier = migrations.filter((f) => f < CATCH_UP).length;
        // The catch-up, and the migrations since.
        expect(await migrate(db)).toEqual({
          applied: migrations.filter((f) => f >= CATCH_UP),
          alreadyApplied: earlier,
        });
        // Kept as they were; 20261202180000_template_locales.sql adds each email's locale, null for all,
        // 20261207010000_domain_tracking.sql each domain's tracking switches, off, and 20261207131000_unsubscribe.sql
        // each suppression's unsubscribe group, null for a bounce's.
        expect(await rows()).toEqual([
          {
            ...before,
            sent_emails: before.sent_emails.map((email: object) => ({ ...email, locale: null })),
            sending_domains: before.sending_domains.map((domain: object) => ({
              ...domain,
              open_tracking: false,
              click_tracking: false,
            })),
            email_suppressions: before.email_suppressions.map((suppression: object) => ({
              ...suppression,
              unsubscribe_group: null,
            })),
          },
        ]);
        expect(await definitionsOf(db)).toEqual(await definitionsOf(getDb()));
      });
      // A database db:migrate kept: the functions of the files of the catch-up's time already (the catch-up is them),
      // and the catch-up still to run. Not even an identity changes (the triggers hold their functions by it). Files
      // changed since (20261202180000_template_locales.sql's send_context) are the later migrations' to bring.
      const migrations = (await readdir("supabase/migrations")).sort();
      const throughCatchUp = migrations.filter((f) => f <= CATCH_UP);
      await withDatabaseBefore(migrations[throughCatchUp.length], async (db) => {
        const kept = await functionsOf(db);
        await db`delete from supabase_migrations.schema_migrations where version = ${CATCH_UP.slice(0, 14)}`;
        const folder = await mkdtemp(path.join(os.tmpdir(), "letterpress-catch-up-"));
        try {
          for (const file of throughCatchUp)
            await writeFile(path.join(folder, file), await readFile(path.join("supabase/migrations", file)));
          expect(await migrate(db, folder)).toEqual({ applied: [CATCH_UP], alreadyApplied: throughCatchUp.length - 1 });
        } finally {
          await rm(folder, { recursive: true, force: true });
        }
        expect(await functionsOf(db)).toEqual(kept);
      });
    },
  );

  it(
    "upgrade a database of the oldest migration to a fresh database's functions, and keep its rows",
    { timeout: 60_000 },
    async () => {
      // A database with only the oldest migration: the ones from the second on are still to run.
      const [, second, ...rest] = (await readdir("supabase/migrations")).sort();
      await withDatabaseBefore(second, async (db) => {
        const [{ id: account }] = await db<{ id: string }[]>`
          insert into accounts (email, plan) values ('a@x.example', 'monthly') returning id`;
        const [{ id: template }] = await db<{ id: string }[]>`
          insert into templates (owner_account_id, name, code) values (${account}, 'Mine', 'export default () => null')
          returning id`;
        await db`insert into library_entries (account_id, template_id, added_via) values (${account}, ${template}, 'created')`;
        await db`
          insert into usage_counters (account_id, metric, period_start, count)
          values (${account}, 'api_calls', '2026-11-01T00:00:00Z', 7)`;
        // The columns the migrations after it leave alone; the account's email moves to its owner, the person with
        // the account's id (20261202130000_teams.sql, 20261202140000_identity.sql).
        const rows = (owner: "account" | "person") => db`
          select (select json_agg(json_build_object('id', t.id, 'email', o.email, 'plan', t.plan))
                  from accounts t
                    join ${db(owner === "account" ? "accounts" : "people")} o on o.id = t.id) as accounts,
                 (select json_agg(json_build_object('id', t.id, 'name', t.name, 'code', t.code)) from templates t)
                   as templates,
                 (select json_agg(t) from library_entries t) as library_entries,
                 (select json_agg(t) from usage_counters t) as usage_counters`;
        const [before] = await rows("account");

        expect(await migrate(db)).toEqual({ applied: [second, ...rest], alreadyApplied: 1 });
        expect(await rows("person")).toEqual([before]);
        // A template saved before aliases has none, and is found by its id as before.
        expect(await db`select alias from templates`).toEqual([{ alias: null }]);
        expect(await db`select template_id_by_alias(${account}::uuid, 'mine') as id`).toEqual([{ id: null }]);
        expect(await definitionsOf(db)).toEqual(await definitionsOf(getDb()));
      });
    },
  );
});

// PGlite takes the startup parameter but cannot interrupt a running statement, so only PostgreSQL cancels.
describe("statement timeout", () => {
  it.runIf(inject("databaseKind") === "postgresql")("cancels an app statement still running after 10 s", async () => {
    const started = Date.now();
    await expect(getDb()`select pg_sleep(12)`).rejects.toMatchObject({
      code: "57014",
      message: "canceling statement due to statement timeout",
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
  });

  it("does not apply to migrations", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "letterpress-migrations-"));
    const version = "99990101000000";
    await writeFile(
      path.join(dir, `${version}_timeout_probe.sql`),
      `do $$ begin
         if current_setting('statement_timeout') <> '0' then
           raise exception 'statement_timeout is %', current_setting('statement_timeout');
         end if;
       end $$;`,
    );
    try {
      expect(await migrate(getDb(), dir)).toEqual({
        applied: [`${version}_timeout_probe.sql`],
        alreadyApplied: expect.any(Number),
      });
    } finally {
      await getDb()`delete from supabase_migrations.schema_migrations where version = ${version}`;
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// Each migration that changes stored rows, run on a database holding the rows it must cope with.

// The migration that makes a sending domain belong to one account must run on a database that already holds the same
// domain on several accounts: it keeps one (Resend-verified, else verified, else the oldest) and releases the others.
describe("migration 20261124000300_domain_owner_and_orphaned_sends.sql", () => {
  const MIGRATION = "20261124000300_domain_owner_and_orphaned_sends.sql";

  it(
    "keeps a domain held by several accounts on one of them and moves the others to released_sending_domains",
    { timeout: 60_000 },
    async () => {
      await withDatabaseBefore(MIGRATION, async (db) => {
        const account = async (email: string) =>
          (await db<{ id: string }[]>`insert into accounts (email) values (${email}) returning id`)[0].id;
        const [oldest, local, resend, alone] = [
          await account("a@x.example"),
          await account("b@x.example"),
          await account("c@x.example"),
          await account("d@x.example"),
        ];
        const domain = (
          accountId: string,
          name: string,
          verified: boolean,
          providerStatus: string | null,
          createdAt: string,
        ) => db`
        insert into sending_domains (account_id, domain, verified, provider_status, created_at)
        values (${accountId}, ${name}, ${verified}, ${providerStatus}, ${createdAt})`;
        await domain(oldest, "shared.example", false, null, "2026-01-01T00:00:00Z");
        await domain(local, "Shared.example", true, null, "2026-02-01T00:00:00Z");
        await domain(resend, "shared.example", true, "verified", "2026-03-01T00:00:00Z");
        await domain(oldest, "twice.example", false, null, "2026-01-01T00:00:00Z");
        await domain(local, "twice.example", false, null, "2026-02-01T00:00:00Z");
        await domain(alone, "alone.example", false, null, "2026-01-01T00:00:00Z");

        expect((await migrate(db)).applied).toContain(MIGRATION);

        const kept = await db`select account_id, domain from sending_domains order by domain`;
        expect(kept).toEqual([
          { account_id: alone, domain: "alone.example" },
          { account_id: resend, domain: "shared.example" },
          { account_id: oldest, domain: "twice.example" },
        ]);
        const released = await db<
          { account_id: string; domain: string; verified: boolean; kept_by_account_id: string }[]
        >`
        select account_id, domain, verified, kept_by_account_id from released_sending_domains`;
        const order = <T extends { account_id: string; domain: string }>(rows: T[]) =>
          rows
            .map((row) => ({ ...row, key: `${row.domain.toLowerCase()} ${row.account_id}` }))
            .sort((a, b) => (a.key < b.key ? -1 : 1));
        expect(order(released)).toEqual(
          order([
            { account_id: oldest, domain: "shared.example", verified: false, kept_by_account_id: resend },
            { account_id: local, domain: "Shared.example", verified: true, kept_by_account_id: resend },
            { account_id: local, domain: "twice.example", verified: false, kept_by_account_id: oldest },
          ]),
        );
        await expect(
          db`insert into sending_domains (account_id, domain) values (${alone}, 'SHARED.example')`,
        ).rejects.toMatchObject({ code: "23505" });
      });
    },
  );
});

// The migration that makes one email per provider idempotency key must run on a database whose emails break that rule
// already: an interrupted email next to its caller's retry, or two interrupted attempts under one key.
describe("migration 20261124001000_one_email_per_provider_key.sql", () => {
  const MIGRATION = "20261124001000_one_email_per_provider_key.sql";

  it(
    "gives up an interrupted email whose retry was recorded too, with its count, and lets handed-over emails go of their keys",
    { timeout: 60_000 },
    async () => {
      await withDatabaseBefore(MIGRATION, async (db) => {
        const [{ id: account }] = await db<
          { id: string }[]
        >`insert into accounts (email) values ('a@x.example') returning id`;
        const period = "2026-11-01T00:00:00Z";
        const email = async (name: string, status: string, key: string | null, minutesAgo: number) =>
          (
            await db<{ id: string }[]>`
            insert into sent_emails (account_id, status, provider, from_address, to_addresses, subject, html, usage_period_start,
                                     provider_idempotency_key, created_at)
            values (${account}, ${status}, 'resend', 'hello@x.example', '{ann@x.example}', ${name}, '<p>Hi</p>', ${period}, ${key},
                    now() - ${`${minutesAgo} minutes`}::interval)
            returning id`
          )[0].id;
        const interrupted = await email("interrupted", "pending", "lp-retried", 10);
        const retry = await email("retry", "sent", "lp-retried", 5);
        const firstAttempt = await email("first attempt", "pending", "lp-twice", 4);
        const secondAttempt = await email("second attempt", "pending", "lp-twice", 3);
        const answered = await email("answered", "sent", "lp-answered", 2);
        const unkeyed = await email("unkeyed", "pending", null, 1);
        await db`insert into usage_counters (account_id, metric, period_start, count) values (${account}, 'emails', ${period}, 6)`;
        await db`
        insert into usage_daily (account_id, metric, day, count)
        select account_id, 'emails', (created_at at time zone 'utc')::date, count(*) from sent_emails group by 1, 3`;

        expect((await migrate(db)).applied).toContain(MIGRATION);

        const superseded = "the hand-off to the provider was interrupted; a retry of the request was sent instead";
        expect(
          await db`select id, status, provider_idempotency_key, error, usage_period_start from sent_emails order by created_at`,
        ).toEqual([
          {
            id: interrupted,
            status: "failed",
            provider_idempotency_key: "lp-retried",
            error: superseded,
            usage_period_start: null,
          },
          {
            id: retry,
            status: "sent",
            provider_idempotency_key: null,
            error: null,
            usage_period_start: new Date(period),
          },
          {
            id: firstAttempt,
            status: "pending",
            provider_idempotency_key: "lp-twice",
            error: null,
            usage_period_start: new Date(period),
          },
          {
            id: secondAttempt,
            status: "failed",
            provider_idempotency_key: "lp-twice",
            error: superseded,
            usage_period_start: null,
          },
          {
            id: answered,
            status: "sent",
            provider_idempotency_key: null,
            error: null,
            usage_period_start: new Date(period),
          },
          {
            id: unkeyed,
            status: "pending",
            provider_idempotency_key: null,
            error: null,
            usage_period_start: new Date(period),
          },
        ]);
        expect(await db`select count from usage_counters where account_id = ${account}`).toEqual([{ count: 4 }]);
        expect(await db`select sum(count)::int as count from usage_daily where account_id = ${account}`).toEqual([
          { count: 4 },
        ]);

        await expect(
          db`insert into sent_emails (account_id, status, provider, from_address, to_addresses, subject, html, provider_idempotency_key)
           values (${account}, 'sent', 'resend', 'hello@x.example', '{ann@x.example}', 'again', '<p>Hi</p>', 'lp-twice')`,
        ).rejects.toMatchObject({ code: "23505" });
      });
    },
  );
});

// Templates saved before typed contracts hold a list of flat declarations; the migration turns each list into the
// JSON Schema the render path now checks against, keeping the declarations' order, defaults and descriptions.
describe("migration 20261124003000_variables_schema.sql", () => {
  const MIGRATION = "20261124003000_variables_schema.sql";

  it(
    "turns declarations into a JSON Schema, in their order, and an empty list into an open schema",
    { timeout: 60_000 },
    async () => {
      await withDatabaseBefore(MIGRATION, async (db) => {
        const [{ id: accountId }] = await db<
          { id: string }[]
        >`insert into accounts (email) values ('m@x.example') returning id`;
        const template = async (name: string, variables: unknown) =>
          (
            await db<{ id: string }[]>`
            insert into templates (owner_account_id, name, description, is_public, price, code, variables)
            values (${accountId}, ${name}, '', false, 0, 'export default () => null', ${db.json(variables as never)})
            returning id`
          )[0].id;
        const declared = await template("declared", [
          { name: "zebra", type: "string", required: true },
          { name: "amount", type: "number", required: false, default: 0, description: "Total due" },
          { name: "lines", type: "array", required: true },
          { name: "flag", type: "boolean", required: false, default: null },
        ]);
        const empty = await template("empty", []);
        const odd = await template("odd", [
          null,
          "text",
          { type: "string" },
          { name: "toString", type: "string", required: true },
          { name: "not an identifier", type: "string" },
          { name: "twice", type: "string", required: true },
          { name: "kind", type: "color", required: "yes" },
          { name: "twice", type: "number", required: 2 },
        ]);
        const notAList = await template("not a list", { name: "x" });

        expect((await migrate(db)).applied).toContain(MIGRATION);

        const rows = await db<{ id: string; variables: unknown; preview_props: unknown }[]>`
        select id, variables, preview_props from templates where id in (${declared}, ${empty}, ${odd}, ${notAList})`;
        const byId = new Map(rows.map((row) => [row.id, row]));
        expect(JSON.stringify(byId.get(declared)!.variables)).toBe(
          JSON.stringify({
            $schema: "https://json-schema.org/draft/2020-12/schema",
            type: "object",
            properties: {
              zebra: { type: "string" },
              amount: { type: "number", default: 0, description: "Total due" },
              lines: { type: "array" },
              flag: { type: "boolean", default: null },
            },
            required: ["zebra", "lines"],
            additionalProperties: true,
          }),
        );
        // Only declarable names count, the last of two wins at the first one's place, unknown types declare none.
        expect(JSON.stringify(byId.get(odd)!.variables)).toBe(
          JSON.stringify({
            $schema: "https://json-schema.org/draft/2020-12/schema",
            type: "object",
            properties: { twice: { type: "number" }, kind: {} },
            additionalProperties: true,
          }),
        );
        expect(byId.get(notAList)!.variables).toEqual(byId.get(empty)!.variables);
        const grantees = await db`
        select grantee from information_schema.routine_privileges
        where routine_name = 'send_context' and privilege_type = 'EXECUTE' and grantee in ('PUBLIC', 'anon', 'authenticated')`;
        expect(grantees).toEqual([]);
        expect(byId.get(empty)).toEqual({
          id: empty,
          variables: {
            $schema: "https://json-schema.org/draft/2020-12/schema",
            type: "object",
            properties: {},
            additionalProperties: true,
          },
          preview_props: null,
        });
      });
    },
  );
});

// Emails recorded before the migration get the status the API names and the one event their hand-off made.
describe("migration 20261124004000_email_events.sql", () => {
  const MIGRATION = "20261124004000_email_events.sql";

  it("gives every email recorded before it its status and its hand-off's event", { timeout: 60_000 }, async () => {
    await withDatabaseBefore(MIGRATION, async (db) => {
      const [{ id: account }] = await db<
        { id: string }[]
      >`insert into accounts (email) values ('a@x.example') returning id`;
      const email = async (name: string, status: string, extra: { sentAt?: string; error?: string } = {}) =>
        (
          await db<{ id: string }[]>`
            insert into sent_emails (account_id, status, provider, from_address, to_addresses, subject, html, sent_at,
                                     error, created_at)
            values (${account}, ${status}, 'outbox', 'hello@x.example', '{ann@x.example}', ${name}, '<p>Hi</p>',
                    ${extra.sentAt ?? null}, ${extra.error ?? null}, '2026-11-20T10:00:00Z')
            returning id`
        )[0].id;
      const pending = await email("pending", "pending");
      const sent = await email("sent", "sent", { sentAt: "2026-11-20T10:00:01Z" });
      const scheduled = await email("scheduled", "scheduled");
      const failed = await email("failed", "failed", { error: "resend: HTTP 422: bad" });

      expect((await migrate(db)).applied).toContain(MIGRATION);

      const rows = await db<{ id: string; delivery_status: string }[]>`
        select id, delivery_status from sent_emails order by subject`;
      expect(rows.map((row) => [row.id, row.delivery_status])).toEqual([
        [failed, "failed"],
        [pending, "queued"],
        [scheduled, "scheduled"],
        [sent, "sent"],
      ]);
      const events = await db<{ email_id: string; type: string; occurred_at: Date; detail: unknown }[]>`
        select email_id, type, occurred_at, detail from email_events order by type`;
      expect(events.map((e) => [e.email_id, e.type, e.occurred_at.toISOString(), e.detail])).toEqual([
        [failed, "failed", "2026-11-20T10:00:00.000Z", { message: "resend: HTTP 422: bad" }],
        [scheduled, "scheduled", "2026-11-20T10:00:00.000Z", null],
        [sent, "sent", "2026-11-20T10:00:01.000Z", null],
      ]);
    });
  });
});

// Templates saved before PreviewProps were read without `__proto__` keys kept them in their example, which render and
// send then refused; the migration leaves those keys out, at any depth, and every other value and order as it was.
describe("migration 20261124011000_preview_props_without_proto.sql", () => {
  const MIGRATION = "20261124011000_preview_props_without_proto.sql";

  it(
    "leaves __proto__ keys out of stored PreviewProps, at any depth, and the rest as it was",
    { timeout: 60_000 },
    async () => {
      await withDatabaseBefore(MIGRATION, async (db) => {
        const [{ id: accountId }] = await db<
          { id: string }[]
        >`insert into accounts (email) values ('m@x.example') returning id`;
        const template = async (name: string, previewProps: string | null) =>
          (
            await db<{ id: string }[]>`
            insert into templates (owner_account_id, name, description, is_public, price, code, preview_props)
            values (${accountId}, ${name}, '', false, 0, 'export default () => null', ${previewProps}::text::json)
            returning id`
          )[0].id;
        const polluted = await template(
          "polluted",
          '{"zeta":"z","__proto__":{"polluted":true},"meta":{"tag":"a","__proto__":1,"list":[{"__proto__":[],"b":2},3]},"alpha":"a"}',
        );
        const onlyProto = await template("only", '{"__proto__":{"x":1}}');
        const mentioned = await template("mentioned", '{"note":"the \\"__proto__\\" key","z":1,"a":2}');
        const none = await template("none", null);

        expect((await migrate(db)).applied).toContain(MIGRATION);

        const rows = await db<{ id: string; preview_props: unknown }[]>`
        select id, preview_props from templates where id in (${polluted}, ${onlyProto}, ${mentioned}, ${none})`;
        const byId = new Map(rows.map((row) => [row.id, JSON.stringify(row.preview_props)]));
        expect(byId.get(polluted)).toBe('{"zeta":"z","meta":{"tag":"a","list":[{"b":2},3]},"alpha":"a"}');
        expect(byId.get(onlyProto)).toBe("{}");
        expect(byId.get(mentioned)).toBe('{"note":"the \\"__proto__\\" key","z":1,"a":2}');
        expect(byId.get(none)).toBe("null");
        const [{ left }] =
          await db`select count(*)::int as left from pg_proc where proname = 'json_without_proto_keys'`;
        expect(left).toBe(0);
      });
    },
  );
});

// The migration that refuses another account's parent and sub-domains must run on a database that already holds such
// pairs: they stay, their owners may add them again (a refresh is an upsert), and no new one can be made.
describe("migration 20261124013000_sending_domain_overlap.sql", () => {
  const MIGRATION = "20261124013000_sending_domain_overlap.sql";

  it("keeps the pairs that overlapped before, lets their owners add them again, and refuses new ones", async () => {
    await withDatabaseBefore(MIGRATION, async (db) => {
      const account = async (email: string) =>
        (await db<{ id: string }[]>`insert into accounts (email) values (${email}) returning id`)[0].id;
      const [parent, child, newcomer] = [
        await account("a@x.example"),
        await account("b@x.example"),
        await account("c@x.example"),
      ];
      const upsert = (accountId: string, domain: string) => db`
        insert into sending_domains (account_id, domain, verified) values (${accountId}, ${domain}, true)
        on conflict (lower(domain)) do update set verified = true where sending_domains.account_id = excluded.account_id
        returning account_id, domain`;
      await upsert(parent, "legacy.example");
      await upsert(child, "mail.legacy.example");

      expect((await migrate(db)).applied).toContain(MIGRATION);

      expect(await upsert(parent, "legacy.example")).toEqual([{ account_id: parent, domain: "legacy.example" }]);
      expect(await upsert(child, "mail.legacy.example")).toEqual([
        { account_id: child, domain: "mail.legacy.example" },
      ]);
      for (const domain of ["news.legacy.example", "news.mail.legacy.example"]) {
        await expect(upsert(newcomer, domain)).rejects.toMatchObject({
          code: "23P01",
          constraint_name: "sending_domains_overlap",
          message: `${domain} is a parent or sub-domain of another account's sending domain`,
        });
      }
      expect(await db`select account_id, domain from sending_domains order by domain`).toEqual([
        { account_id: parent, domain: "legacy.example" },
        { account_id: child, domain: "mail.legacy.example" },
      ]);
    });
  }, 60_000);
});

// The migration that gives templates versions must run on a database that holds templates of every kind: each user
// template becomes version 1, published, with its files; catalogue templates are version 1 too; emails keep theirs.
describe("migration 20261126000100_template_versions.sql", () => {
  const MIGRATION = "20261126000100_template_versions.sql";

  it("makes every user template version 1, published, with its current files", { timeout: 60_000 }, async () => {
    await withDatabaseBefore(MIGRATION, async (db) => {
      const [{ id: accountId }] = await db<
        { id: string }[]
      >`insert into accounts (email) values ('v@x.example') returning id`;
      const [{ id: single }] = await db<{ id: string }[]>`
        insert into templates (owner_account_id, name, code, compiled_code, variables, preview_props, updated_at)
        values (${accountId}, 'One', 'export default () => null', 'compiled one', '{"type":"object"}',
                '{"name":"Ann"}', '2026-11-20T10:00:00Z')
        returning id`;
      const [{ id: several }] = await db<{ id: string }[]>`
        insert into templates (owner_account_id, name, code, compiled_code, files, entry, updated_at)
        values (${accountId}, 'Two', 'import F from "./f"', 'compiled two',
                '{"email.tsx":"import F from \\"./f\\"","f.tsx":"export default 1"}', 'email.tsx',
                '2026-11-21T10:00:00Z')
        returning id`;
      const [{ id: catalogue }] = await db<{ id: string }[]>`
        insert into templates (slug, name, code, is_public) values ('hello-v', 'Hello', 'x', true) returning id`;
      await db`
        insert into sent_emails (account_id, template_id, status, provider, from_address, to_addresses, subject, html)
        values (${accountId}, ${single}, 'sent', 'outbox', 'a@x.example', '{b@x.example}', 'Hi', '<p>Hi</p>')`;
      const templatesBefore = await db`select * from templates order by name`;

      expect((await migrate(db)).applied).toContain(MIGRATION);

      expect(await db`select id, name, published_version, draft_revision from templates order by name`).toEqual([
        { id: catalogue, name: "Hello", published_version: 1, draft_revision: 0 },
        { id: single, name: "One", published_version: 1, draft_revision: 0 },
        { id: several, name: "Two", published_version: 1, draft_revision: 0 },
      ]);
      // The templates' own columns are as they were (the later aliases and compatibility migrations add one each, and
      // the locales migration two, the components migration one, null for all).
      const templatesAfter = await db`select * from templates order by name`;
      expect(templatesAfter.map(({ published_version: _p, draft_revision: _d, ...row }) => row)).toEqual(
        templatesBefore.map((row) => ({
          ...row,
          alias: null,
          compatibility: null,
          locales: null,
          default_locale: null,
          components: null,
        })),
      );
      expect(
        await db`
          select template_id, version, code, files::text as files, entry, compiled_code, variables::text as variables,
                 preview_props::text as preview_props, created_at, published_at
          from template_versions order by created_at`,
      ).toEqual([
        {
          template_id: single,
          version: 1,
          code: "export default () => null",
          files: null,
          entry: null,
          compiled_code: "compiled one",
          variables: '{"type":"object"}',
          preview_props: '{"name":"Ann"}',
          created_at: new Date("2026-11-20T10:00:00Z"),
          published_at: new Date("2026-11-20T10:00:00Z"),
        },
        {
          template_id: several,
          version: 1,
          code: 'import F from "./f"',
          files: '{"email.tsx":"import F from \\"./f\\"","f.tsx":"export default 1"}',
          entry: "email.tsx",
          compiled_code: "compiled two",
          variables: expect.any(String),
          preview_props: null,
          created_at: new Date("2026-11-21T10:00:00Z"),
          published_at: new Date("2026-11-21T10:00:00Z"),
        },
      ]);
      expect(await db`select count(*)::int as drafts from template_drafts`).toEqual([{ drafts: 0 }]);
      expect(await db`select subject, template_version from sent_emails`).toEqual([
        { subject: "Hi", template_version: null },
      ]);

      // Deleting a template deletes its versions.
      await db`delete from templates where id = ${several}`;
      expect(await db`select template_id from template_versions`).toEqual([{ template_id: single }]);
    });
  });
});
