import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { CLIENT_GENERATE_COMMAND, CLIENT_TYPES_FILE, generateClientTypes } from "@/scripts/lib/client-types";

const PACKAGE = path.resolve(import.meta.dirname, "../../packages/letterpress");

describe("the letterpress package", () => {
  it("has the types openapi-typescript makes of the app's OpenAPI document", async () => {
    const generated = await generateClientTypes();
    expect(
      readFileSync(CLIENT_TYPES_FILE, "utf8") === generated,
      `packages/letterpress/src/openapi.ts is not the app's OpenAPI document: run \`${CLIENT_GENERATE_COMMAND}\``,
    ).toBe(true);
  });

  it("compiles on its own, as published: from its sources and its dependencies only", () => {
    const { config } = ts.readConfigFile(path.join(PACKAGE, "tsconfig.json"), ts.sys.readFile);
    const { options, fileNames } = ts.parseJsonConfigFileContent(config, ts.sys, PACKAGE);
    const program = ts.createProgram(fileNames, { ...options, noEmit: true });
    expect(
      ts.getPreEmitDiagnostics(program).map(({ messageText }) => ts.flattenDiagnosticMessageText(messageText, "\n")),
    ).toEqual([]);
    const outside = program
      .getSourceFiles()
      .map(({ fileName }) => path.relative(PACKAGE, fileName))
      .filter((file) => !file.startsWith("src/") && !file.includes("node_modules/"));
    expect(outside).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(PACKAGE, "package.json"), "utf8"));
    expect({ exports: manifest.exports, bin: manifest.bin, files: manifest.files }).toEqual({
      exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
      bin: { letterpress: "./bin/letterpress.js" },
      files: ["bin", "dist", "README.md"],
    });
  });
});
