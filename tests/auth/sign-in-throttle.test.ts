import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { signInAction, signUpAction } from "@/app/(auth)/actions";
import { LOCAL_SESSION_COOKIE } from "@/lib/auth/session";
import { createAccount } from "@/lib/auth/data/accounts";
import { getDb } from "@/lib/db/client";
import { browser, newBrowser, submit, useBrowser } from "../support/next-headers";
import { checkEmail, signUpThroughLink, withLoggedEmails } from "../support/sign-up";

vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("@/lib/auth/passwords", async (importOriginal) =>
  (await import("../support/cheap-password-hashes")).cheapPasswordHashes(importOriginal),
);

// Password guessing is throttled per account and client address, and per client address, and sign-up never says
// whether an address has an account. The limits: 10 failures of one account from one address and 50 from one address
// in 15 minutes are refused; past 10 failures of an account from every address, each sign-in to it waits 2 s first,
// and the right password still signs in: failures from other addresses never lock the owner out. Sign-up requests,
// each of which mails the address, are limited per account and per address on counters of their own.

const password = "correct horse battery staple";
const WRONG = "That email and password don't match an account. Check them and try again.";
const THROTTLED = "Too many sign-in attempts. Wait 15 minutes and try again.";
const SIGN_UPS_THROTTLED = "Too many sign-up requests. Wait 15 minutes and try again.";

let email: string;
const newEmail = () => `throttle-${randomUUID()}@example.com`;
const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;

const signIn = (fields: { email: string; password: string }) => submit(signInAction, { ...fields, next: "/dashboard" });
const signUp = async (fields: { email: string; password: string }) =>
  (await withLoggedEmails(() => submit(signUpAction, { ...fields, next: "/dashboard" }))).result;
const refused = (address: string, message: string) => ({
  state: { status: "error", message, fields: {}, email: address },
});

beforeEach(async () => {
  email = newEmail();
  newBrowser(randomIp());
  await signUpThroughLink({ email, password });
  newBrowser(randomIp());
});

describe("sign-in throttling", () => {
  it("refuses an account's 11th failure from one address, even with the right password; another address still gets in", async () => {
    const guesser = { ...browser };
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect(await signIn({ email, password: `guess ${attempt}` })).toEqual(refused(email, WRONG));
    }
    expect(await signIn({ email, password: "guess 11" })).toEqual(refused(email, THROTTLED));
    expect(await signIn({ email, password })).toEqual(refused(email, THROTTLED));
    expect(await signIn({ email: email.toUpperCase(), password })).toEqual(refused(email.toUpperCase(), THROTTLED));
    expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(false);

    newBrowser(randomIp());
    expect(await signIn({ email: email.toUpperCase(), password })).toEqual({ redirect: "/dashboard" });
    useBrowser(guesser);
    expect(await signIn({ email, password })).toEqual(refused(email, THROTTLED));
  });

  it("never locks the owner out: after failures from 12 other addresses the right password signs in, from the owner's address or a new one, each after a 2 s wait", async () => {
    const owner = { ...browser };
    for (let attempt = 1; attempt <= 12; attempt++) {
      newBrowser(randomIp());
      expect(await signIn({ email, password: `guess ${attempt}` })).toEqual(refused(email, WRONG));
    }
    for (const signingIn of [owner, newBrowser(randomIp())]) {
      useBrowser(signingIn);
      const started = Date.now();
      expect(await signIn({ email, password })).toEqual({ redirect: "/dashboard" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_990);
      expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(true);
    }
    // Another guess waits as long, and is only a wrong password.
    newBrowser(randomIp());
    const started = Date.now();
    expect(await signIn({ email, password: "guess 13" })).toEqual(refused(email, WRONG));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_990);
  });

  it("answers an unregistered address exactly as a registered one", async () => {
    const unknown = newEmail();
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect(await signIn({ email: unknown, password: `guess ${attempt}` })).toEqual(refused(unknown, WRONG));
    }
    expect(await signIn({ email: unknown, password: "guess 11" })).toEqual(refused(unknown, THROTTLED));
  });

  it("counts concurrent guesses atomically: exactly 10 of 25 at once are checked", async () => {
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => signIn({ email, password: `guess ${i}` })));
    expect(results.filter((result) => JSON.stringify(result) === JSON.stringify(refused(email, WRONG)))).toHaveLength(
      10,
    );
    expect(
      results.filter((result) => JSON.stringify(result) === JSON.stringify(refused(email, THROTTLED))),
    ).toHaveLength(15);
  });

  it("refuses an address's 51st failure whatever account it tries; other addresses still get in", async () => {
    for (let attempt = 1; attempt <= 50; attempt++) {
      const target = newEmail();
      expect(await signIn({ email: target, password: "guess" })).toEqual(refused(target, WRONG));
    }
    expect(await signIn({ email, password })).toEqual(refused(email, THROTTLED));
    newBrowser(randomIp());
    expect(await signIn({ email, password })).toEqual({ redirect: "/dashboard" });
  });

  it("lets someone who mistyped a few times in, and does not count their successes", async () => {
    for (let attempt = 1; attempt <= 3; attempt++)
      expect(await signIn({ email, password: "typo" })).toEqual(refused(email, WRONG));
    for (let attempt = 1; attempt <= 15; attempt++)
      expect(await signIn({ email, password })).toEqual({ redirect: "/dashboard" });
    expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(true);
  });

  it("lets the account in again once the window has passed", async () => {
    for (let attempt = 1; attempt <= 10; attempt++) await signIn({ email, password: "guess" });
    expect(await signIn({ email, password })).toEqual(refused(email, THROTTLED));
    await getDb()`update sign_in_throttles set window_start = now() - interval '16 minutes'`;
    expect(await signIn({ email, password })).toEqual({ redirect: "/dashboard" });
  });
});

describe("sign-up", () => {
  it("answers a new address and one with an account (with its own password or another) alike, signing no one in", async () => {
    const fresh = newEmail();
    expect(await signUp({ email: fresh, password })).toEqual(checkEmail(fresh));
    expect(await signUp({ email, password })).toEqual(checkEmail(email));
    expect(await signUp({ email, password: "another password entirely" })).toEqual(checkEmail(email));
    expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(false);
    const [{ n }] = await getDb()<{ n: number }[]>`select count(*)::int as n from people where lower(email) = ${email}`;
    expect(n).toBe(1);
  });

  it("counts every request, for any address, so sign-up mails one address at most 10 times in the window", async () => {
    const registered = newEmail();
    await createAccount({ email: registered });
    for (const address of [registered, newEmail()]) {
      for (let attempt = 1; attempt <= 10; attempt++) {
        expect(await signUp({ email: address, password: `password number ${attempt}` })).toEqual(checkEmail(address));
      }
      expect(await signUp({ email: address, password })).toEqual(refused(address, SIGN_UPS_THROTTLED));
    }
  });

  it("counts sign-up requests apart from sign-in failures: neither locks the other out", async () => {
    for (let attempt = 1; attempt <= 10; attempt++) await signUp({ email, password: `password number ${attempt}` });
    expect(await signIn({ email, password })).toEqual({ redirect: "/dashboard" });
    for (let attempt = 1; attempt <= 10; attempt++) await signIn({ email, password: "guess" });
    expect(await signIn({ email, password })).toEqual(refused(email, THROTTLED));
    const other = newEmail();
    expect(await signUp({ email: other, password })).toEqual(checkEmail(other));
  });

  it("refuses an address's 51st sign-up request, whatever email it names", async () => {
    for (let attempt = 1; attempt <= 50; attempt++) {
      const target = newEmail();
      expect(await signUp({ email: target, password })).toEqual(checkEmail(target));
    }
    const target = newEmail();
    expect(await signUp({ email: target, password })).toEqual(refused(target, SIGN_UPS_THROTTLED));
  });
});
