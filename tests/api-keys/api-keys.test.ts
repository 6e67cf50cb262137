import { describe, expect, it } from "vitest";
import { crc32 } from "node:zlib";
import {
  API_KEY_PATTERN,
  apiKeyProblem,
  displayFragment,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from "@/lib/api-keys/service";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { revokeApiKey, listApiKeys } from "@/lib/api-keys/data";
import { getDb } from "@/lib/db/client";
import { call, createUser } from "../support/api";

describe("API key generation", () => {
  it("is the kind's prefix, 43 random base62 characters and a 6-character checksum", () => {
    for (const kind of ["live", "test"] as const) {
      const { key, prefix } = generateApiKey(kind);
      expect(prefix).toBe(`lp_${kind}_`);
      expect(key).toMatch(new RegExp(`^lp_${kind}_[0-9A-Za-z]{49}$`));
      expect(key).toMatch(API_KEY_PATTERN);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it("has a checksum a scanner can verify: CRC-32 of the rest, in base62", () => {
    const { key } = generateApiKey();
    const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let value = crc32(key.slice(0, -6));
    let digits = "";
    for (let i = 0; i < 6; i++) {
      digits = base62[value % 62] + digits;
      value = Math.floor(value / 62);
    }
    expect(key.slice(-6)).toBe(digits);
  });

  it("never repeats and hashes with SHA-256", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey().key));
    expect(keys.size).toBe(1000);
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("shows only a fragment of the key", () => {
    const { key, displayFragment: fragment } = generateApiKey();
    expect(fragment).toBe(`lp_live_…${key.slice(-4)}`);
    expect(generateApiKey("test").displayFragment).toMatch(/^lp_test_…[0-9A-Za-z]{4}$/);
    expect(displayFragment("lp_live_abcdefgh")).toBe("lp_live_…efgh");
  });

  it("rejects keys of the wrong shape or checksum before any lookup; keys made before the checksum still pass", () => {
    const { key } = generateApiKey();
    const last = key.at(-1) === "a" ? "b" : "a";
    const typo = key.slice(0, 20) + (key[20] === "x" ? "y" : "x") + key.slice(21);
    for (const bad of [
      "",
      "lp_live_",
      "lp_test_" + "a".repeat(43),
      "lp_live_" + "a".repeat(42),
      "lp_live_" + "a".repeat(42) + "!",
      key.slice(0, -1) + last,
      typo,
      key.replace("lp_live_", "lp_test_"),
      key + "a",
    ]) {
      expect([bad, isWellFormedApiKey(bad)]).toEqual([bad, false]);
    }
    expect(isWellFormedApiKey("lp_live_" + "A-_b".repeat(10) + "xyz")).toBe(true);
  });

  it("says what is wrong with a malformed key (prefix, shape or checksum), never quoting it", () => {
    const { key } = generateApiKey("test");
    const malformed = "The API key is malformed";
    expect(apiKeyProblem(key)).toBeNull();
    expect(apiKeyProblem("lp_live_" + "A-_b".repeat(10) + "xyz")).toBeNull();
    expect(apiKeyProblem(key.replace("lp_test_", "lp_prod_"))).toBe(
      `${malformed}: it does not start with lp_live_ or lp_test_.`,
    );
    expect(apiKeyProblem("key-from-another-service")).toBe(
      `${malformed}: it does not start with lp_live_ or lp_test_.`,
    );
    expect(apiKeyProblem(key + "a")).toBe(`${malformed}: after its prefix a key has 49 letters and digits.`);
    expect(apiKeyProblem("lp_test_" + "a".repeat(48) + "!")).toBe(
      `${malformed}: after its prefix a key has 49 letters and digits.`,
    );
    expect(apiKeyProblem(key.slice(0, -1) + (key.at(-1) === "a" ? "b" : "a"))).toBe(
      `${malformed}: its checksum does not match, so a character was changed or lost in copying.`,
    );
  });
});

describe("API key storage and lookup", () => {
  it("stores only the hash and the display fragment, never the key", async () => {
    const user = await createUser();
    const [row] = await getDb()`select * from api_keys where id = ${user.keyId}`;
    expect(row.key_hash).toBe(hashApiKey(user.key));
    expect(row.display_fragment).toBe(displayFragment(user.key));
    expect(JSON.stringify(row)).not.toContain(user.key);
  });

  it("finds the account by the key, tracks last use, and refuses the key once revoked", async () => {
    const user = await createUser();
    const before = await listApiKeys(user.accountId);
    expect(before[0].last_used_at).toBeNull();
    expect((await call(getUsage, "/api/v1/usage", { headers: { "x-api-key": user.key } })).status).toBe(200);
    const [afterUse] = await listApiKeys(user.accountId);
    expect(afterUse.last_used_at).toBeInstanceOf(Date);

    // At most one write a minute: a second call keeps the same timestamp.
    await call(getUsage, "/api/v1/usage", { headers: { "x-api-key": user.key } });
    const [again] = await listApiKeys(user.accountId);
    expect(again.last_used_at!.getTime()).toBe(afterUse.last_used_at!.getTime());

    const revoked = await revokeApiKey(user.keyId, user.accountId);
    expect(revoked?.revoked_at).toBeInstanceOf(Date);
    const refused = await call(getUsage, "/api/v1/usage", { headers: { "x-api-key": user.key } });
    expect(refused.status).toBe(401);
    // The same words as a key that never existed: an answer does not tell whether a key was ever issued.
    expect(refused.body).toEqual({
      error: "Authentication required",
      code: "UNAUTHORIZED",
      success: false,
      message:
        "The API key is unknown or revoked: use a key listed on the dashboard's API keys page (Settings), or create one.",
    });
  });

  it("does not revoke another account's key", async () => {
    const owner = await createUser();
    const other = await createUser();
    expect(await revokeApiKey(owner.keyId, other.accountId)).toBeNull();
    expect((await call(getUsage, "/api/v1/usage", { headers: { "x-api-key": owner.key } })).status).toBe(200);
  });
});
