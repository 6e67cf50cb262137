import { describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { withDatabaseBefore } from "./support/migration-db";

// Templates saved before PreviewProps were read without `__proto__` keys kept them in their example, which render and
// send then refused; the migration leaves those keys out, at any depth, and every other value and order as it was.
const MIGRATION = "20261124011000_preview_props_without_proto.sql";

describe(`migration ${MIGRATION}`, () => {
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
