import { createHash, randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { signInAction, signUpAction } from "@/app/(auth)/actions";
import { getCurrentAccount } from "@/lib/auth/current";
import { hashPassword } from "@/lib/auth/passwords";
import { LOCAL_SESSION_COOKIE } from "@/lib/auth/session";
import { ConfigError, parseConfig } from "@/lib/core/config";
import { createAccount, getAccountByEmailOrThrow } from "@/lib/auth/data/accounts";
import { AppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db/client";
import { proxy } from "@/proxy";
import { BASE } from "../support/api";
import { browser, newBrowser, submit, useBrowser } from "../support/next-headers";
import { useResendStandIn } from "../support/resend-stand-in";
import {
  checkEmail,
  checkInbox,
  finishSignUp,
  openLink,
  requestSignUp,
  signUpLink,
  signUpThroughLink,
  withLoggedEmails,
} from "../support/sign-up";

vi.mock("next/headers", () => import("../support/next-headers"));

// Local sign-up answers every address alike: no session, and an email. A new address is sent a link whose page creates
// the account and signs it in, once, by its button (a same-origin POST), never by opening it: another site can send a
// browser to the link. An address with an account is sent a notice, and its account is left as it was.

const password = "correct horse battery staple";
const newEmail = () => `signup-${randomUUID()}@example.com`;
const submitSignUp = (email: string, pw = password) =>
  submit(signUpAction, { email, password: pw, next: "/dashboard" });
/** The form's answer; the email it sent is left out of the test's output. */
const signUp = async (email: string, pw = password) => (await withLoggedEmails(() => submitSignUp(email, pw))).result;
/** Opening a link that is unknown, used or expired: the sign-in page says so. */
const LINK_REFUSED = { redirect: "/signin?error=sign_up_link" };
/** Pressing the button of a page whose link has been used or has expired since it was opened. */
const LINK_USED = { state: { status: "error", message: "This link has expired or was already used. Sign up again." } };
const page = (email: string, signedInAs: string | null = null) => ({
  page: { token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), email, signedInAs, next: "/dashboard" },
});

const confirmationText = (link: string) =>
  "Follow the link below within 24 hours to create your Letterpress account. It works once.\n\n" +
  "If you did not ask to sign up, you can ignore this email: no account is created without the link.\n\n" +
  `Finish signing up: http://localhost:3000${link}`;
const NOTICE_TEXT =
  "Someone, probably you, asked to sign up to Letterpress with this address. You already have an account, so nothing was changed.\n\n" +
  'If you forgot your password, choose "Forgot password?" on the sign-in page. If this was not you, you can ignore this email.\n\n' +
  "Sign in: http://localhost:3000/signin";

async function accountRows(email: string) {
  return getDb()<
    { id: string; password_hash: string }[]
  >`select id, password_hash from people where lower(email) = ${email}`;
}
async function pendingRows(email: string) {
  const [{ n }] = await getDb()<
    { n: number }[]
  >`select count(*)::int as n from pending_sign_ups where email = ${email}`;
  return n;
}

beforeEach(() => {
  newBrowser(`10.9.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`);
});

describe("sign-up answers every address alike", () => {
  it("gives a new address and one with an account (with any password) the same answer, and no session", async () => {
    const existing = newEmail();
    await createAccount({ email: existing, passwordHash: await hashPassword(password) });
    const fresh = newEmail();

    expect(await signUp(existing, "another password entirely")).toEqual(checkEmail(existing));
    expect([...browser.cookies.keys()]).toEqual([]);
    newBrowser("10.9.0.2");
    expect(await signUp(existing, password)).toEqual(checkEmail(existing));
    expect([...browser.cookies.keys()]).toEqual([]);
    newBrowser("10.9.0.3");
    expect(await signUp(fresh, password)).toEqual(checkEmail(fresh));
    expect([...browser.cookies.keys()]).toEqual([]);
    expect(await accountRows(fresh)).toEqual([]);
  });
});

describe("an email address of at most 320 characters", () => {
  const TOO_LONG = "Use an email address of at most 320 characters";
  const refused = (email: string) => ({
    state: { status: "error", message: "Check the highlighted fields.", fields: { email: TOO_LONG }, email },
  });
  /** Whether the sign-in and sign-up throttles counted anything for the address: the database was asked. */
  const throttled = async (email: string) => {
    const digest = createHash("sha256").update(email.toLowerCase()).digest("hex");
    const [{ n }] = await getDb()<{ n: number }[]>`
      select count(*)::int as n from sign_in_throttles where key in (${`account:${digest}`}, ${`sign-up:account:${digest}`})`;
    return n > 0;
  };

  it("refuses a longer one at sign-up and sign-in with a clear message, before the database is asked", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const email of [`${"a".repeat(309)}@example.com`, `${"a".repeat(900_000)}@example.com`]) {
        expect(await signUp(email)).toEqual(refused(email));
        expect(await submit(signInAction, { email, password, next: "/dashboard" })).toEqual(refused(email));
        expect(await throttled(email)).toBe(false);
      }
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it("takes one of exactly 320 characters", async () => {
    const email = `${randomUUID()}${"a".repeat(272)}@example.com`;
    expect(email).toHaveLength(320);
    expect(await signUp(email)).toEqual(checkEmail(email));
    expect(await pendingRows(email)).toBe(1);
  });
});

describe("the sign-up link", () => {
  it("is mailed (to the log, with no provider) and opens a page that changes nothing; its button creates the account and signs it in, once", async () => {
    const email = newEmail();
    const { result, emails } = await withLoggedEmails(() => submitSignUp(email));
    expect(result).toEqual(checkEmail(email));
    const link = signUpLink(emails[0]?.text ?? "");
    expect(emails).toEqual([
      {
        level: "info",
        message: "sign-up email (no email provider configured)",
        to: email,
        subject: "Finish signing up to Letterpress",
        text: confirmationText(link),
      },
    ]);
    expect(await accountRows(email)).toEqual([]);

    // Opened, twice: the page names the address and posts the link's token; no cookie, no account, the token kept.
    for (let opened = 1; opened <= 2; opened++) {
      expect(await openLink(link)).toEqual({
        page: { token: link.split("=")[1], email, signedInAs: null, next: "/dashboard" },
      });
      expect([...browser.cookies.keys()]).toEqual([]);
      expect(await accountRows(email)).toEqual([]);
      expect(await pendingRows(email)).toBe(1);
    }

    expect(await finishSignUp(link)).toEqual({ redirect: "/dashboard" });
    expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(true);
    expect((await getCurrentAccount())?.person.email).toBe(email);
    expect(await accountRows(email)).toHaveLength(1);
    expect(await pendingRows(email)).toBe(0);

    newBrowser("10.9.0.4");
    expect(await openLink(link)).toEqual(LINK_REFUSED);
    expect(await finishSignUp(link)).toEqual(LINK_USED);
    expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(false);
    expect(await accountRows(email)).toHaveLength(1);
    // The password chosen at sign-up is the account's.
    expect(await submit(signInAction, { email, password, next: "/dashboard" })).toEqual({ redirect: "/dashboard" });
  });

  it("is honoured once when its page's button is pressed many times at once", async () => {
    const email = newEmail();
    const link = await requestSignUp({ email, password });
    expect(await openLink(link)).toEqual(page(email));
    const results = await Promise.all(Array.from({ length: 5 }, () => finishSignUp(link)));
    expect(results.filter((r) => JSON.stringify(r) === JSON.stringify({ redirect: "/dashboard" }))).toHaveLength(1);
    expect(results.filter((r) => JSON.stringify(r) === JSON.stringify(LINK_USED))).toHaveLength(4);
    expect(await accountRows(email)).toHaveLength(1);
  });

  it("is refused once it has expired, opened or pressed, and creates nothing", async () => {
    const email = newEmail();
    const link = await requestSignUp({ email, password });
    expect(await openLink(link)).toEqual(page(email));
    await getDb()`update pending_sign_ups set expires_at = now() - interval '1 second' where email = ${email}`;
    expect(await openLink(link)).toEqual(LINK_REFUSED);
    expect(await finishSignUp(link)).toEqual(LINK_USED);
    expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(false);
    expect(await accountRows(email)).toEqual([]);
  });

  it("expires 24 hours after it was sent", async () => {
    const email = newEmail();
    await requestSignUp({ email, password });
    const [{ hours }] = await getDb()<{ hours: number }[]>`
      select round(extract(epoch from expires_at - now()) / 3600)::int as hours from pending_sign_ups where email = ${email}`;
    expect(hours).toBe(24);
  });

  it("is replaced by a newer sign-up for the same address, with the newer password", async () => {
    const email = newEmail();
    const first = await requestSignUp({ email, password: "first password here" });
    const second = await requestSignUp({ email, password });
    expect(await pendingRows(email)).toBe(1);
    expect(await openLink(first)).toEqual(LINK_REFUSED);
    expect(await finishSignUp(first)).toEqual(LINK_USED);
    expect(await openLink(second)).toEqual(page(email));
    expect(await finishSignUp(second)).toEqual({ redirect: "/dashboard" });
    newBrowser("10.9.0.5");
    expect(await submit(signInAction, { email, password, next: "/dashboard" })).toEqual({ redirect: "/dashboard" });
  });

  it("refuses a token that was never sent, or none", async () => {
    for (const link of ["/auth/confirm?token=" + "A".repeat(43), "/auth/confirm?token=short", "/auth/confirm"]) {
      expect(await openLink(link)).toEqual(LINK_REFUSED);
      expect(await finishSignUp(link)).toEqual(LINK_USED);
    }
    expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(false);
  });

  it("says to sign in, signing no one in, when the address got an account since", async () => {
    const email = newEmail();
    const link = await requestSignUp({ email, password });
    expect(await openLink(link)).toEqual(page(email));
    await createAccount({ email });
    expect(await finishSignUp(link)).toEqual({
      state: { status: "error", message: "This address already has an account. Sign in with its password." },
    });
    expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(false);
    expect(await accountRows(email)).toEqual([{ id: expect.any(String), password_hash: null }]);
  });
});

describe("the sign-up link's page posted from another site", () => {
  const ATTACKER = "https://attacker.example";
  const CSRF_REJECTED = { error: "Cross-site request refused", code: "CSRF_REJECTED", success: false };

  it("is refused by the action and changes nothing; the link still works from the app's own page", async () => {
    const email = newEmail();
    const link = await requestSignUp({ email, password });
    for (const headers of [{ origin: ATTACKER }, { origin: "null" }, { "sec-fetch-site": "cross-site" }]) {
      browser.headers.delete("origin");
      for (const [name, value] of Object.entries(headers)) browser.headers.set(name, value);
      expect(await finishSignUp(link)).toEqual({
        state: {
          status: "error",
          message: "This request came from another site. Open the link from your email again.",
        },
      });
      expect([...browser.cookies.keys()]).toEqual([]);
      expect(await accountRows(email)).toEqual([]);
      expect(await pendingRows(email)).toBe(1);
    }

    browser.headers.delete("sec-fetch-site");
    browser.headers.set("origin", BASE);
    expect(await finishSignUp(link)).toEqual({ redirect: "/dashboard" });
    expect((await getCurrentAccount())?.person.email).toBe(email);
  });

  it("is refused by the proxy before the action runs, as a form posts it or as fetch does", async () => {
    const post = (headers: Record<string, string>) =>
      proxy(
        new NextRequest(new URL(`/auth/confirm?token=${"A".repeat(43)}`, BASE), {
          method: "POST",
          headers,
          body: '--b\r\nContent-Disposition: form-data; name="token"\r\n\r\nA\r\n--b--\r\n',
        }),
      );
    for (const extra of [{ "next-action": "7f5e0c2a9d" }, {}] as Record<string, string>[]) {
      for (const origin of [{ origin: ATTACKER }, {}] as Record<string, string>[]) {
        const response = await post({ "content-type": "multipart/form-data; boundary=b", ...extra, ...origin });
        expect([response.status, await response.text()]).toEqual([403, JSON.stringify(CSRF_REJECTED)]);
      }
      expect((await post({ "content-type": "multipart/form-data; boundary=b", ...extra, origin: BASE })).status).toBe(
        200,
      );
    }
  });
});

describe("the sign-up link opened in a browser signed in to another account", () => {
  it("says so, and its button creates the account but keeps that session", async () => {
    const signedIn = newEmail();
    const victim = newBrowser("10.9.0.7");
    await signUpThroughLink({ email: signedIn, password });
    const session = browser.cookies.get(LOCAL_SESSION_COOKIE);

    // Someone else signs up, and sends the signed-in person their link.
    newBrowser("10.9.0.8");
    const email = newEmail();
    const link = await requestSignUp({ email, password });
    useBrowser(victim);

    expect(await openLink(link)).toEqual(page(email, signedIn));
    expect(await finishSignUp(link)).toEqual({ state: { status: "created", email, signedInAs: signedIn } });
    expect(browser.cookies.get(LOCAL_SESSION_COOKIE)).toBe(session);
    expect((await getCurrentAccount())?.person.email).toBe(signedIn);
    expect(await accountRows(email)).toHaveLength(1);

    // The new account is its owner's, with the password chosen at sign-up.
    newBrowser("10.9.0.9");
    expect(await submit(signInAction, { email, password, next: "/dashboard" })).toEqual({ redirect: "/dashboard" });
  });

  it("signs in as the new account when the browser's session has ended", async () => {
    const ended = newEmail();
    await signUpThroughLink({ email: ended, password });
    await getDb()`delete from sessions where person_id = (select id from people where email = ${ended})`;
    const email = newEmail();
    const link = await requestSignUp({ email, password });
    expect(await openLink(link)).toEqual(page(email));
    expect(await finishSignUp(link)).toEqual({ redirect: "/dashboard" });
    expect((await getCurrentAccount())?.person.email).toBe(email);
  });
});

describe("an address that has an account", () => {
  it("is sent a notice to sign in, and its account, password and sessions are left as they were", async () => {
    const email = newEmail();
    await signUpThroughLink({ email, password });
    const before = await accountRows(email);
    const [{ sessions }] = await getDb()<{ sessions: number }[]>`
      select count(*)::int as sessions from sessions where person_id = ${before[0].id}`;

    newBrowser("10.9.0.6");
    const { result, emails } = await withLoggedEmails(() => submitSignUp(email, "another password entirely"));
    expect(result).toEqual(checkEmail(email));
    expect(emails).toEqual([
      {
        level: "info",
        message: "sign-up email (no email provider configured)",
        to: email,
        subject: "You already have a Letterpress account",
        text: NOTICE_TEXT,
      },
    ]);
    expect(await accountRows(email)).toEqual(before);
    expect(await pendingRows(email)).toBe(0);
    const [after] = await getDb()<
      { sessions: number }[]
    >`select count(*)::int as sessions from sessions where person_id = ${before[0].id}`;
    expect(after.sessions).toBe(sessions);
    expect(
      await submit(signInAction, { email, password: "another password entirely", next: "/dashboard" }),
    ).toMatchObject({
      state: { status: "error" },
    });
  });

  it("is refused a second account with the EMAIL_TAKEN AppError, in any case; a missing one is NOT_FOUND", async () => {
    const email = newEmail();
    await createAccount({ email });
    const refusal = async (attempt: Promise<unknown>) =>
      attempt.then(
        () => "created",
        (error: unknown) => (error instanceof AppError ? { code: error.code, message: error.message } : error),
      );
    expect(await refusal(createAccount({ email: email.toUpperCase() }))).toEqual({
      code: "EMAIL_TAKEN",
      message: `An account with the email ${email.toUpperCase()} already exists`,
    });
    const unknown = newEmail();
    expect(await refusal(getAccountByEmailOrThrow(unknown))).toEqual({
      code: "NOT_FOUND",
      message: `No account for ${unknown}`,
    });
  });
});

describe("sign-up emails through Resend", () => {
  const resend = useResendStandIn();
  // The system sender's: tests/support/setup.ts's SYSTEM_EMAIL_FROM.
  resend.domains.add("letterpress.test");

  it("sends the link and the notice from SYSTEM_EMAIL_FROM, and logs neither", async () => {
    const existing = newEmail();
    await createAccount({ email: existing });
    const fresh = newEmail();

    const { result, emails } = await withLoggedEmails(async () => [
      await submitSignUp(fresh),
      await submitSignUp(existing),
    ]);
    expect(result).toEqual([checkInbox(fresh), checkInbox(existing)]);
    expect(emails).toEqual([]);

    expect(resend.received.map((request) => request.url)).toEqual(["/emails", "/emails"]);
    const link = signUpLink(resend.received[0].body.text);
    expect(resend.received.map((request) => request.body)).toEqual([
      {
        from: "Letterpress <no-reply@letterpress.test>",
        to: [fresh],
        subject: "Finish signing up to Letterpress",
        text: confirmationText(link),
        html:
          "<p>Follow the link below within 24 hours to create your Letterpress account. It works once.</p>" +
          "<p>If you did not ask to sign up, you can ignore this email: no account is created without the link.</p>" +
          `<p><a href="http://localhost:3000${link}">Finish signing up</a></p>`,
      },
      {
        from: "Letterpress <no-reply@letterpress.test>",
        to: [existing],
        subject: "You already have a Letterpress account",
        text: NOTICE_TEXT,
        html:
          "<p>Someone, probably you, asked to sign up to Letterpress with this address. You already have an account, so nothing was changed.</p>" +
          "<p>If you forgot your password, choose &#34;Forgot password?&#34; on the sign-in page. If this was not you, you can ignore this email.</p>" +
          '<p><a href="http://localhost:3000/signin">Sign in</a></p>',
      },
    ]);

    expect(await openLink(link)).toEqual(page(fresh));
    expect(await finishSignUp(link)).toEqual({ redirect: "/dashboard" });
    expect((await getCurrentAccount())?.person.email).toBe(fresh);
  });
});

describe("SYSTEM_EMAIL_FROM", () => {
  const problems = (env: Record<string, string>) => {
    try {
      parseConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it("is required with Resend and local accounts, unless SHARED_SENDING_DOMAIN gives a no-reply sender", () => {
    expect(problems({ RESEND_API_KEY: "re_x" })).toEqual([
      "SYSTEM_EMAIL_FROM (or SHARED_SENDING_DOMAIN) is required when RESEND_API_KEY is set and Supabase Auth is not: sign-up links are sent from it",
    ]);
    expect(parseConfig({ RESEND_API_KEY: "re_x", SHARED_SENDING_DOMAIN: "Mail.Example.com" }).systemEmailFrom).toBe(
      "Letterpress <no-reply@mail.example.com>",
    );
    expect(
      parseConfig({
        RESEND_API_KEY: "re_x",
        SHARED_SENDING_DOMAIN: "mail.example.com",
        SYSTEM_EMAIL_FROM: "hi@acme.test",
      }).systemEmailFrom,
    ).toBe("hi@acme.test");
    expect(
      parseConfig({
        RESEND_API_KEY: "re_x",
        NEXT_PUBLIC_SUPABASE_URL: "https://x.supabase.co",
        NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: "k",
      }).systemEmailFrom,
    ).toBeNull();
    expect(parseConfig({}).systemEmailFrom).toBeNull();
  });

  it("is one mailbox, its display name re-serialised", () => {
    expect(parseConfig({ SYSTEM_EMAIL_FROM: "Acme, Inc <no-reply@acme.test>" }).systemEmailFrom).toBe(
      '"Acme, Inc" <no-reply@acme.test>',
    );
    expect(problems({ SYSTEM_EMAIL_FROM: "not an address" })).toEqual([
      "SYSTEM_EMAIL_FROM must be an address such as Letterpress <no-reply@mail.example.com>",
    ]);
    expect(problems({ SYSTEM_EMAIL_FROM: "a@acme.test, b@acme.test" })).toEqual([
      "SYSTEM_EMAIL_FROM must be an address such as Letterpress <no-reply@mail.example.com>",
    ]);
  });
});
