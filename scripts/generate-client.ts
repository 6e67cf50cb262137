/**
 * Writes packages/letterpress/src/openapi.ts, the typed client's request and response types, from the app's OpenAPI
 * document (scripts/lib/client-types.ts). Run after changing the API's contract (lib/api/contract/).
 *
 * Usage: npm run client:generate
 */
import { writeFileSync } from "node:fs";
import { CLIENT_TYPES_FILE, generateClientTypes } from "./lib/client-types";

writeFileSync(CLIENT_TYPES_FILE, await generateClientTypes());
console.log(`Wrote ${CLIENT_TYPES_FILE}`);
