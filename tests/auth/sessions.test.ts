import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { signInAction, signOutAction, signOutEverywhereAction } from "@/app/(auth)/actions";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { getCurrentAccount } from "@/lib/auth/current";
import { LOCAL_SESSION_COOKIE } from "@/lib/auth/session";
import { proxy } from "@/proxy";
import { call } from "../support/api";
import { browser, newBrowser, submit, useBrowser } from "../support/next-headers";
import { signUpThroughLink } from "../support/sign-up";

vi.mock("next/headers", () => import("../support/next-headers"));

// Local sessions end on the server: after signing out, the cookie the browser had (or a copy of it) signs in nothing.

// A session cookie that is refused, whatever the reason, is told to sign in again.
const UNAUTHORIZED = {
  error: "Authentication required",
  code: "UNAUTHORIZED",
  success: false,
  message: "Your session has expired or is no longer valid: sign in again.",
};
const password = "correct horse battery staple";
let email: string;

const sessionCookie = () => `${LOCAL_SESSION_COOKIE}=${browser.cookies.get(LOCAL_SESSION_COOKIE)}`;
const usageWith = (cookie: string) =>
  call(getUsage, "/api/v1/usage", { headers: { cookie, "sec-fetch-site": "same-origin" } });
const visit = (path: string, cookie: string) =>
  proxy(new NextRequest(new URL(path, "http://localhost:3000"), { headers: { cookie } }));

beforeEach(async () => {
  email = `session-${randomUUID()}@example.com`;
  newBrowser();
  await signUpThroughLink({ email, password });
});

describe("signing out", () => {
  it("ends the session on the server: the old cookie no longer authenticates the API or the dashboard", async () => {
    const cookie = sessionCookie();
    expect((await usageWith(cookie)).status).toBe(200);
    expect((await getCurrentAccount())?.person.email).toBe(email);

    expect(await submit(signOutAction, {})).toEqual({ redirect: "/signin?signed_out=1" });
    expect(browser.cookies.has(LOCAL_SESSION_COOKIE)).toBe(false);

    const replayed = await usageWith(cookie);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toEqual(UNAUTHORIZED);
    browser.cookies.set(LOCAL_SESSION_COOKIE, cookie.slice(LOCAL_SESSION_COOKIE.length + 1));
    expect(await getCurrentAccount()).toBeNull();
  });

  it("lets the sign-in page clear an ended session's cookie instead of sending it back to the dashboard", async () => {
    const cookie = sessionCookie();
    const before = await visit("/signin", cookie);
    expect(new URL(before.headers.get("location")!).pathname).toBe("/dashboard");

    await submit(signOutAction, {});
    const after = await visit("/signin", cookie);
    expect(after.headers.get("location")).toBeNull();
    expect(after.headers.get("x-middleware-next")).toBe("1");
    expect(after.cookies.get(LOCAL_SESSION_COOKIE)?.value).toBe("");
  });

  it("ends only this browser's session; signing in again starts a new one", async () => {
    const first = { ...browser };
    const otherBrowser = newBrowser();
    expect(await submit(signInAction, { email, password, next: "/dashboard" })).toEqual({ redirect: "/dashboard" });
    const otherCookie = sessionCookie();

    useBrowser(first);
    const firstCookie = sessionCookie();
    await submit(signOutAction, {});
    expect((await usageWith(firstCookie)).status).toBe(401);
    expect((await usageWith(otherCookie)).status).toBe(200);

    useBrowser(otherBrowser);
    expect((await getCurrentAccount())?.person.email).toBe(email);
  });
});

describe("signing out everywhere", () => {
  it("ends every session of the account, on every browser", async () => {
    const first = { ...browser };
    const firstCookie = sessionCookie();
    newBrowser("198.51.100.7");
    await submit(signInAction, { email, password, next: "/dashboard" });
    const secondCookie = sessionCookie();
    expect((await usageWith(secondCookie)).status).toBe(200);

    useBrowser(first);
    expect(await submit(signOutEverywhereAction, {})).toEqual({ redirect: "/signin?signed_out=everywhere" });
    for (const cookie of [firstCookie, secondCookie]) {
      const result = await usageWith(cookie);
      expect(result.status).toBe(401);
      expect(result.body).toEqual(UNAUTHORIZED);
    }
  });

  it("from an ended session ends nothing", async () => {
    const first = { ...browser };
    const firstCookie = sessionCookie();
    await submit(signOutAction, {});
    newBrowser("198.51.100.8");
    await submit(signInAction, { email, password, next: "/dashboard" });
    const secondCookie = sessionCookie();

    useBrowser(first);
    browser.cookies.set(LOCAL_SESSION_COOKIE, firstCookie.slice(LOCAL_SESSION_COOKIE.length + 1));
    await submit(signOutEverywhereAction, {});
    expect((await usageWith(secondCookie)).status).toBe(200);
  });
});
