import { describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { withDatabaseBefore } from "./support/migration-db";

// The migration that makes a sending domain belong to one account must run on a database that already holds the same
// domain on several accounts: it keeps one (Resend-verified, else verified, else the oldest) and releases the others.
const MIGRATION = "20261124000300_domain_owner_and_orphaned_sends.sql";

describe(`migration ${MIGRATION}`, () => {
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
