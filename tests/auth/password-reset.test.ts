import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { forgotPasswordAction, resetPasswordAction, signInAction } from "@/app/(auth)/actions";
import ResetPasswordPage from "@/app/(auth)/auth/reset-password/page";
import { ResetPasswordForm, type ResetPasswordFormProps } from "@/app/(auth)/password-forms";
import { getCurrentAccount } from "@/lib/auth/current";
import { hashPassword } from "@/lib/auth/passwords";
import { createAccount } from "@/lib/auth/data/accounts";
import { getDb } from "@/lib/db/client";
import { linkIn, openPage, tokenOf, withOneEmail } from "../support/account-links";
import { browser, newBrowser, submit, useBrowser } from "../support/next-headers";
import { withLoggedEmails } from "../support/sign-up";

vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("@/lib/auth/passwords", async (importOriginal) =>
  (await import("../support/cheap-password-hashes")).cheapPasswordHashes(importOriginal),
);

// "Forgot password?" for local accounts: every address gets the same answer and one email (a link where there is an
// account, a notice where there is none). The link opens a page that changes nothing; its form sets the password,
// once, within an hour, and ends every session of the account.

const oldPassword = "correct horse battery staple";
const newPassword = "a brand new passphrase";
const newEmail = () => `reset-${randomUUID()}@example.com`;
const randomIp = () => `10.46.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;

const answer = (email: string) => ({
  state: {
    status: "check_email",
    email,
    message: `If an account exists for ${email}, we sent it a link to choose a new password. No email provider is configured, so the email was printed in the terminal running the app.`,
  },
});
const resetText = (link: string) =>
  "Follow the link below within 1 hour to choose a new password for your Letterpress account. It works once, and signs you out on every browser.\n\n" +
  "If you did not ask to reset your password, you can ignore this email: your password stays as it is.\n\n" +
  `Choose a new password: http://localhost:3000${link}`;
const NO_ACCOUNT_TEXT =
  "Someone, probably you, asked to reset the password of a Letterpress account with this address. No account uses this address, so nothing was changed.\n\n" +
  "If you meant to create one, sign up. If this was not you, you can ignore this email.\n\n" +
  "Sign up: http://localhost:3000/signup";
const LOGGED = { level: "info", message: "sign-up email (no email provider configured)" };
const LINK_REFUSED = { redirect: "/forgot-password?error=reset_link" };
const LINK_USED = {
  state: { status: "error", message: "This link has expired or was already used. Ask for a new one." },
};
const RESET_DONE = { redirect: "/signin?password_reset=1" };

async function newAccount(email = newEmail()) {
  await createAccount({ email, passwordHash: await hashPassword(oldPassword) });
  return email;
}
const forgot = (email: string) => withLoggedEmails(() => submit(forgotPasswordAction, { email }));
async function requestReset(email: string): Promise<string> {
  const { result, email: mail } = await withOneEmail(() => submit(forgotPasswordAction, { email }));
  expect(result).toEqual(answer(email));
  return linkIn(mail.text, "/auth/reset-password");
}
const openResetLink = (link: string) => openPage<ResetPasswordFormProps>(ResetPasswordPage, ResetPasswordForm, link);
const setPassword = (link: string, password = newPassword) =>
  submit(resetPasswordAction, { token: tokenOf(link), password });
const signIn = (email: string, password: string) => submit(signInAction, { email, password, next: "/dashboard" });
const resetRows = async (email: string) => {
  const [{ n }] = await getDb()<{ n: number }[]>`
    select count(*)::int as n from password_resets r join people p on p.id = r.person_id where p.email = ${email}`;
  return n;
};

beforeEach(() => {
  newBrowser(randomIp());
});

describe("Forgot password? answers every address alike", () => {
  it("gives an address with an account and one without the same answer, and mails each (a link, or a notice)", async () => {
    const known = await newAccount();
    const unknown = newEmail();

    const toKnown = await forgot(known);
    newBrowser(randomIp());
    const toUnknown = await forgot(unknown);

    expect(toKnown.result).toEqual(answer(known));
    expect(toUnknown.result).toEqual(answer(unknown));
    const link = linkIn(toKnown.emails[0]?.text ?? "", "/auth/reset-password");
    expect(toKnown.emails).toEqual([
      { ...LOGGED, to: known, subject: "Reset your Letterpress password", text: resetText(link) },
    ]);
    expect(toUnknown.emails).toEqual([
      { ...LOGGED, to: unknown, subject: "Resetting your Letterpress password", text: NO_ACCOUNT_TEXT },
    ]);
    expect([...browser.cookies.keys()]).toEqual([]);
    expect(await resetRows(known)).toBe(1);
    const [{ n }] = await getDb()<{ n: number }[]>`select count(*)::int as n from people where email = ${unknown}`;
    expect(n).toBe(0);
  });

  it("refuses an invalid address beside the field", async () => {
    expect(await submit(forgotPasswordAction, { email: "not an address" })).toEqual({
      state: {
        status: "error",
        message: "Check the highlighted fields.",
        fields: { email: "Enter a valid email address" },
        email: "not an address",
      },
    });
  });

  it("limits requests per address typed in, with or without an account, alike", async () => {
    const refused = (email: string) => ({
      state: {
        status: "error",
        message: "Too many password reset requests. Wait 15 minutes and try again.",
        fields: {},
        email,
      },
    });
    for (const email of [await newAccount(), newEmail()]) {
      for (let request = 1; request <= 10; request++) {
        newBrowser(randomIp());
        expect((await forgot(email)).result).toEqual(answer(email));
      }
      newBrowser(randomIp());
      const eleventh = await forgot(email);
      expect(eleventh.result).toEqual(refused(email));
      expect(eleventh.emails).toEqual([]);
    }
  });
});

describe("the password reset link", () => {
  it("opens a page that changes nothing; its form sets the password once and ends every session of the account", async () => {
    const email = await newAccount();
    // Signed in on two browsers.
    expect(await signIn(email, oldPassword)).toEqual({ redirect: "/dashboard" });
    const laptop = { cookies: browser.cookies, headers: browser.headers };
    newBrowser(randomIp());
    expect(await signIn(email, oldPassword)).toEqual({ redirect: "/dashboard" });
    const phone = { cookies: browser.cookies, headers: browser.headers };

    newBrowser(randomIp());
    const link = await requestReset(email);
    for (let opened = 1; opened <= 2; opened++) {
      expect(await openResetLink(link)).toEqual({ page: { token: tokenOf(link), email } });
      expect(await resetRows(email)).toBe(1);
    }
    useBrowser(laptop);
    expect((await getCurrentAccount())?.person.email).toBe(email);

    newBrowser(randomIp());
    expect(await setPassword(link)).toEqual(RESET_DONE);
    expect(await resetRows(email)).toBe(0);
    for (const signedIn of [laptop, phone]) {
      useBrowser(signedIn);
      expect(await getCurrentAccount()).toBeNull();
    }
    const [{ sessions }] = await getDb()<{ sessions: number }[]>`
      select count(*)::int as sessions from sessions s join people p on p.id = s.person_id where p.email = ${email}`;
    expect(sessions).toBe(0);

    newBrowser(randomIp());
    expect(await openResetLink(link)).toEqual(LINK_REFUSED);
    expect(await setPassword(link, "yet another passphrase")).toEqual(LINK_USED);
    expect(await signIn(email, oldPassword)).toEqual({
      state: {
        status: "error",
        message: "That email and password don't match an account. Check them and try again.",
        fields: {},
        email,
      },
    });
    expect(await signIn(email, newPassword)).toEqual({ redirect: "/dashboard" });
  });

  it("is honoured once when its form is posted many times at once", async () => {
    const email = await newAccount();
    const link = await requestReset(email);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, index) => setPassword(link, `concurrent password ${index}`)),
    );
    expect(results.filter((r) => JSON.stringify(r) === JSON.stringify(RESET_DONE))).toHaveLength(1);
    expect(results.filter((r) => JSON.stringify(r) === JSON.stringify(LINK_USED))).toHaveLength(4);
  });

  it("expires 1 hour after it was sent, and is refused after", async () => {
    const email = await newAccount();
    const link = await requestReset(email);
    const [{ minutes }] = await getDb()<{ minutes: number }[]>`
      select round(extract(epoch from r.expires_at - now()) / 60)::int as minutes
      from password_resets r join people p on p.id = r.person_id where p.email = ${email}`;
    expect(minutes).toBe(60);

    await getDb()`
      update password_resets set expires_at = now() - interval '1 second'
      where person_id = (select id from people where email = ${email})`;
    expect(await openResetLink(link)).toEqual(LINK_REFUSED);
    expect(await setPassword(link)).toEqual(LINK_USED);
    expect(await signIn(email, oldPassword)).toEqual({ redirect: "/dashboard" });
  });

  it("is replaced by a newer request for the same account", async () => {
    const email = await newAccount();
    const first = await requestReset(email);
    const second = await requestReset(email);
    expect(await resetRows(email)).toBe(1);
    expect(await openResetLink(first)).toEqual(LINK_REFUSED);
    expect(await setPassword(first)).toEqual(LINK_USED);
    expect(await setPassword(second)).toEqual(RESET_DONE);
  });

  it("asks for a password by sign-up's rules, and keeps the link usable until one is given", async () => {
    const email = await newAccount();
    const link = await requestReset(email);
    for (const [password, message] of [
      ["short", "Use at least 8 characters"],
      ["x".repeat(201), "Use at most 200 characters"],
    ]) {
      expect(await setPassword(link, password)).toEqual({
        state: { status: "error", message: "Check the highlighted fields.", fields: { password: message } },
      });
    }
    expect(await setPassword(link)).toEqual(RESET_DONE);
  });

  it("refuses a token that was never sent, or none", async () => {
    for (const link of [`/auth/reset-password?token=${"A".repeat(43)}`, "/auth/reset-password?token=short", "/x"]) {
      expect(await openResetLink(link)).toEqual(LINK_REFUSED);
      expect(await setPassword(link)).toEqual(LINK_USED);
    }
  });

  it("refuses its form posted from another site, and the link still works from the app's own page", async () => {
    const email = await newAccount();
    const link = await requestReset(email);
    browser.headers.set("origin", "https://attacker.example");
    expect(await setPassword(link)).toEqual({
      state: { status: "error", message: "This request came from another site. Open the link from your email again." },
    });
    browser.headers.set("origin", "http://localhost:3000");
    expect(await setPassword(link)).toEqual(RESET_DONE);
  });
});
