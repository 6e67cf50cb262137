import { describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { withDatabaseBefore } from "./support/migration-db";

// The migration that makes one email per provider idempotency key must run on a database whose emails break that rule
// already: an interrupted email next to its caller's retry, or two interrupted attempts under one key.
const MIGRATION = "20261124001000_one_email_per_provider_key.sql";

describe(`migration ${MIGRATION}`, () => {
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
