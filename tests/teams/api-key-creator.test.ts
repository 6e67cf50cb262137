import { describe, expect, it, vi } from "vitest";
import { createApiKeyAction } from "@/app/dashboard/settings/api-keys/actions";
import { createApiKey, listApiKeysWithCreator } from "@/lib/api-keys/data";
import { getDb } from "@/lib/db/client";
import { createUser } from "../support/api";
import { signedIn } from "../support/signed-in";

// Issue 48: a key belongs to the team, and the dashboard shows who created it (the CLI's keys have no creator).
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
vi.mock("next/headers", () => import("../support/next-headers"));

describe("a key's creator", () => {
  it("is the person who generated it in the dashboard, and none for a key the CLI made", async () => {
    const user = await createUser();
    signedIn.accountId = user.accountId;
    signedIn.personId = undefined;
    const form = new FormData();
    for (const [name, value] of Object.entries({
      name: "deploys",
      kind: "live",
      scope: "full_access",
      domain: "",
      expiresInDays: "never",
    }))
      form.set(name, value);
    const state = await createApiKeyAction({ status: "idle" }, form);
    expect(state).toMatchObject({ status: "success", name: "deploys" });
    const cli = await createApiKey(user.accountId, { name: "cli" });

    const keys = await listApiKeysWithCreator(user.accountId);
    expect(
      keys.map(({ name, created_by_email }) => ({ name, created_by_email })).sort((a, b) => (a.name < b.name ? -1 : 1)),
    ).toEqual([
      { name: "cli", created_by_email: null },
      { name: "deploys", created_by_email: user.email },
      { name: "test key", created_by_email: null },
    ]);
    expect(await getDb()`select created_by from api_keys where id = ${cli.id}`).toEqual([{ created_by: null }]);
  });
});
