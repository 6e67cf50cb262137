import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getOpenApi } from "@/app/api/v1/openapi.json/route";
import { limitsTable } from "@/lib/core/limits";
import { call } from "../support/api";

// The limits the code enforces, as the README and the OpenAPI document state them: both show lib/core/limits.ts's
// table.
describe("the limits table", () => {
  it("is the README's Limits section, word for word", () => {
    const readme = readFileSync(path.join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    const section = readme.slice(
      readme.indexOf("\n## Limits\n"),
      readme.indexOf("\n## ", readme.indexOf("\n## Limits\n") + 1),
    );
    expect(section).toContain(`\n${limitsTable()}\n`);
  });

  it("is in the OpenAPI document's description", async () => {
    const { body } = await call(getOpenApi, "/api/v1/openapi.json");
    expect(body.info.description).toContain(`## Limits\n\n${limitsTable()}`);
  });
});
