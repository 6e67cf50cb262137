import { describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { withDatabaseBefore } from "./support/migration-db";

// Templates saved before typed contracts hold a list of flat declarations; the migration turns each list into the
// JSON Schema the render path now checks against, keeping the declarations' order, defaults and descriptions.
const MIGRATION = "20261124003000_variables_schema.sql";

describe(`migration ${MIGRATION}`, () => {
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
