import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_GENERATE_COMMAND, CLIENT_TYPES_FILE, generateClientTypes } from "@/scripts/lib/client-types";

describe("the letterpress package's types (packages/letterpress/src/openapi.ts)", () => {
  it("are what openapi-typescript makes of the app's OpenAPI document", async () => {
    const generated = await generateClientTypes();
    expect(
      readFileSync(CLIENT_TYPES_FILE, "utf8") === generated,
      `packages/letterpress/src/openapi.ts is not the app's OpenAPI document: run \`${CLIENT_GENERATE_COMMAND}\``,
    ).toBe(true);
  });
});
