import { afterEach, describe, expect, it, vi } from "vitest";
import { forgotPasswordAction, signInAction } from "@/app/(auth)/actions";
import { changeEmailAction, changePasswordAction } from "@/app/dashboard/settings/actions";
import { GET as authCallback } from "@/app/auth/callback/route";
import { call } from "../support/api";
import { setTestEnv } from "../support/env";
import { getAuthProvider } from "@/lib/auth/provider";
import { getDb } from "@/lib/db/client";
import { createAccount } from "@/lib/auth/data/accounts";
import { browser, newBrowser, submit, useBrowser } from "../support/next-headers";
import { sessionCookies, useSupabaseAuthStandIn } from "../support/supabase-auth";

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

describe("the links of Forgot password? and of a change of email on a Vercel preview", () => {
  const PRODUCTION = "https://letterpress.example.com";
  const BRANCH_URL = "letterpress-git-feature-x-acme.vercel.app";
  const DEPLOYMENT_URL = "letterpress-k3j2h1g0f-acme.vercel.app";
  // The project as the README sets it up (tests/auth/supabase-session.test.ts checks these are the README's).
  const README_REDIRECT_URLS = [
    `${PRODUCTION}/**`,
    "https://letterpress-*-acme.vercel.app/**",
    "http://localhost:3000/**",
  ];

  afterEach(() => {
    Object.assign(supabase.settings, { siteUrl: "http://localhost:3000", redirectUrls: [], confirmEmail: false });
  });

  /**
   * A preview's deployment on Vercel, whose SITE_URL names production (set for every environment), and the browser
   * on `host`, as Vercel's edge forwards it.
   */
  function onPreview(host: string) {
    setTestEnv({
      VERCEL: "1",
      VERCEL_ENV: "preview",
      VERCEL_URL: DEPLOYMENT_URL,
      VERCEL_BRANCH_URL: BRANCH_URL,
      VERCEL_PROJECT_PRODUCTION_URL: "letterpress.example.com",
      SITE_URL: PRODUCTION,
    });
    Object.assign(supabase.settings, { siteUrl: PRODUCTION, redirectUrls: README_REDIRECT_URLS });
    for (const [name, value] of Object.entries({
      host,
      "x-forwarded-host": host,
      "x-forwarded-proto": "https",
      origin: `https://${host}`,
    }))
      browser.headers.set(name, value);
  }

  /** The redirect_to of the request to the project that starts with `start` since `asked`. */
  const redirectToSent = (asked: number, start: string) => {
    const line = callsSince(asked).find((call) => call.startsWith(start))!;
    return new URL(line.slice(line.indexOf(" ") + 1), supabase.url).searchParams.get("redirect_to");
  };

  it.each([BRANCH_URL, DEPLOYMENT_URL])(
    "sends the reset link of a browser on %s back to that host's callback, which signs it in for the reset page",
    async (host) => {
      const user = supabase.createUser();
      newBrowser(`203.0.113.${Math.floor(Math.random() * 200) + 20}`);
      onPreview(host);
      const asked = requests.length;
      expect(await submit(forgotPasswordAction, { email: user.email })).toMatchObject({
        state: { status: "check_email" },
      });
      const callback = `https://${host}/auth/callback?next=/auth/reset-password`;
      expect(redirectToSent(asked, "POST /auth/v1/recover")).toBe(callback);
      // Supabase admits it (a Redirect URL the README names), so the email's link goes there, not to the Site URL.
      const mail = supabase.emails.at(-1)!;
      expect([mail.type, mail.to, mail.redirectTo]).toEqual(["recovery", user.email, callback]);
      const link = await fetch(mail.confirmationUrl, { redirect: "manual" });
      const landing = new URL(link.headers.get("location")!);
      expect([`${landing.origin}${landing.pathname}`, landing.searchParams.get("next")]).toEqual([
        `https://${host}/auth/callback`,
        "/auth/reset-password",
      ]);
      // The browser that asked exchanges the link's code with the verifier it kept, as a cookie of that host.
      const signedIn = await call(authCallback, landing.toString());
      expect([signedIn.status, signedIn.headers.get("location")]).toEqual([307, `https://${host}/auth/reset-password`]);
    },
  );

  it("sends the confirmation link of a change of email back to the preview the browser is on", async () => {
    const user = await signedInUser();
    onPreview(DEPLOYMENT_URL);
    const asked = requests.length;
    expect(
      await submit(changeEmailAction, { email: "preview-change@example.com", currentPassword: user.password }),
    ).toMatchObject({ state: { status: "success" } });
    const callback = `https://${DEPLOYMENT_URL}/auth/callback?next=/dashboard/settings`;
    expect(redirectToSent(asked, "PUT /auth/v1/user")).toBe(callback);
    const mail = supabase.emails.at(-1)!;
    expect([mail.type, mail.to, mail.redirectTo]).toEqual(["email_change", "preview-change@example.com", callback]);
  });

  it("keeps the site's URL where no trusted proxy names the host: a client could write any Host itself", async () => {
    const user = supabase.createUser();
    const { headers } = newBrowser("203.0.113.19");
    for (const name of ["host", "x-forwarded-host"]) headers.set(name, "evil.example");
    headers.set("origin", "https://evil.example");
    const asked = requests.length;
    await submit(forgotPasswordAction, { email: user.email });
    expect(redirectToSent(asked, "POST /auth/v1/recover")).toBe(
      "http://localhost:3000/auth/callback?next=/auth/reset-password",
    );
  });
});

describe("the account's email after a change of email confirmed in Supabase", () => {
  const accountEmail = async (userId: string) =>
    (await getDb()<{ email: string }[]>`select email from people where auth_user_id = ${userId}`)[0]?.email;
  /** The account the browser's session cookies hold now, as every page and API call reads it. */
  const signedInAs = async (state: ReturnType<typeof newBrowser>) => {
    useBrowser(state);
    return (await getAuthProvider().currentSession())?.person.email;
  };

  it("follows it when the link's callback signs the browser in as the new address, and an older session elsewhere never puts the old one back", async () => {
    const user = await signedInUser();
    const asking = { cookies: browser.cookies, headers: browser.headers };
    // The same session on another device, from before the change: its access token still names the old address.
    const other = { cookies: new Map(asking.cookies), headers: new Headers(asking.headers) };
    const before = user.email;
    const after = `changed-${before}`;
    expect(await submit(changeEmailAction, { email: after, currentPassword: user.password })).toMatchObject({
      state: { status: "success" },
    });
    expect(await accountEmail(user.id)).toBe(before);

    const mail = supabase.emails.at(-1)!;
    expect([mail.type, mail.to]).toEqual(["email_change", after]);
    const link = await fetch(mail.confirmationUrl, { redirect: "manual" });
    const confirmed = await call(authCallback, link.headers.get("location")!);
    expect([confirmed.status, confirmed.headers.get("location")]).toEqual([
      307,
      "http://localhost:3000/dashboard/settings",
    ]);
    expect([user.email, await accountEmail(user.id)]).toEqual([after, after]);
    expect(await signedInAs(asking)).toBe(after);
    // The session opened before the change reads the same account, with the new address kept.
    expect(await signedInAs(other)).toBe(after);
    expect(await accountEmail(user.id)).toBe(after);
  });

  it("follows it from a session issued after the change, when the link was opened where the change was not asked", async () => {
    const user = await signedInUser();
    const before = user.email;
    // An account made a minute ago; then the link was followed in a mail app, whose browser kept no PKCE verifier.
    await getDb()`update people set updated_at = now() - interval '1 minute' where auth_user_id = ${user.id}`;
    const stale = newBrowser("203.0.113.17");
    for (const cookie of sessionCookies(supabase.cookieName, supabase.issueSession(user)))
      stale.cookies.set(cookie.name, cookie.value);
    user.email = `elsewhere-${before}`;
    const fresh = newBrowser("203.0.113.16");
    for (const cookie of sessionCookies(supabase.cookieName, supabase.issueSession(user)))
      fresh.cookies.set(cookie.name, cookie.value);

    expect(await signedInAs(fresh)).toBe(user.email);
    expect(await accountEmail(user.id)).toBe(user.email);
    expect(await signedInAs(stale)).toBe(user.email);
  });

  it("keeps the account's own address when another account holds the new one", async () => {
    const user = await signedInUser();
    const before = user.email;
    const taken = `taken-${before}`;
    await createAccount({ email: taken });
    await getDb()`update people set updated_at = now() - interval '1 minute' where auth_user_id = ${user.id}`;
    user.email = taken;
    const session = newBrowser("203.0.113.15");
    for (const cookie of sessionCookies(supabase.cookieName, supabase.issueSession(user)))
      session.cookies.set(cookie.name, cookie.value);
    expect(await signedInAs(session)).toBe(before);
    expect(await accountEmail(user.id)).toBe(before);
  });
});
