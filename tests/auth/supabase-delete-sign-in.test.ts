import { beforeEach, describe, expect, it, vi } from "vitest";
import { signInAction } from "@/app/(auth)/actions";
import { deleteSignInAction } from "@/app/dashboard/settings/delete-sign-in/actions";
import { SIGN_IN_DELETION_UNAVAILABLE_MESSAGE } from "@/lib/auth/provider";
import { getDb } from "@/lib/db/client";
import { envForSuite, setTestEnv } from "../support/env";
import { browser, newBrowser, submit } from "../support/next-headers";
import { useSupabaseAuthStandIn, type StandInUser } from "../support/supabase-auth";

vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

// With Supabase Auth, deleting one's sign-in (Settings → Delete sign-in) deletes their Auth user too, through the
// admin API with the project's secret key, after their row: else their next sign-in would make a new, empty person.

const supabase = useSupabaseAuthStandIn();
envForSuite(() => ({ SUPABASE_SECRET_KEY: supabase.serviceRoleKey, SUPABASE_SERVICE_ROLE_KEY: undefined }));

const password = "correct horse battery staple";
const adminRequests = () => supabase.requests.filter((line) => line.includes("/auth/v1/admin/"));
const personRows = async (user: StandInUser) =>
  getDb()<{ email: string }[]>`select email from people where auth_user_id = ${user.id}`;
/** The session cookies the browser keeps (@supabase/ssr clears one by setting it empty). */
const sessionCookies = () =>
  [...browser.cookies].filter(([name, value]) => name.startsWith(supabase.cookieName) && value);

/** A Supabase user signed in through the sign-in form in a new browser: their person and team made on the way. */
async function signedInUser(): Promise<StandInUser> {
  newBrowser(`203.0.113.${Math.floor(Math.random() * 200) + 20}`);
  const user = supabase.createUser({ password });
  expect(await submit(signInAction, { email: user.email, password, next: "/dashboard" })).toEqual({
    redirect: "/dashboard",
  });
  expect(await personRows(user)).toEqual([{ email: user.email }]);
  return user;
}

/** Runs `work`, answering it and the error lines it logged, parsed (supabase-js's own warnings left out). */
async function loggingErrors<T>(work: () => Promise<T>): Promise<{ result: T; errors: unknown[] }> {
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    const result = await work();
    const errors = error.mock.calls
      .map(([line]) => String(line))
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
    return { result, errors };
  } finally {
    error.mockRestore();
    warn.mockRestore();
  }
}

beforeEach(() => {
  supabase.adminOutage = false;
});

describe("deleting one's sign-in with Supabase Auth", () => {
  it("deletes the person, then their Auth user with the secret key, and signs this browser out", async () => {
    const user = await signedInUser();
    const asked = supabase.requests.length;
    const { result, errors } = await loggingErrors(() => submit(deleteSignInAction, {}));
    expect(result).toEqual({ redirect: "/" });
    expect(errors).toEqual([]);
    expect(await personRows(user)).toEqual([]);
    expect(supabase.hasUser(user.id)).toBe(false);
    expect(supabase.deletedUsers).toContain(user.id);
    expect(supabase.requests.slice(asked).filter((line) => !line.startsWith("GET /auth/v1/.well-known"))).toEqual([
      "POST /auth/v1/logout?scope=local",
      `GET /auth/v1/admin/users/${user.id}`,
      `DELETE /auth/v1/admin/users/${user.id}`,
    ]);
    // Only the admin API saw the secret key; the browser's requests carried the publishable one.
    expect(supabase.apiKeys.slice(-3)).toEqual([supabase.anonKey, supabase.serviceRoleKey, supabase.serviceRoleKey]);
    expect(sessionCookies()).toEqual([]);

    // Nothing is left to sign in with: no new, empty person is made.
    newBrowser("203.0.113.9");
    expect(await submit(signInAction, { email: user.email, password, next: "/dashboard" })).toEqual({
      state: {
        status: "error",
        message: "That email and password don't match an account. Check them and try again.",
        fields: {},
        email: user.email,
      },
    });
    expect(await personRows(user)).toEqual([]);
  });

  it("is done when the Auth user was deleted already (from Supabase's dashboard, say)", async () => {
    const user = await signedInUser();
    await fetch(`${supabase.url}/auth/v1/admin/users/${user.id}`, {
      method: "DELETE",
      headers: { apikey: supabase.serviceRoleKey },
    });
    const { result, errors } = await loggingErrors(() => submit(deleteSignInAction, {}));
    expect(result).toEqual({ redirect: "/" });
    expect(errors).toEqual([]);
    expect(await personRows(user)).toEqual([]);
  });

  it("keeps the person deleted when the admin API fails, logging it with the request's id", async () => {
    const user = await signedInUser();
    supabase.adminOutage = true;
    const { result, errors } = await loggingErrors(() => submit(deleteSignInAction, {}));
    expect(result).toEqual({ redirect: "/" });
    expect(await personRows(user)).toEqual([]);
    expect(supabase.hasUser(user.id)).toBe(true);
    expect(errors).toEqual([
      {
        level: "error",
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        message: "deleting a deleted person's sign-in at the auth provider failed",
        personId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        error: "Sign-in is unavailable right now (Database error deleting user).",
      },
    ]);
  });

  it("is refused, deleting nothing, without the project's secret key", async () => {
    const user = await signedInUser();
    setTestEnv({ SUPABASE_SECRET_KEY: undefined });
    const before = adminRequests().length;
    expect(await submit(deleteSignInAction, {})).toEqual({
      state: { status: "error", message: SIGN_IN_DELETION_UNAVAILABLE_MESSAGE },
    });
    expect(await personRows(user)).toEqual([{ email: user.email }]);
    expect(supabase.hasUser(user.id)).toBe(true);
    expect(adminRequests()).toHaveLength(before);
  });

  it("takes the legacy service_role key as the Supabase integration for Vercel sets it", async () => {
    const user = await signedInUser();
    setTestEnv({ SUPABASE_SECRET_KEY: undefined, SUPABASE_SERVICE_ROLE_KEY: supabase.serviceRoleKey });
    expect(await submit(deleteSignInAction, {})).toEqual({ redirect: "/" });
    expect(supabase.hasUser(user.id)).toBe(false);
  });
});
