import { describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { withDatabaseBefore } from "./support/migration-db";

// The migration that refuses another account's parent and sub-domains must run on a database that already holds such
// pairs: they stay, their owners may add them again (a refresh is an upsert), and no new one can be made.
const MIGRATION = "20261124013000_sending_domain_overlap.sql";

describe(`migration ${MIGRATION}`, () => {
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
