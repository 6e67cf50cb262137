import { describe, expect, it, vi } from "vitest";
import { forgotPasswordAction, signInAction } from "@/app/(auth)/actions";
import { changeEmailAction, changePasswordAction } from "@/app/dashboard/settings/actions";
import { newBrowser, submit } from "../support/next-headers";
import { useSupabaseAuthStandIn } from "../support/supabase-auth";

vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

// With Supabase Auth configured, "Forgot password?" and Settings' changes of password and email use Supabase's own
// flows (its emails, its links through /auth/callback): which calls reach the project, and what the forms answer.

const supabase = useSupabaseAuthStandIn();
/** The calls to the project since `asked`, but for fetching its public keys (once, whenever a session is first read). */
const callsSince = (asked: number) => supabase.requests.slice(asked).filter((line) => !line.includes("jwks.json"));
const requests = supabase.requests;

// supabase-js logs its Node 20 deprecation: expected here, so kept quiet.
const EXPECTED_NOISE = /@supabase\/ssr|Node\.js 20/;
for (const level of ["error", "warn"] as const) {
  const original = console[level].bind(console);
  vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
    if (!args.some((arg) => EXPECTED_NOISE.test(String(arg)))) original(...args);
  });
}

const redirectTo = (next: string) => encodeURIComponent(`http://localhost:3000/auth/callback?next=${next}`);

async function signedInUser() {
  const user = supabase.createUser();
  newBrowser(`203.0.113.${Math.floor(Math.random() * 200) + 20}`);
  expect(await submit(signInAction, { email: user.email, password: user.password, next: "/dashboard" })).toEqual({
    redirect: "/dashboard",
  });
  return user;
}

describe("Forgot password? with Supabase Auth", () => {
  it("asks Supabase to mail its reset link, continuing through the callback to the reset page", async () => {
    const user = supabase.createUser();
    for (const email of [user.email, "nobody-here@example.com"]) {
      newBrowser(`203.0.113.${Math.floor(Math.random() * 200) + 20}`);
      const asked = requests.length;
      expect(await submit(forgotPasswordAction, { email })).toEqual({
        state: {
          status: "check_email",
          email,
          message: `If an account exists for ${email}, we sent it a link to choose a new password. Check your inbox.`,
        },
      });
      expect(callsSince(asked)).toEqual([`POST /auth/v1/recover?redirect_to=${redirectTo("/auth/reset-password")}`]);
    }
  });
});

describe("Settings with Supabase Auth", () => {
  it("changes the password with updateUser after checking the current one, and signs out the other sessions", async () => {
    const user = await signedInUser();
    let asked = requests.length;
    expect(
      await submit(changePasswordAction, { currentPassword: "not the password", password: "another one!" }),
    ).toEqual({
      state: {
        status: "error",
        message: "That is not your current password.",
        fields: { currentPassword: "That is not your current password." },
      },
    });
    expect(callsSince(asked)).toEqual(["POST /auth/v1/token?grant_type=password"]);
    expect(user.password).toBe("correct horse battery staple");

    asked = requests.length;
    expect(await submit(changePasswordAction, { currentPassword: user.password, password: "another one!" })).toEqual({
      state: {
        status: "success",
        message: "Your password was changed. Every other browser signed in to your account was signed out.",
      },
    });
    expect(callsSince(asked)).toEqual([
      "POST /auth/v1/token?grant_type=password",
      "PUT /auth/v1/user",
      "POST /auth/v1/logout?scope=others",
    ]);
    expect(user.password).toBe("another one!");
  });

  it("changes the email with updateUser, whose confirmation link continues through the callback to Settings", async () => {
    const user = await signedInUser();
    const asked = requests.length;
    expect(
      await submit(changeEmailAction, { email: "new-address@example.com", currentPassword: user.password }),
    ).toEqual({
      state: {
        status: "success",
        message: "We sent a link to new-address@example.com. Your email changes when you follow it.",
      },
    });
    expect(callsSince(asked)).toEqual([
      "POST /auth/v1/token?grant_type=password",
      `PUT /auth/v1/user?redirect_to=${redirectTo("/dashboard/settings")}`,
    ]);
    expect(supabase.emailChanges.at(-1)).toEqual({ userId: user.id, email: "new-address@example.com" });
  });
});
