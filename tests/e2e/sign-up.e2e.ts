import { expect, test } from "@playwright/test";
import { loggedSignUpEmails, newEmailAddress, PASSWORD, postForm, signUpLink } from "./account";
import { seriousViolations } from "./browser";
import { baseUrl, url } from "./served-app";
import { open, useStoryPage } from "./story-page";

// Getting in and out: sign up through the emailed link's page, a second sign-up with the same address, sign out and
// back in, and a form sent after the session expired.
test.describe.configure({ mode: "serial" });

const story = useStoryPage();
const email = newEmailAddress();

test("signs up with email and password, through the link emailed to the address", async ({ browser }) => {
  const { context, page } = story;
  await open(page, "/signup", "Create your account");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page
    .getByRole("status")
    .filter({
      hasText: `No email provider is configured, so the link to finish signing up to ${email} was printed in the terminal running the app.`,
    })
    .waitFor();
  expect((await context.cookies(baseUrl)).some((cookie) => cookie.name === "lp-auth-token")).toBe(false);

  const emails = await loggedSignUpEmails(email, 1);
  expect(emails).toHaveLength(1);
  expect(emails[0].subject).toBe("Finish signing up to Letterpress");
  const link = signUpLink(emails[0].text);
  expect(link?.startsWith(`${baseUrl}/auth/confirm?token=`)).toBe(true);

  // Opening the link changes nothing (another site can send a browser to it): a page, and no cookie.
  const opened = await page.request.get(link!, { maxRedirects: 0 });
  expect([opened.status(), opened.headers()["content-type"], opened.headers()["set-cookie"]]).toEqual([
    200,
    "text/html; charset=utf-8",
    undefined,
  ]);
  // Its button's form posted from another site is refused, and the link still works.
  const { pathname, search } = new URL(link!);
  const crossSite = await postForm(
    page,
    pathname + search,
    "Create account and sign in",
    {},
    "https://attacker.example",
  );
  expect([crossSite.status(), await crossSite.json()]).toEqual([
    403,
    { error: "Cross-site request refused", code: "CSRF_REJECTED", success: false },
  ]);
  expect((await context.cookies(baseUrl)).some((cookie) => cookie.name === "lp-auth-token")).toBe(false);

  await page.goto(link!);
  await page.getByRole("heading", { level: 1, name: "Finish signing up" }).waitFor();
  await page.getByText(`Create the Letterpress account for ${email}.`).waitFor();
  expect(await seriousViolations(page, "finish signing up")).toEqual([]);
  expect((await context.cookies(baseUrl)).some((cookie) => cookie.name === "lp-auth-token")).toBe(false);
  await page.getByRole("button", { name: "Create account and sign in" }).click();
  await page.waitForURL(url("/dashboard"));
  await page.getByRole("heading", { level: 1, name: /Hello/ }).waitFor();
  const session = (await context.cookies(baseUrl)).find((cookie) => cookie.name === "lp-auth-token");
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });

  // The link works once.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(link!);
  await otherPage.waitForURL(/\/signin\?error=sign_up_link/);
  await otherPage.getByText("This link has expired or was already used. Sign up again.").waitFor();
  expect((await other.cookies(baseUrl)).some((cookie) => cookie.name === "lp-auth-token")).toBe(false);
  await other.close();
});

test("answers a second sign-up with the same email as any other, and mails the owner a notice instead of a link", async ({
  browser,
}) => {
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(url("/signup"));
  await otherPage.getByLabel("Email").fill(email);
  await otherPage.getByLabel("Password", { exact: true }).fill("another password entirely");
  await otherPage.getByRole("button", { name: "Create account" }).click();
  const status = otherPage.getByRole("status").filter({
    hasText: `No email provider is configured, so the link to finish signing up to ${email} was printed in the terminal running the app.`,
  });
  await status.waitFor();
  expect(await status.textContent()).not.toMatch(/exist/i);
  expect((await other.cookies(baseUrl)).some((cookie) => cookie.name === "lp-auth-token")).toBe(false);

  const emails = await loggedSignUpEmails(email, 2);
  expect(emails.map((sent) => sent.subject)).toEqual([
    "Finish signing up to Letterpress",
    "You already have a Letterpress account",
  ]);
  expect(emails[1].text).toContain(`Sign in: ${baseUrl}/signin`);

  // The account keeps its password: the owner signs in with it.
  await otherPage.goto(url("/signin"));
  await otherPage.getByLabel("Email").fill(email);
  await otherPage.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await otherPage.getByRole("button", { name: "Sign in" }).click();
  await otherPage.waitForURL(url("/dashboard"));
  await other.close();
});

test("signs out, refuses a wrong password clearly, and signs back in", async () => {
  const { context, page } = story;
  await open(page, "/dashboard/settings", "Settings");
  await page.getByRole("main").getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL(/\/signin/);
  await page.getByText("You have been signed out.").waitFor();
  expect((await context.cookies(baseUrl)).some((cookie) => cookie.name === "lp-auth-token")).toBe(false);

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("alert").filter({ hasText: "don't match an account" }).waitFor();

  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(url("/dashboard"));
  await page.getByRole("heading", { level: 1, name: /Hello/ }).waitFor();
});

test.describe("an expired session", () => {
  test("sends a form submitted without a session to sign-in, then back to its page", async () => {
    const { context, page } = story;
    await open(page, "/dashboard/settings/api-keys", "API keys");
    await context.clearCookies();
    await page.getByLabel("Key name").fill("After expiry");
    await page.getByRole("button", { name: "Generate API key" }).click();
    await page.waitForURL(/\/signin\?/);
    expect(new URL(page.url()).searchParams.get("next")).toBe("/dashboard/settings/api-keys");
    await page.getByText("Sign in to continue.").waitFor();

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(url("/dashboard/settings/api-keys"));
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
  });
});

test("forgets the password: Forgot password? mails a link whose page sets a new one and signs every browser out", async ({
  browser,
}) => {
  const { context, page } = story;
  const newPassword = "a brand new passphrase";
  // Signed in on another browser too, which the reset signs out.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(url("/signin"));
  await otherPage.getByLabel("Email").fill(email);
  await otherPage.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await otherPage.getByRole("button", { name: "Sign in" }).click();
  await otherPage.waitForURL(url("/dashboard"));

  const fresh = await browser.newContext();
  const resetPage = await fresh.newPage();
  await resetPage.goto(url("/signin"));
  await resetPage.getByRole("link", { name: "Forgot password?" }).click();
  await resetPage.getByRole("heading", { level: 1, name: "Forgot your password?" }).waitFor();
  expect(await seriousViolations(resetPage, "forgot password")).toEqual([]);
  await resetPage.getByLabel("Email").fill(email);
  await resetPage.getByRole("button", { name: "Send the link" }).click();
  await resetPage
    .getByRole("status")
    .filter({
      hasText: `If an account exists for ${email}, we sent it a link to choose a new password. No email provider is configured, so the email was printed in the terminal running the app.`,
    })
    .waitFor();

  const emails = await loggedSignUpEmails(email, 3);
  expect(emails.at(-1)?.subject).toBe("Reset your Letterpress password");
  const link = /(http:\/\/\S+\/auth\/reset-password\?token=[A-Za-z0-9_-]{43})$/.exec(emails.at(-1)!.text)?.[1];
  expect(link).toBeDefined();
  await resetPage.goto(link!);
  await resetPage.getByRole("heading", { level: 1, name: "Choose a new password" }).waitFor();
  expect(await seriousViolations(resetPage, "choose a new password")).toEqual([]);
  await resetPage.getByLabel("New password").fill(newPassword);
  await resetPage.getByRole("button", { name: "Set the new password" }).click();
  await resetPage.waitForURL(/\/signin\?password_reset=1/);
  await resetPage.getByText("Your password was changed, and every browser signed out.").waitFor();

  // Both browsers that were signed in are signed out.
  for (const signedOut of [page, otherPage]) {
    await signedOut.goto(url("/dashboard"));
    await signedOut.waitForURL(/\/signin\?/);
  }
  expect((await context.cookies(baseUrl)).some((cookie) => cookie.name === "lp-auth-token")).toBe(false);
  await resetPage.getByLabel("Email").fill(email);
  await resetPage.getByLabel("Password", { exact: true }).fill(newPassword);
  await resetPage.getByRole("button", { name: "Sign in" }).click();
  await resetPage.waitForURL(url("/dashboard"));
  await other.close();
  await fresh.close();
});
