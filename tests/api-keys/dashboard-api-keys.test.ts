import { revalidatePath } from "next/cache";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createApiKeyAction } from "@/app/dashboard/settings/api-keys/actions";
import { GET as getLibrary } from "@/app/api/v1/library/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { listApiKeys } from "@/lib/api-keys/data";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { auth, call, createUser, nextInstant, uniqueDomain, type TestUser } from "../support/api";
import { signedIn } from "../support/signed-in";

// Settings → API keys: generating a key with a kind, a scope, a sending domain and an expiry, checked on the server.
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
// A Server Action runs inside a request: its headers give the audit log the client's address.
vi.mock("next/headers", () => import("../support/next-headers"));

const DAY = 86_400_000;

const INSUFFICIENT_SCOPE = {
  error: "API key not allowed",
  code: "INSUFFICIENT_SCOPE",
  success: false,
  message:
    "This API key has sending access only: it may send and batch-send, read and cancel emails, and read usage. Use a full-access key for this endpoint.",
};

/** The form as the page posts it: every field, the defaults unless given. */
function keyForm(fields: Record<string, string>): FormData {
  const data = new FormData();
  const all = { name: "", kind: "live", scope: "full_access", domain: "", expiresInDays: "never", ...fields };
  for (const [name, value] of Object.entries(all)) data.set(name, value);
  return data;
}

async function signIn(): Promise<TestUser & { domain: string }> {
  const user = await createUser();
  const domain = uniqueDomain();
  await addSendingDomain(user.accountId, { domain, verified: true });
  signedIn.accountId = user.accountId;
  return { ...user, domain };
}

/** The signed-in account's keys but the one every test user starts with. */
async function generatedKeys(accountId: string) {
  return (await listApiKeys(accountId)).filter((key) => key.name !== "test key");
}

beforeEach(() => void vi.mocked(revalidatePath).mockClear());

describe("createApiKeyAction", () => {
  it("generates a test, sending-access key bound to the account's domain that expires in 30 days", async () => {
    const user = await signIn();
    const { accountId, domain } = user;
    const before = Date.now();
    const state = await createApiKeyAction(
      { status: "idle" },
      keyForm({
        name: " CI ",
        kind: "test",
        scope: "sending_access",
        domain: domain.toUpperCase(),
        expiresInDays: "30",
      }),
    );
    const after = Date.now();

    expect(state).toEqual({
      status: "success",
      id: expect.any(String),
      key: expect.stringMatching(/^lp_test_[0-9A-Za-z]{49}$/),
      name: "CI",
      scope: "sending_access",
    });
    const [key] = await generatedKeys(accountId);
    expect(key).toEqual({
      id: state.id,
      name: "CI",
      kind: "test",
      scope: "sending_access",
      domain,
      display_fragment: `lp_test_…${state.key!.slice(-4)}`,
      created_at: expect.any(Date),
      last_used_at: null,
      expires_at: expect.any(Date),
      revoked_at: null,
    });
    expect(key.expires_at!.getTime()).toBeGreaterThanOrEqual(before + 30 * DAY);
    expect(key.expires_at!.getTime()).toBeLessThanOrEqual(after + 30 * DAY);
    expect(vi.mocked(revalidatePath).mock.calls).toEqual([["/dashboard/settings/api-keys"], ["/dashboard"]]);

    // The key answers for the same account, within its scope only.
    const usage = await call(getUsage, "/api/v1/usage", { headers: { "x-api-key": state.key! } });
    expect([usage.status, usage.body]).toEqual([
      200,
      (await call(getUsage, "/api/v1/usage", { headers: auth(user) })).body,
    ]);
    const library = await call(getLibrary, "/api/v1/library", { headers: { "x-api-key": state.key! } });
    expect([library.status, library.body]).toEqual([403, INSUFFICIENT_SCOPE]);
  });

  it("generates a live, full-access key that never expires by default, and lets a full-access key have a domain", async () => {
    const { accountId, domain } = await signIn();
    const plain = await createApiKeyAction({ status: "idle" }, keyForm({ name: "Server" }));
    expect(plain).toEqual({
      status: "success",
      id: expect.any(String),
      key: expect.stringMatching(/^lp_live_[0-9A-Za-z]{49}$/),
      name: "Server",
      scope: "full_access",
    });
    await nextInstant();
    await createApiKeyAction({ status: "idle" }, keyForm({ name: "Bound", domain }));

    const keys = await generatedKeys(accountId);
    expect(
      keys.map(({ name, kind, scope, domain, expires_at }) => ({ name, kind, scope, domain, expires_at })),
    ).toEqual([
      { name: "Bound", kind: "live", scope: "full_access", domain, expires_at: null },
      { name: "Server", kind: "live", scope: "full_access", domain: null, expires_at: null },
    ]);
  });

  it("refuses a domain that is not the account's on its field, keeping what was chosen, and stores nothing", async () => {
    const { accountId } = await signIn();
    const other = await createUser();
    const othersDomain = uniqueDomain();
    await addSendingDomain(other.accountId, { domain: othersDomain, verified: true });
    const submitted = {
      name: "Stolen",
      kind: "test",
      scope: "sending_access",
      domain: othersDomain,
      expiresInDays: "7",
    };

    for (const domain of [othersDomain, "nowhere.example"]) {
      const message = `${domain} is not one of your sending domains`;
      expect(await createApiKeyAction({ status: "idle" }, keyForm({ ...submitted, domain }))).toEqual({
        status: "error",
        message,
        fields: { domain: message },
        values: { ...submitted, domain },
      });
    }
    expect(await generatedKeys(accountId)).toEqual([]);
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("refuses a kind, scope or expiry the form does not offer, and a blank name, each on its field", async () => {
    const { accountId } = await signIn();
    const submitted = { name: "   ", kind: "admin", scope: "everything", domain: "", expiresInDays: "10" };
    expect(await createApiKeyAction({ status: "idle" }, keyForm(submitted))).toEqual({
      status: "error",
      message: "Give the key a name",
      fields: {
        name: "Give the key a name",
        kind: "Choose live or test",
        scope: "Choose full access or sending access",
        expiresInDays: "Choose one of the expiries offered",
      },
      values: submitted,
    });
    expect(await generatedKeys(accountId)).toEqual([]);
  });
});
