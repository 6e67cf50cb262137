import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { confirmEmailChangeAction, signInAction } from "@/app/(auth)/actions";
import ConfirmEmailChangePage from "@/app/(auth)/auth/confirm-email/page";
import { ConfirmEmailChangeForm, type ConfirmEmailChangeFormProps } from "@/app/(auth)/password-forms";
import { changeEmailAction, changePasswordAction } from "@/app/dashboard/settings/actions";
import { getCurrentAccount } from "@/lib/auth/current";
import { hashPassword } from "@/lib/auth/passwords";
import { createAccount } from "@/lib/auth/data/accounts";
import { getDb } from "@/lib/db/client";
import { linkIn, openPage, tokenOf, withOneEmail } from "../support/account-links";
import { browser, newBrowser, submit, useBrowser } from "../support/next-headers";
import { withLoggedEmails } from "../support/sign-up";

vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
vi.mock("@/lib/auth/passwords", async (importOriginal) =>
  (await import("../support/cheap-password-hashes")).cheapPasswordHashes(importOriginal),
);

// Settings' changes of password and email for local accounts. Both ask for the current password. A new password ends
// every other session; a new email is made by a link mailed to it, the old address is told, and the form answers the
// same whether or not the new address has an account.

const password = "correct horse battery staple";
const newPassword = "a brand new passphrase";
const newEmail = () => `change-${randomUUID()}@example.com`;
const randomIp = () => `10.47.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
const LOGGED = { level: "info", message: "sign-up email (no email provider configured)" };
const WRONG_CURRENT = {
  state: {
    status: "error",
    message: "That is not your current password.",
    fields: { currentPassword: "That is not your current password." },
  },
};

type Browser = { cookies: Map<string, string>; headers: Headers };

/** An account, signed in on a new browser (left current). */
async function signedInAccount(email = newEmail()): Promise<{ email: string; browser: Browser }> {
  await createAccount({ email, passwordHash: await hashPassword(password) });
  const state = newBrowser(randomIp());
  expect(await submit(signInAction, { email, password, next: "/dashboard" })).toEqual({ redirect: "/dashboard" });
  return { email, browser: state };
}
const signInFresh = (email: string, pw: string) => {
  newBrowser(randomIp());
  return submit(signInAction, { email, password: pw, next: "/dashboard" });
};
const WRONG_SIGN_IN = (email: string) => ({
  state: {
    status: "error",
    message: "That email and password don't match an account. Check them and try again.",
    fields: {},
    email,
  },
});

beforeEach(() => {
  newBrowser(randomIp());
});

describe("changing the password in Settings", () => {
  it("checks the current password and the new one's rules, changing nothing when either is wrong", async () => {
    const { email } = await signedInAccount();
    expect(await submit(changePasswordAction, { currentPassword: "not it at all", password: newPassword })).toEqual(
      WRONG_CURRENT,
    );
    expect(await submit(changePasswordAction, { currentPassword: password, password: "short" })).toEqual({
      state: {
        status: "error",
        message: "Check the highlighted fields.",
        fields: { password: "Use at least 8 characters" },
      },
    });
    expect(await submit(changePasswordAction, { currentPassword: "", password: newPassword })).toEqual({
      state: {
        status: "error",
        message: "Check the highlighted fields.",
        fields: { currentPassword: "Enter your current password" },
      },
    });
    expect(await signInFresh(email, password)).toEqual({ redirect: "/dashboard" });
  });

  it("sets the new password and ends every other session, keeping this browser signed in", async () => {
    const { email, browser: laptop } = await signedInAccount();
    newBrowser(randomIp());
    expect(await submit(signInAction, { email, password, next: "/dashboard" })).toEqual({ redirect: "/dashboard" });
    const phone: Browser = { cookies: browser.cookies, headers: browser.headers };

    useBrowser(laptop);
    expect(await submit(changePasswordAction, { currentPassword: password, password: newPassword })).toEqual({
      state: {
        status: "success",
        message: "Your password was changed. Every other browser signed in to your account was signed out.",
      },
    });
    expect((await getCurrentAccount())?.person.email).toBe(email);
    useBrowser(phone);
    expect(await getCurrentAccount()).toBeNull();
    expect(await signInFresh(email, password)).toEqual(WRONG_SIGN_IN(email));
    expect(await signInFresh(email, newPassword)).toEqual({ redirect: "/dashboard" });
  });
});

describe("changing the email in Settings", () => {
  const sent = (to: string) => ({
    state: {
      status: "success",
      message: `No email provider is configured, so the link to confirm ${to} was printed in the terminal running the app. Your email changes when you follow it, within 1 hour.`,
    },
  });
  const confirmText = (link: string) =>
    "Someone, probably you, asked to change the sign-in email of a Letterpress account to this address. Follow the link below within 1 hour to confirm it. It works once.\n\n" +
    "Until then the account keeps its current email. If this was not you, you can ignore this email.\n\n" +
    `Confirm the new email: http://localhost:3000${link}`;
  const TAKEN_TEXT =
    "Someone signed in to a Letterpress account asked to change its email to this address. This address already has an account, so nothing was changed.\n\n" +
    "If this was you, use another address, or sign in to the account this address has. Otherwise you can ignore this email.\n\n" +
    "Sign in: http://localhost:3000/signin";
  const changedText = (to: string) =>
    `The sign-in email of your Letterpress account was changed from this address to ${to}. Sign in with the new address from now on.\n\n` +
    "If you did not make this change, someone else may be signed in to your account: tell whoever runs this Letterpress server at once.\n\n" +
    "Sign in: http://localhost:3000/signin";
  const FAILED = {
    state: {
      status: "error",
      message:
        "We couldn't change the email with this link: it has expired or was already used, or the address is no longer free. Ask for the change again in Settings.",
    },
  };
  const LINK_REFUSED = { redirect: "/signin?error=email_change_link" };
  const openChangeLink = (link: string) =>
    openPage<ConfirmEmailChangeFormProps>(ConfirmEmailChangePage, ConfirmEmailChangeForm, link);
  const confirmChange = (link: string) => submit(confirmEmailChangeAction, { token: tokenOf(link) });
  const personEmail = async (id: string) =>
    (await getDb()<{ email: string }[]>`select email from people where id = ${id}`)[0]?.email;

  async function requestChange(to: string): Promise<string> {
    const { result, email } = await withOneEmail(() =>
      submit(changeEmailAction, { email: to, currentPassword: password }),
    );
    expect(result).toEqual(sent(to));
    return linkIn(email.text, "/auth/confirm-email");
  }

  it("answers a free address and one with an account alike, and mails each (a link, or a notice)", async () => {
    const taken = newEmail();
    await createAccount({ email: taken });
    await signedInAccount();
    const free = newEmail();

    const toFree = await withOneEmail(() => submit(changeEmailAction, { email: free, currentPassword: password }));
    const toTaken = await withOneEmail(() => submit(changeEmailAction, { email: taken, currentPassword: password }));
    expect(toFree.result).toEqual(sent(free));
    expect(toTaken.result).toEqual(sent(taken));
    const link = linkIn(toFree.email.text, "/auth/confirm-email");
    expect(toFree.email).toEqual({
      ...LOGGED,
      to: free,
      subject: "Confirm your new Letterpress email",
      text: confirmText(link),
    });
    expect(toTaken.email).toEqual({
      ...LOGGED,
      to: taken,
      subject: "A Letterpress account asked to use this address",
      text: TAKEN_TEXT,
    });
  });

  it("opens a page that changes nothing; its button makes the change once and tells the old address", async () => {
    const { email, browser: signedIn } = await signedInAccount();
    const { person } = (await getCurrentAccount())!;
    const to = newEmail();
    const link = await requestChange(to);
    expect(await personEmail(person.id)).toBe(email);

    newBrowser(randomIp());
    for (let opened = 1; opened <= 2; opened++) {
      expect(await openChangeLink(link)).toEqual({ page: { token: tokenOf(link), newEmail: to } });
      expect(await personEmail(person.id)).toBe(email);
    }
    const { result, email: notice } = await withOneEmail(() => confirmChange(link));
    expect(result).toEqual({ state: { status: "changed", email: to } });
    expect(notice).toEqual({
      ...LOGGED,
      to: email,
      subject: "Your Letterpress email was changed",
      text: changedText(to),
    });
    expect(await personEmail(person.id)).toBe(to);

    expect(await openChangeLink(link)).toEqual(LINK_REFUSED);
    expect(await confirmChange(link)).toEqual(FAILED);
    // The session stays; the password now goes with the new address.
    useBrowser(signedIn);
    expect((await getCurrentAccount())?.person.email).toBe(to);
    expect(await signInFresh(to, password)).toEqual({ redirect: "/dashboard" });
    expect(await signInFresh(email, password)).toEqual(WRONG_SIGN_IN(email));
  });

  it("is honoured once when its button is pressed many times at once", async () => {
    await signedInAccount();
    const link = await requestChange(newEmail());
    const { result: results } = await withLoggedEmails(() =>
      Promise.all(Array.from({ length: 5 }, () => confirmChange(link))),
    );
    expect(results.filter((r) => JSON.stringify(r) === JSON.stringify(FAILED))).toHaveLength(4);
    expect(results.filter((r) => "state" in r && r.state.status === "changed")).toHaveLength(1);
  });

  it("fails generically when the new address got an account since, and changes nothing", async () => {
    const { email } = await signedInAccount();
    const { person } = (await getCurrentAccount())!;
    const to = newEmail();
    const link = await requestChange(to);
    await createAccount({ email: to });
    expect(await confirmChange(link)).toEqual(FAILED);
    expect(await personEmail(person.id)).toBe(email);
  });

  it("expires 1 hour after it was sent, and is refused after", async () => {
    const { email } = await signedInAccount();
    const { person } = (await getCurrentAccount())!;
    const link = await requestChange(newEmail());
    const [{ minutes }] = await getDb()<{ minutes: number }[]>`
      select round(extract(epoch from expires_at - now()) / 60)::int as minutes from email_changes
      where person_id = ${person.id}`;
    expect(minutes).toBe(60);
    await getDb()`update email_changes set expires_at = now() - interval '1 second' where person_id = ${person.id}`;
    expect(await openChangeLink(link)).toEqual(LINK_REFUSED);
    expect(await confirmChange(link)).toEqual(FAILED);
    expect(await personEmail(person.id)).toBe(email);
  });

  it("asks for the current password and a new address, and mails nothing otherwise", async () => {
    const { email } = await signedInAccount();
    const refused = async (fields: Record<string, string>, expected: unknown) => {
      const { result, emails } = await withLoggedEmails(() => submit(changeEmailAction, fields));
      expect(result).toEqual(expected);
      expect(emails).toEqual([]);
    };
    await refused(
      { email: newEmail(), currentPassword: "not it at all" },
      {
        state: { ...WRONG_CURRENT.state, values: { email: expect.any(String) } },
      },
    );
    await refused(
      { email: email.toUpperCase(), currentPassword: password },
      {
        state: {
          status: "error",
          message: "That is already your email.",
          fields: { email: "That is already your email." },
          values: { email },
        },
      },
    );
    await refused(
      { email: "nope", currentPassword: password },
      {
        state: {
          status: "error",
          message: "Check the highlighted fields.",
          fields: { email: "Enter a valid email address" },
          values: { email: "nope" },
        },
      },
    );
  });
});
