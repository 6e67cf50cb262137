import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { formatDate, formatDateTime, PLAN_LABEL } from "@/app/_components/format";
import { formatPlanPrice, PLAN_NAMES, PLANS } from "@/lib/plans";
import { applyVariablesToSource } from "@/lib/render/react-source";
import { readZip } from "../support/zip";
import { cookieHeader, horizontalOverflow, screenshot, watchErrors } from "./browser";
import { appLogFile, baseUrl, url } from "./served-app";

// The whole product path in a real browser, against the built app on a fresh embedded database:
// sign up through the emailed link → API key → the key works → add and buy templates → preview with edited variables
// → verify a domain → send a test → see it under Emails → the session authenticates the API, a foreign Origin does not
// → a bounce: its status, filter and timeline under Emails, counted on the Overview → cancel a scheduled email → the
// bounced address under Suppressions, removed → revoke the key → the key gets 401.
// Then screenshots of every main page at 375 and 1440 px wide.
// One story in order, in one page: a failure skips the rest.
test.describe.configure({ mode: "serial" });

const email = `e2e-${randomUUID().slice(0, 8)}@example.com`;
const password = "correct horse battery staple";
const UNAUTHORIZED = { error: "Authentication required", code: "UNAUTHORIZED", success: false };
const INSUFFICIENT_SCOPE = {
  error: "API key not allowed",
  code: "INSUFFICIENT_SCOPE",
  success: false,
  message:
    "This API key has sending access only: it may send and batch-send, read and cancel emails, and read usage. Use a full-access key for this endpoint.",
};
const DAY = 86_400_000;

let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
let apiKey = "";
let welcomeId = "";
let bouncedEmailId = "";

/**
 * The sign-up emails the app wrote to its log for `to` (no email provider is configured), oldest first, once there
 * are `count` of them: the server's output reaches the log file a moment after the form has answered.
 */
async function loggedSignUpEmails(to: string, count: number): Promise<{ subject: string; text: string }[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const emails = readFileSync(appLogFile, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("{") && line.includes('"sign-up email (no email provider configured)"'))
      .map((line) => JSON.parse(line) as { level: string; message: string; to: string; subject: string; text: string })
      .filter((email) => email.to === to);
    if (emails.length >= count || Date.now() > deadline) return emails;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The test app takes payments in test mode (PAYMENTS_TEST_MODE=1), and the pricing pages say so.
const TEST_MODE_NOTE = "Test mode: switching plans takes effect at once and nothing is charged.";

/** Each plan card's name and price, in order, and the test-mode note next to them. */
async function shownPrices(): Promise<{ plans: [string | null, string | null][]; note: number }> {
  const cards = await page.getByTestId("plan-card").all();
  const plans: [string | null, string | null][] = [];
  for (const card of cards)
    plans.push([
      await card.getByRole("heading", { level: 3 }).textContent(),
      await card.locator(".plan-price").textContent(),
    ]);
  return { plans, note: await page.getByText(TEST_MODE_NOTE, { exact: true }).count() };
}

/** The plans' names and prices as lib/plans.ts has them. */
const CONFIGURED_PRICES = PLAN_NAMES.map((name) => [PLAN_LABEL[name], formatPlanPrice(PLANS[name].price)]);

/** What each locked button of the catalogue points at to say why it is locked (aria-describedby), card by card. */
async function lockedButtonsDescribedBy(): Promise<(string | null)[]> {
  return page
    .getByTestId("catalogue-card")
    .locator("button[disabled]")
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute("aria-describedby")));
}

async function open(path: string, heading?: string | RegExp) {
  await page.goto(url(path));
  if (heading) await page.getByRole("heading", { level: 1, name: heading }).waitFor();
}

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  watchErrors(page, pageErrors);
});

test.afterAll(async () => {
  await context?.close();
});

test.describe("signed out", () => {
  test("sends dashboard visits to sign-in, but never redirects the API", async ({ request }) => {
    const response = await page.goto(url("/dashboard/library"));
    expect(new URL(page.url()).pathname).toBe("/signin");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/dashboard/library");
    expect(response?.status()).toBe(200);

    const api = await request.get(url("/api/v1/library"), { maxRedirects: 0 });
    expect(api.status()).toBe(401);
    expect(await api.json()).toEqual(UNAUTHORIZED);
  });

  test("shows the landing page with links to sign in and the API docs", async () => {
    await open("/", /Beautiful email/);
    await expect(page.getByRole("link", { name: "Sign in" }).first().getAttribute("href")).resolves.toBe("/signin");
    await page.getByRole("link", { name: "Read the API docs" }).click();
    await page.getByRole("heading", { level: 1, name: "Letterpress API" }).waitFor();
    await page.locator("#sendEmail").waitFor();
    await page.locator("#rate-limits").waitFor();
  });
});

test.describe("prices", () => {
  test("the landing page shows each plan's price from the plan table, with the test-mode note", async () => {
    await open("/", /Beautiful email/);
    await expect(shownPrices()).resolves.toEqual({ plans: CONFIGURED_PRICES, note: 1 });
  });
});

test.describe("the dashboard flow", () => {
  test("signs up with email and password, through the link emailed to the address", async ({ browser }) => {
    await open("/signup", "Create your account");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Check your inbox: we sent a link to finish signing up to ${email}.` })
      .waitFor();
    expect((await context.cookies(baseUrl)).some((cookie) => cookie.name === "lp-auth-token")).toBe(false);

    const emails = await loggedSignUpEmails(email, 1);
    expect(emails).toHaveLength(1);
    expect(emails[0].subject).toBe("Finish signing up to Letterpress");
    const link = /(http:\/\/\S+\/auth\/confirm\?token=[A-Za-z0-9_-]{43})$/.exec(emails[0].text)?.[1];
    expect(link?.startsWith(`${baseUrl}/auth/confirm?token=`)).toBe(true);

    await page.goto(link!);
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

  test("the Overview's checklist reads on a 375 px phone: nothing overflows sideways, no text is clipped", async ({
    browser,
  }) => {
    const phone = await browser.newContext({
      viewport: { width: 375, height: 812 },
      storageState: await context.storageState(),
    });
    const phonePage = await phone.newPage();
    watchErrors(phonePage, pageErrors);
    await phonePage.goto(url("/dashboard"));
    await phonePage.getByRole("heading", { level: 1, name: /Hello/ }).waitFor();
    const steps = phonePage.getByRole("listitem").filter({ has: phonePage.locator(".check") });
    // Nothing is done yet, so every step has its button: the layout with the least room.
    await expect(steps.getByRole("link").count()).resolves.toBe(4);
    const layout = await phonePage.evaluate(() => ({
      pastTheViewport: Math.max(0, document.scrollingElement!.scrollWidth - 375),
      // Text cut off inside its box (overflow hidden, ellipsis) or spilling out of it; screen-reader text is clipped
      // on purpose.
      clipped: [...document.querySelectorAll(".checklist li, .checklist li :not(.visually-hidden)")]
        .filter((element) => element.scrollWidth > element.clientWidth + 1)
        .map((element) => element.textContent),
      // A title squeezed beside its button wraps word by word: each step's title and text keep most of the row.
      narrow: [...document.querySelectorAll(".checklist li")]
        .filter((item) => item.querySelector(".check-text")!.clientWidth < item.clientWidth * 0.6)
        .map((item) => item.querySelector(".check-title")!.textContent),
    }));
    expect(layout).toEqual({ pastTheViewport: 0, clipped: [], narrow: [] });
    await phone.close();
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
    const status = otherPage
      .getByRole("status")
      .filter({ hasText: `Check your inbox: we sent a link to finish signing up to ${email}.` });
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
    await otherPage.getByLabel("Password", { exact: true }).fill(password);
    await otherPage.getByRole("button", { name: "Sign in" }).click();
    await otherPage.waitForURL(url("/dashboard"));
    await other.close();
  });

  test("generates a named API key, shown once, with a server-side warning", async () => {
    await open("/dashboard/settings/api-keys", "API keys");
    await page.getByText("Keep API keys server-side.").waitFor();
    await page.getByLabel("Key name").fill("E2E server");
    await page.getByRole("button", { name: "Generate API key" }).click();
    const revealed = page.getByTestId("new-api-key");
    await revealed.waitFor();
    apiKey = await revealed.inputValue();
    expect(apiKey).toMatch(/^lp_live_[0-9A-Za-z]{49}$/);
    await page.getByRole("button", { name: "Copy key" }).waitFor();
    const row = page.getByTestId("api-key-row").filter({ hasText: "E2E server" });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(`lp_live_…${apiKey.slice(-4)}`);
    await expect(row.textContent()).resolves.toContain("Never");
    // The defaults: live, full access, any of the account's domains, no expiry.
    await expect(row.locator(".badge").allTextContents()).resolves.toEqual(["Live", "Full access"]);
    await row.getByText("Any", { exact: true }).waitFor();
    await row.getByText("No expiry", { exact: true }).waitFor();

    // Shown once: a reload no longer has the plaintext anywhere in the page.
    await page.reload();
    await page.getByTestId("api-key-row").first().waitFor();
    expect(await page.content()).not.toContain(apiKey);
  });

  test("the key authenticates GET /api/v1/library from outside the browser", async ({ request }) => {
    const response = await request.get(url("/api/v1/library"), { headers: { "X-API-Key": apiKey } });
    expect(response.status()).toBe(200);
    const body = await response.json();
    expect(body).toEqual({ success: true, templates: [], pagination: { limit: 50, offset: 0, total: 0 } });
    expect(response.headers()["x-ratelimit-limit"]).toBe("500");
  });

  test("adds a free catalogue template and buys a paid one in test mode, within the plan's limits", async () => {
    await open("/dashboard/catalogue", "Catalogue");
    const welcome = page
      .getByTestId("catalogue-card")
      .filter({ has: page.getByRole("heading", { name: "Welcome", exact: true }) });
    // The preview dialog says what variables the template takes.
    await welcome.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("dialog", { name: "Welcome", exact: true });
    const variables = preview.getByRole("list", { name: "Variables of Welcome" }).getByRole("listitem");
    await expect(variables.count()).resolves.toBe(7);
    const dashboardUrl = variables.filter({ hasText: "dashboardUrl" });
    await dashboardUrl.getByText("URL", { exact: true }).waitFor();
    await dashboardUrl.getByText("optional", { exact: true }).waitFor();
    await preview.getByRole("button", { name: "Close" }).click();
    const receiptPreview = page.getByRole("dialog", { name: "Order receipt", exact: true });
    await page
      .getByTestId("catalogue-card")
      .filter({ has: page.getByRole("heading", { name: "Order receipt" }) })
      .getByRole("button", { name: "Preview" })
      .click();
    await receiptPreview
      .getByRole("listitem")
      .filter({ hasText: "orderId" })
      .getByText("required", { exact: true })
      .waitFor();
    await receiptPreview.getByRole("button", { name: "Close" }).click();

    await welcome.getByRole("button", { name: "Add to library" }).click();
    await welcome.getByRole("link", { name: "Open in library" }).waitFor();
    welcomeId = (await welcome.getByRole("link", { name: "Open in library" }).getAttribute("href"))!.split("/").pop()!;

    const receipt = page
      .getByTestId("catalogue-card")
      .filter({ has: page.getByRole("heading", { name: "Order receipt" }) });
    await receipt.getByRole("button", { name: "Buy for $19.00" }).click();
    const dialog = page.getByRole("dialog", { name: "Buy “Order receipt”?" });
    await dialog.getByText("Test mode: no card is charged").waitFor();
    await dialog.getByRole("button", { name: "Buy for $19.00" }).click();
    await receipt.getByRole("link", { name: "Open in library" }).waitFor();

    // The free plan allows one paid purchase a month: after a reload the page says so once, and the other paid
    // templates' buttons are locked and described by that sentence.
    await page.reload();
    const shipped = page
      .getByTestId("catalogue-card")
      .filter({ has: page.getByRole("heading", { name: "Order shipped" }) });
    await expect(shipped.getByRole("button", { name: "Buy for $9.00" }).isDisabled()).resolves.toBe(true);
    await expect(page.getByText("the Free plan's limit").count()).resolves.toBe(1);
    await expect(page.locator("#purchase-limit").textContent()).resolves.toBe(
      "You've made 1 premium purchase this month, the Free plan's limit. The count resets on the first day of next month (UTC), or upgrade for unlimited purchases.",
    );
    // The five paid templates not bought.
    await expect(lockedButtonsDescribedBy()).resolves.toEqual(Array(5).fill("purchase-limit"));
    await page.getByText("2 / 10 templates").waitFor();
  });

  test("lists both in the library with category, author, how added and last modified", async () => {
    await open("/dashboard/library", "Library");
    const cards = page.getByTestId("library-card");
    await expect(cards.count()).resolves.toBe(2);
    const receipt = cards.filter({ hasText: "Order receipt" });
    for (const text of ["Commerce", "Purchased", "By Letterpress", "Modified"])
      await receipt.getByText(text).first().waitFor();
    await cards.filter({ hasText: "Welcome" }).getByText("Added free").waitFor();
    await expect(receipt.locator("iframe").getAttribute("sandbox")).resolves.toBe("");
  });

  test("previews a template in a sandboxed iframe and re-renders it with edited variables", async () => {
    await page.getByRole("link", { name: "Welcome", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Welcome" }).waitFor();
    const frame = page.locator("iframe.email-frame");
    await expect(frame.getAttribute("sandbox")).resolves.toBe("");
    await page
      .frameLocator("iframe.email-frame")
      .getByText("Ada", { exact: false })
      .filter({ visible: true })
      .first()
      .waitFor();

    await page.getByLabel(/userName/).fill("Grace Hopper");
    await page.waitForFunction(() =>
      document.querySelector("iframe.email-frame")?.getAttribute("srcdoc")?.includes("Grace Hopper"),
    );
    await page
      .frameLocator("iframe.email-frame")
      .getByText("Grace Hopper", { exact: false })
      .filter({ visible: true })
      .first()
      .waitFor();
    await page.getByTestId("preview-status").filter({ hasText: "Up to date" }).waitFor();

    // A bad value is refused by the API and shown on its field.
    await page.getByLabel(/dashboardUrl/).fill("not a url");
    await page.locator("#var-dashboardUrl-error").waitFor();
    await page.getByLabel(/dashboardUrl/).fill("https://example.com/start");
    await page.getByTestId("preview-status").filter({ hasText: "Up to date" }).waitFor();

    // The source, with a download through GET /api/v1/templates/{id}/source.
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: /Download welcome\.tsx/ }).click();
    expect((await download).suggestedFilename()).toBe("welcome.tsx");
  });

  test("edits a list of objects in the form generated from the variables schema, with the API's errors inline", async () => {
    await open("/dashboard/library", "Library");
    await page.getByRole("link", { name: "Order receipt", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Order receipt" }).waitFor();
    const srcdocIncludes = (text: string) =>
      page.waitForFunction(
        (expected) => document.querySelector("iframe.email-frame")?.getAttribute("srcdoc")?.includes(expected),
        text,
      );

    // Each item of `items` is a group of its own fields.
    await expect(page.locator("#var-items-0-name").inputValue()).resolves.toBe("Letterpress notebook (A5, dotted)");
    await page.locator("#var-items-1-name").fill("Fountain pen");
    await srcdocIncludes("Fountain pen");

    // A new item starts with its required name empty and its numbers missing: the API's answer is shown on each.
    await page.getByRole("button", { name: "Add an item to items" }).click();
    await page.locator("#var-items-3-name").fill("Ink cartridge");
    await expect(page.locator("#var-items-3-quantity-error").textContent()).resolves.toBe("is required");
    await expect(page.locator("#var-items-3-unitPrice-error").textContent()).resolves.toBe("is required");
    await expect(page.locator("#var-items-3-quantity").getAttribute("aria-invalid")).resolves.toBe("true");
    await page.locator("#var-items-3-quantity").fill("2");
    await page.locator("#var-items-3-unitPrice").fill("7.5");
    await srcdocIncludes("Ink cartridge");
    await page.getByTestId("preview-status").filter({ hasText: "Up to date" }).waitFor();
    await expect(page.locator("#var-items-3-quantity-error").count()).resolves.toBe(0);
    await page.getByRole("button", { name: "Remove items 4" }).click();
    await expect(page.locator("#var-items-3-name").count()).resolves.toBe(0);

    // A cleared required field is left out, and the API says it is required.
    await page.locator("#var-orderId").fill("");
    await expect(page.locator("#var-orderId-error").textContent()).resolves.toBe("is required");
    await page.locator("#var-orderId").fill("B-20");
    await srcdocIncludes("B-20");
    await expect(page.locator("#var-orderId-error").count()).resolves.toBe(0);

    // A variable the template does not declare still renders, and the API's warning is shown with its suggestion.
    await page.locator("#other-variables").fill('{"orderID": "C-30"}');
    const warnings = page.getByTestId("render-warnings");
    await warnings.waitFor();
    await expect(warnings.locator("li").allTextContents()).resolves.toEqual([
      "variables.orderID: not a variable of this template; did you mean orderId?",
    ]);
    await page.locator("#other-variables").fill("{}");
    await warnings.waitFor({ state: "detached" });
  });

  test("adds a sending domain and marks it verified (embedded mode)", async () => {
    await open("/dashboard/domains", "Sending domains");
    // A refused domain stays in the field, to be corrected.
    await page.getByLabel("Domain", { exact: true }).fill("not a domain");
    await page.getByRole("button", { name: "Add domain" }).click();
    await page.locator("#domain[aria-invalid=true]").waitFor();
    await expect(page.getByLabel("Domain", { exact: true }).inputValue()).resolves.toBe("not a domain");
    await page.getByLabel("Domain", { exact: true }).fill("mail.e2e-example.dev");
    await page.getByRole("button", { name: "Add domain" }).click();
    const row = page.getByTestId("domain-row").filter({ hasText: "mail.e2e-example.dev" });
    await row.getByText("Pending verification").waitFor();
    await row.getByRole("button", { name: "Mark as verified" }).click();
    await row.getByText("Verified", { exact: true }).waitFor();
    await expect(row.getByLabel("Default sender").inputValue()).resolves.toBe("hello@mail.e2e-example.dev");
  });

  test("generates a test key with sending access, limited to the domain, expiring in 30 days, that the API answers within its scope; revoked, it gets 401", async ({
    request,
  }) => {
    await open("/dashboard/settings/api-keys", "API keys");
    await page.getByLabel("Key name").fill("E2E CI");
    const testKind = page.getByRole("radio", { name: "Test", exact: true });
    await expect(testKind).toHaveAccessibleDescription(
      "For trying the API and CI: its emails stay in your outbox, never reach an inbox and are not counted (at most 100 a day).",
    );
    await testKind.check();
    await page.getByRole("radio", { name: "Sending access", exact: true }).check();
    await page.getByLabel("Sending domain").selectOption("mail.e2e-example.dev");
    await page.getByLabel("Expires").selectOption("30");
    const before = Date.now();
    await page.getByRole("button", { name: "Generate API key" }).click();
    const revealed = page.getByTestId("new-api-key");
    await revealed.waitFor();
    const after = Date.now();
    const testKey = await revealed.inputValue();
    expect(testKey).toMatch(/^lp_test_[0-9A-Za-z]{49}$/);
    // The example calls an endpoint the key may call.
    await expect(page.locator("pre.code-block").textContent()).resolves.toContain("/api/v1/usage \\");
    // The form is back to its defaults for the next key.
    await expect(page.getByRole("radio", { name: "Live", exact: true })).toBeChecked();
    await expect(page.getByLabel("Expires")).toHaveValue("never");

    const row = page.getByTestId("api-key-row").filter({ hasText: "E2E CI" });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(`lp_test_…${testKey.slice(-4)}`);
    await expect(row.locator(".badge").allTextContents()).resolves.toEqual(["Test", "Sending access"]);
    await row.getByText("mail.e2e-example.dev", { exact: true }).waitFor();
    const expiry = row.locator("time");
    const expiresAt = Date.parse((await expiry.getAttribute("datetime"))!);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY);
    expect(expiresAt).toBeLessThanOrEqual(after + 30 * DAY);
    await expect(expiry.textContent()).resolves.toBe(formatDate(new Date(expiresAt)));

    // The same account as the live key; outside sending, 403.
    const usage = await request.get(url("/api/v1/usage"), { headers: { "X-API-Key": testKey } });
    expect(usage.status()).toBe(200);
    const liveUsage = await request.get(url("/api/v1/usage"), { headers: { "X-API-Key": apiKey } });
    expect(await usage.json()).toEqual(await liveUsage.json());
    const library = await request.get(url("/api/v1/library"), { headers: { "X-API-Key": testKey } });
    expect(library.status()).toBe(403);
    expect(await library.json()).toEqual(INSUFFICIENT_SCOPE);

    await row.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog", { name: "Revoke “E2E CI”?" }).getByRole("button", { name: "Revoke key" }).click();
    await row.getByText("Revoked").waitFor();
    await expect(revealed).toHaveCount(0);
    const revoked = await request.get(url("/api/v1/usage"), { headers: { "X-API-Key": testKey } });
    expect(revoked.status()).toBe(401);
    expect(await revoked.json()).toEqual(UNAUTHORIZED);
  });

  test("sends a test email with the edited variables", async () => {
    await open(`/dashboard/library/${welcomeId}`, "Welcome");
    await page.getByLabel(/userName/).fill("Grace Hopper");
    await page.waitForFunction(() =>
      document.querySelector("iframe.email-frame")?.getAttribute("srcdoc")?.includes("Grace Hopper"),
    );
    await page.getByLabel("To", { exact: true }).fill("qa@example.com");
    await page.getByRole("button", { name: "Send test email" }).click();
    await page.getByTestId("send-result").filter({ hasText: "Test sent to qa@example.com" }).waitFor();
  });

  test("shows the message under Emails with its status and a preview", async () => {
    await open("/dashboard/emails", "Emails");
    const row = page.getByTestId("email-row").filter({ hasText: "[Test] Welcome" });
    await row.getByText("to qa@example.com").waitFor();
    // The embedded outbox delivers it at once.
    await row.getByText("Delivered", { exact: true }).waitFor();
    await row.getByRole("link", { name: "[Test] Welcome" }).click();
    await page.getByRole("heading", { level: 1, name: "[Test] Welcome" }).waitFor();
    await expect(page.locator("iframe.email-frame").getAttribute("sandbox")).resolves.toBe("");
    await page
      .frameLocator("iframe.email-frame")
      .getByText("Grace Hopper", { exact: false })
      .filter({ visible: true })
      .first()
      .waitFor();
  });

  test("filters Emails with toggle buttons that keep the filter in the URL (reload and back included)", async () => {
    await open("/dashboard/emails", "Emails");
    const filters = page.getByRole("group", { name: "Filter by status" });
    const states = () =>
      filters
        .getByRole("button")
        .evaluateAll((buttons) =>
          buttons.map((button) => [button.textContent!.split(" · ")[0], button.getAttribute("aria-pressed")]),
        );
    const pressed = (active: string) =>
      [
        "All",
        "Scheduled",
        "Queued",
        "Sent",
        "Delivered",
        "Delivery delayed",
        "Bounced",
        "Complained",
        "Failed",
        "Canceled",
      ].map((name) => [name, String(name === active)]);
    await expect(states()).resolves.toEqual(pressed("All"));
    // aria-pressed only on buttons: a link cannot be a toggle.
    await expect(page.locator("[aria-pressed]:not(button)").count()).resolves.toBe(0);
    const row = page.getByTestId("email-row").filter({ hasText: "[Test] Welcome" });
    await row.waitFor();

    await filters.getByRole("button", { name: /^Failed/ }).click();
    await page.waitForURL(url("/dashboard/emails?status=failed"));
    await page.getByRole("heading", { level: 2, name: "No failed emails" }).waitFor();
    await expect(states()).resolves.toEqual(pressed("Failed"));
    await expect(page.getByTestId("email-row").count()).resolves.toBe(0);

    await page.reload();
    await page.getByRole("heading", { level: 2, name: "No failed emails" }).waitFor();
    await expect(states()).resolves.toEqual(pressed("Failed"));

    await page.goBack();
    await page.waitForURL(url("/dashboard/emails"));
    await row.waitFor();
    await expect(states()).resolves.toEqual(pressed("All"));

    // Pressing the active filter turns it off: back to every email.
    await page.goForward();
    await page.waitForURL(url("/dashboard/emails?status=failed"));
    await expect(states()).resolves.toEqual(pressed("Failed"));
    await filters.getByRole("button", { name: /^Failed/ }).click();
    await page.waitForURL(url("/dashboard/emails"));
    await row.waitFor();
    await expect(states()).resolves.toEqual(pressed("All"));
  });

  test("shows each plan's price on Plan & billing, from the plan table, with the test-mode note", async () => {
    await open("/dashboard/billing", "Plan & billing");
    await expect(shownPrices()).resolves.toEqual({ plans: CONFIGURED_PRICES, note: 1 });
    await page.getByText("Test-mode payments", { exact: true }).waitFor();
  });

  test("authenticates the API with the session cookie from the page itself", async () => {
    const result = await page.evaluate(async (id) => {
      const usage = await fetch("/api/v1/usage");
      const library = await fetch("/api/v1/library");
      const render = await fetch(`/api/v1/templates/${id}/render`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ variables: { userName: "Session" } }),
      });
      return {
        usage: [usage.status, await usage.json()],
        library: [library.status, await library.json()],
        render: [render.status, await render.json()],
      };
    }, welcomeId);
    expect(result.usage[0]).toBe(200);
    expect(result.usage[1]).toMatchObject({
      success: true,
      usage: { plan: "free", limit: 500 },
      emails: { current_usage: 1 },
    });
    expect(result.library[0]).toBe(200);
    expect(result.library[1].pagination.total).toBe(2);
    expect(result.render[0]).toBe(200);
    expect(result.render[1].html).toContain("Session");
  });

  test("refuses a cookie-authenticated POST from a foreign origin with 403 CSRF_REJECTED", async ({ request }) => {
    const cookie = await cookieHeader(context, baseUrl);
    const body = JSON.stringify({ template_id: welcomeId, to: "victim@example.com", subject: "Forged" });
    const foreign = await request.post(url("/api/v1/send"), {
      headers: { cookie, origin: "https://evil.example", "content-type": "application/json" },
      data: body,
    });
    expect(foreign.status()).toBe(403);
    expect(await foreign.json()).toEqual({
      error: "Cross-site request refused",
      code: "CSRF_REJECTED",
      success: false,
    });

    const crossSite = await request.post(url(`/api/v1/templates/${welcomeId}/render`), {
      headers: { cookie, "sec-fetch-site": "cross-site", "content-type": "application/json" },
      data: "{}",
    });
    expect(crossSite.status()).toBe(403);

    // The same cookie from the app's own origin is accepted (GETs are never refused).
    const usage = await request.get(url("/api/v1/usage"), { headers: { cookie, origin: "https://evil.example" } });
    expect(usage.status()).toBe(200);
  });

  test("writes a new TSX template with a live sandboxed preview, shows compile errors, and saves it", async () => {
    await open("/dashboard/templates/new", "New template");
    const preview = page.frameLocator("iframe.email-frame");
    await preview.getByText("Hello, Ada").filter({ visible: true }).waitFor();

    // The starter's variables, derived from the code.
    const derived = page.getByTestId("derived-variables").getByRole("listitem");
    await derived.filter({ hasText: "actionUrl" }).waitFor();

    // A compile error: its line and character marked in the editor, its message said once with its position.
    const editor = page.getByLabel("Template source code");
    await editor.fill("export default function Broken() {\n  return <div>;\n}\n");
    const problem = page.getByTestId("editor-problem");
    await problem.filter({ hasText: /Line 2/ }).waitFor();
    await expect(problem.locator("p").textContent()).resolves.toBe(
      "Line 2, column 15: Syntax error: Error transforming template.tsx: Unexpected token",
    );
    await expect(page.locator(".cm-problem-line").textContent()).resolves.toBe("  return <div>;");
    await expect(page.locator(".cm-problem-at").textContent()).resolves.toBe(";");
    await expect(editor.getAttribute("aria-invalid")).resolves.toBe("true");
    await problem.getByRole("button", { name: "Go to line 2" }).click();
    await expect(editor.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await expect(page.locator(".cm-activeLine").textContent()).resolves.toBe("  return <div>;");

    await editor.fill(
      [
        'import { Body, Html, Text } from "@react-email/components";',
        "",
        'export default function Note({ who = "world", count = 1 }: { who?: string; count?: number }) {',
        "  return (<Html><Body><Text>Note for {who}: {count} items</Text></Body></Html>);",
        "}",
        "",
        'Note.PreviewProps = { who: "E2E", count: 2 };',
        "",
      ].join("\n"),
    );
    await preview.getByText("Note for E2E: 2 items").filter({ visible: true }).waitFor();
    await expect(page.getByTestId("editor-problem").count()).resolves.toBe(0);
    await expect(page.locator(".cm-problem-line").count()).resolves.toBe(0);
    await derived.filter({ hasText: "count" }).getByText("number", { exact: true }).waitFor();
    await expect(derived.count()).resolves.toBe(2);

    await page.getByLabel("Name").fill("E2E note");
    await page.getByRole("button", { name: "Save template" }).click();
    await page.waitForURL(/\/dashboard\/library\/[0-9a-f-]{36}\?created=1$/);
    await page.getByRole("heading", { level: 1, name: "E2E note" }).waitFor();
    await page.getByText("Created by you").first().waitFor();
    await preview.getByText("Note for E2E: 2 items").filter({ visible: true }).waitFor();
    await page.getByLabel(/who/).fill("Grace");
    await preview.getByText("Note for Grace: 2 items").filter({ visible: true }).waitFor();

    // Text in a number field is sent as it is: the API's check is shown on the field.
    await page.getByLabel(/count/).fill("two");
    await expect(page.locator("#var-count-error").textContent()).resolves.toBe("must be a number");
    await expect(page.getByLabel(/count/).getAttribute("aria-invalid")).resolves.toBe("true");
    await page.getByLabel(/count/).fill("3");
    await preview.getByText("Note for Grace: 3 items").filter({ visible: true }).waitFor();
    await expect(page.locator("#var-count-error").count()).resolves.toBe(0);
  });

  // The two files of "E2E two files", written in the editor by the first test below and shown by the second.
  const letterEntry = [
    'import { Body, Html, Text } from "@react-email/components";',
    'import { Footer } from "./components/footer";',
    "",
    'export default function Letter({ who = "world" }: { who?: string }) {',
    "  return (<Html><Body><Text>Letter for {who}</Text><Footer /></Body></Html>);",
    "}",
    "",
    'Letter.PreviewProps = { who: "E2E" };',
    "",
  ].join("\n");
  const letterFooter = [
    'import { Text } from "@react-email/components";',
    "",
    "export function Footer() {",
    "  return <Text>Sent by the E2E footer</Text>;",
    "}",
    "",
  ].join("\n");

  test("writes a template of two files in tabs, names a compile error's file and brings its tab forward, saves and downloads them as a zip", async () => {
    await open("/dashboard/templates/new", "New template");
    const preview = page.frameLocator("iframe.email-frame");
    await preview.getByText("Hello, Ada").filter({ visible: true }).waitFor();
    const tabs = page.getByRole("tablist", { name: "Files of the template" }).getByRole("tab");
    await expect(tabs.allTextContents()).resolves.toEqual(["template.tsx"]);
    const editor = page.getByLabel("Template source code");
    const entryTab = page.getByRole("tab", { name: /^template\.tsx/ });
    const footerTab = page.getByRole("tab", { name: "components/footer.tsx" });

    // A path outside the API's rules is refused with its reason before any file is added.
    await page.getByRole("button", { name: "Add file" }).click();
    await page.getByLabel("Path of the new file").fill("../footer.tsx");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(page.locator("#file-path-help").textContent()).resolves.toBe(
      "The path must not contain .. (a template's files stay inside it).",
    );
    await page.getByLabel("Path of the new file").fill("components/footer.tsx");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect(tabs.allTextContents()).resolves.toEqual(["template.tsx (entry)", "components/footer.tsx"]);
    await expect(footerTab.getAttribute("aria-selected")).resolves.toBe("true");

    await editor.fill(letterFooter);
    await entryTab.click();
    await editor.fill(letterEntry);
    await preview.getByText("Letter for E2E").filter({ visible: true }).waitFor();
    await preview.getByText("Sent by the E2E footer").filter({ visible: true }).waitFor();

    // A compile error in the footer, saved from the entry's tab: the footer's tab comes forward, its line marked.
    await footerTab.click();
    await editor.fill("export function Footer() {\n  return <p>;\n}\n");
    await page.getByTestId("editor-problem").waitFor();
    await entryTab.click();
    await page.getByLabel("Name").fill("E2E two files");
    await page.getByRole("button", { name: "Save template" }).click();
    // The save's answer brings the footer's tab forward.
    await expect(footerTab).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId("editor-problem").locator("p").textContent()).resolves.toBe(
      "components/footer.tsx: Line 2, column 13: Syntax error: Error transforming components/footer.tsx: Unexpected token",
    );
    await expect(page.locator(".cm-problem-line").textContent()).resolves.toBe("  return <p>;");

    await editor.fill(letterFooter);
    // The preview kept the last good render while the footer did not compile: the problem going away is the sign.
    await expect(page.getByTestId("editor-problem")).toHaveCount(0);
    await preview.getByText("Sent by the E2E footer").filter({ visible: true }).waitFor();
    await page.getByRole("button", { name: "Save template" }).click();
    await page.waitForURL(/\/dashboard\/library\/[0-9a-f-]{36}\?created=1$/);
    await page.getByRole("heading", { level: 1, name: "E2E two files" }).waitFor();
    await preview.getByText("Sent by the E2E footer").filter({ visible: true }).waitFor();

    // Download: a zip of both files, the entry first, byte for byte as written.
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download .zip" }).click();
    const zip = await download;
    expect(zip.suggestedFilename()).toBe("e2e-two-files.zip");
    const files = readZip(readFileSync((await zip.path())!)).map(({ path, data }) => [path, data.toString("utf8")]);
    expect(files).toEqual([
      ["template.tsx", letterEntry],
      ["components/footer.tsx", letterFooter],
    ]);
    const id = await page.getByTestId("template-id").textContent();
    const answer = await page.request.get(url(`/api/dashboard/templates/${id}/download`));
    expect([answer.status(), answer.headers()["content-type"], answer.headers()["content-disposition"]]).toEqual([
      200,
      "application/zip",
      'attachment; filename="e2e-two-files.zip"',
    ]);
  });

  test("shows the two files' source in tabs on the template's page, copies the file shown, and downloads them with the current variables as a zip", async () => {
    // The page the previous test saved the template from.
    await page.getByRole("heading", { level: 1, name: "E2E two files" }).waitFor();
    const id = await page.getByTestId("template-id").textContent();
    const source = page.getByRole("region", { name: "Source" });
    const tabs = source.getByRole("tablist", { name: "Files of the template" }).getByRole("tab");
    const entryTab = source.getByRole("tab", { name: /^template\.tsx/ });
    const footerTab = source.getByRole("tab", { name: "components/footer.tsx" });
    const shown = source.getByRole("tabpanel").locator("pre.source-view");
    await expect(tabs.allTextContents()).resolves.toEqual(["template.tsx (entry)", "components/footer.tsx"]);
    await expect(entryTab).toHaveAttribute("aria-selected", "true");
    await expect(shown.getAttribute("aria-label")).resolves.toBe("Source of template.tsx");
    await expect(shown.textContent()).resolves.toBe(letterEntry);

    await footerTab.click();
    await expect(footerTab).toHaveAttribute("aria-selected", "true");
    await expect(entryTab).toHaveAttribute("aria-selected", "false");
    await expect(shown.getAttribute("aria-label")).resolves.toBe("Source of components/footer.tsx");
    await expect(shown.textContent()).resolves.toBe(letterFooter);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
    await source.getByRole("button", { name: "Copy" }).click();
    await source.getByRole("button", { name: "Copied" }).waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(letterFooter);
    await context.clearPermissions();

    await entryTab.click();
    await expect(entryTab).toHaveAttribute("aria-selected", "true");
    await expect(shown.textContent()).resolves.toBe(letterEntry);
    // The entry alone would break on its relative import: the zip is the way to download the source.
    await expect(source.getByRole("button", { name: /^Download/ })).toHaveCount(0);
    await source.getByRole("link", { name: "Download .zip" }).waitFor();

    // "With current variables": a zip of both files, the entry with the variables applied as POST /render answers it.
    await page.getByLabel(/who/).fill("Zed");
    await page.frameLocator("iframe.email-frame").getByText("Letter for Zed").filter({ visible: true }).waitFor();
    const download = page.waitForEvent("download");
    await source.getByRole("button", { name: "With current variables" }).click();
    const zip = await download;
    expect(zip.suggestedFilename()).toBe("e2e-two-files.with-variables.zip");
    const files = readZip(readFileSync((await zip.path())!)).map(({ path, data }) => [path, data.toString("utf8")]);
    const answer = await page.evaluate(async (id) => {
      const response = await fetch(`/api/v1/templates/${id}/render`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ variables: { who: "Zed" }, format: "react" }),
      });
      return { status: response.status, body: await response.json() };
    }, id);
    const applied = applyVariablesToSource(letterEntry, { who: "Zed" });
    expect(answer).toEqual({
      status: 200,
      body: {
        success: true,
        react: applied,
        files: { "template.tsx": applied, "components/footer.tsx": letterFooter },
        entry: "template.tsx",
      },
    });
    expect(files).toEqual([
      ["template.tsx", answer.body.react],
      ["components/footer.tsx", letterFooter],
    ]);
  });

  test("says once on the catalogue that the free library is full, and every locked card points at that sentence", async () => {
    // Four templates are in the library (Welcome, Order receipt, E2E note, E2E two files): the four other free ones
    // and two written here make the free plan's ten.
    await open("/dashboard/catalogue", "Catalogue");
    const addable = page
      .getByTestId("catalogue-card")
      .filter({ has: page.getByRole("button", { name: "Add to library" }) });
    await expect(addable.count()).resolves.toBe(4);
    for (let added = 0; added < 4; added++) {
      const card = addable.first();
      const name = await card.getAttribute("data-name");
      await card.getByRole("button", { name: "Add to library" }).click();
      await page
        .getByTestId("catalogue-card")
        .filter({ has: page.getByRole("heading", { name: name!, exact: true }) })
        .getByRole("link", { name: "Open in library" })
        .waitFor();
    }
    for (const name of ["E2E filler 1", "E2E filler 2"]) {
      await open("/dashboard/templates/new", "New template");
      await page.getByLabel("Name").fill(name);
      await page.getByRole("button", { name: "Save template" }).click();
      await page.waitForURL(/\/dashboard\/library\/[0-9a-f-]{36}\?created=1$/);
    }

    await open("/dashboard/catalogue", "Catalogue");
    await page.getByText("10 / 10 templates").waitFor();
    await expect(page.getByText("Your library is full").count()).resolves.toBe(1);
    await expect(page.locator("#library-full").textContent()).resolves.toBe(
      "Your library is full (10 templates on the Free plan). Every template you add, create or buy takes a slot. Upgrade to a paid plan for an unlimited library.",
    );
    // The five paid templates not bought.
    await expect(lockedButtonsDescribedBy()).resolves.toEqual(Array(5).fill("library-full"));
  });

  test("counts the usage on the Usage page", async () => {
    await open("/dashboard/usage", "Usage");
    await expect(
      page.getByRole("progressbar", { name: "Emails this month" }).getAttribute("aria-valuenow"),
    ).resolves.toBe("1");
    await page.getByRole("img", { name: /API calls: [1-9]\d* in the last 30 days/ }).waitFor();
    // Test sends apart: the test key above sent nothing.
    await expect(page.getByTestId("test-sends").locator(".stat-value").textContent()).resolves.toBe("0 today");
  });

  test("shows each email's delivery status: an address at bounce.test bounces, another is delivered", async ({
    request,
  }) => {
    // One through the template page's test send, one through the API.
    await open(`/dashboard/library/${welcomeId}`, "Welcome");
    await page.getByLabel("To", { exact: true }).fill("someone@bounce.test");
    await page.getByRole("button", { name: "Send test email" }).click();
    await page.getByTestId("send-result").filter({ hasText: "Test sent to someone@bounce.test" }).waitFor();
    const sent = await request.post(url("/api/v1/send"), {
      headers: { "X-API-Key": apiKey },
      data: { template_id: welcomeId, to: "someone@example.com", subject: "E2E delivered" },
    });
    expect(sent.status()).toBe(200);

    await open("/dashboard/emails", "Emails");
    const rows = page.getByTestId("email-row");
    const shown = () =>
      rows.evaluateAll((elements) =>
        elements.map((row) => [
          row.querySelector(".row-link")!.textContent,
          row.querySelector(".muted.small")!.textContent,
          row.querySelector(".badge")!.textContent,
        ]),
      );
    await expect(shown()).resolves.toEqual([
      ["E2E delivered", "to someone@example.com", "Delivered"],
      ["[Test] Welcome", "to someone@bounce.test", "Bounced"],
      ["[Test] Welcome", "to qa@example.com", "Delivered"],
    ]);

    // Each filter counts its emails; Bounced lists only the bounce.
    const filters = page.getByRole("group", { name: "Filter by status" });
    for (const label of ["All · 3", "Delivered · 2", "Bounced · 1", "Complained · 0", "Failed · 0"])
      await filters.getByRole("button", { name: label, exact: true }).waitFor();
    await filters.getByRole("button", { name: "Bounced · 1", exact: true }).click();
    await page.waitForURL(url("/dashboard/emails?status=bounced"));
    await expect(rows).toHaveCount(1);
    await expect(shown()).resolves.toEqual([["[Test] Welcome", "to someone@bounce.test", "Bounced"]]);

    // The bounced email's page: its status, every field, the events as a timeline, the sandboxed preview.
    await rows.getByRole("link", { name: "[Test] Welcome" }).click();
    await page.getByRole("heading", { level: 1, name: "[Test] Welcome" }).waitFor();
    bouncedEmailId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
    await expect(page.getByTestId("email-status").locator(".badge").first().textContent()).resolves.toBe("Bounced");
    const details = await page
      .locator(".dl")
      .first()
      .evaluate((list) =>
        [...list.querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]),
      );
    expect(details.map(([name]) => name)).toEqual([
      "From",
      "To",
      "Subject",
      "Created",
      "Sent",
      "Template",
      "Message id",
    ]);
    expect(Object.fromEntries(details)).toMatchObject({
      From: "hello@mail.e2e-example.dev",
      To: "someone@bounce.test",
      Subject: "[Test] Welcome",
      Template: "Open template",
    });
    const events = page.getByRole("list", { name: "Events" }).getByRole("listitem");
    await expect(
      events.evaluateAll((items) =>
        items.map((item) => [
          item.querySelector(".badge")!.textContent,
          item.querySelector("time")!.getAttribute("datetime")!.length,
          [...item.querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]),
        ]),
      ),
    ).resolves.toEqual([
      ["Sent", 24, []],
      [
        "Bounced",
        24,
        [
          ["Message", "someone@bounce.test does not exist (a hard bounce: addresses @bounce.test always bounce)"],
          ["Recipient", "someone@bounce.test"],
          ["Bounce type", "hard"],
        ],
      ],
    ]);
    await expect(page.locator("iframe.email-frame").getAttribute("sandbox")).resolves.toBe("");
    await page
      .frameLocator("iframe.email-frame")
      .getByText("Welcome", { exact: false })
      .filter({ visible: true })
      .first()
      .waitFor();

    // The email sent through the API has its page at the id the API answered with.
    const { id } = (await sent.json()).data;
    await open(`/dashboard/emails/${id}`, "E2E delivered");
    await expect(page.getByTestId("email-status").locator(".badge").first().textContent()).resolves.toBe("Delivered");
    await expect(page.getByRole("list", { name: "Events" }).locator(".badge").allTextContents()).resolves.toEqual([
      "Sent",
      "Delivered",
    ]);
    await page.locator(".dl dd.mono").filter({ hasText: id }).waitFor();
  });

  test("counts this month's bounces and complaints on the Overview, next to the usage", async () => {
    await open("/dashboard", /Hello/);
    await expect(page.getByTestId("delivery-problems").locator(".stat-value").textContent()).resolves.toBe(
      "1 bounce · 0 complaints",
    );
  });

  test("filters Emails before the app's scripts have loaded, or if they never do: the filter is a GET form", async ({
    browser,
  }) => {
    const unscripted = await browser.newContext({ storageState: await context.storageState() });
    // The app's bundles never arrive, so nothing hydrates; the inline scripts that stream the page in still run.
    await unscripted.route("**/_next/static/**/*.js", (route) => route.abort());
    const unscriptedPage = await unscripted.newPage();
    await unscriptedPage.goto(url("/dashboard/emails"));
    const filters = unscriptedPage.getByRole("group", { name: "Filter by status" });
    const rows = unscriptedPage.getByTestId("email-row");
    await expect(rows).toHaveCount(3);
    await filters.getByRole("button", { name: "Bounced · 1", exact: true }).click();
    await unscriptedPage.waitForURL(url("/dashboard/emails?status=bounced"));
    await expect(rows).toHaveCount(1);
    await expect(
      filters.getByRole("button", { name: "Bounced · 1", exact: true }).getAttribute("aria-pressed"),
    ).resolves.toBe("true");
    // Pressing the active filter again submits no status: every email.
    await filters.getByRole("button", { name: "Bounced · 1", exact: true }).click();
    await unscriptedPage.waitForURL(/\/dashboard\/emails\??$/);
    await expect(rows).toHaveCount(3);
    await unscripted.close();
  });

  test("cancels a scheduled email from the Emails page after confirmation: Canceled, no longer counted, in its timeline", async ({
    request,
  }) => {
    const emailsThisMonth = async () => {
      const usage = await request.get(url("/api/v1/usage"), { headers: { "X-API-Key": apiKey } });
      return (await usage.json()).emails.current_usage as number;
    };
    const before = await emailsThisMonth();
    const scheduledAt = new Date(Date.now() + 24 * 3600_000).toISOString();
    const scheduled = await request.post(url("/api/v1/send"), {
      headers: { "X-API-Key": apiKey },
      data: { template_id: welcomeId, to: "later@example.com", subject: "E2E scheduled", scheduled_at: scheduledAt },
    });
    expect(scheduled.status()).toBe(200);
    expect(await emailsThisMonth()).toBe(before + 1);

    await open("/dashboard/emails", "Emails");
    const rows = page.getByTestId("email-row");
    const row = rows.filter({ hasText: "E2E scheduled" });
    await row.getByText("Scheduled", { exact: true }).waitFor();
    // Only a scheduled email has the button.
    await expect(rows.getByRole("button", { name: "Cancel", exact: true })).toHaveCount(1);

    // The dialog says what canceling does; keeping the email closes it and changes nothing.
    await row.getByRole("button", { name: "Cancel", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel “E2E scheduled”?" });
    await expect(dialog.locator("p").textContent()).resolves.toBe(
      `It is scheduled for ${formatDateTime(scheduledAt)}. Canceled, it will not be sent and no longer counts toward this month's emails. This cannot be undone.`,
    );
    await dialog.getByRole("button", { name: "Keep it" }).click();
    await expect(dialog).toBeHidden();
    await row.getByText("Scheduled", { exact: true }).waitFor();

    await row.getByRole("button", { name: "Cancel", exact: true }).click();
    await dialog.getByRole("button", { name: "Cancel email" }).click();
    await row.getByText("Canceled", { exact: true }).waitFor();
    await expect(row.getByRole("button", { name: "Cancel", exact: true })).toHaveCount(0);
    await expect(row.locator(".field-error")).toHaveCount(0);
    expect(await emailsThisMonth()).toBe(before);

    // Its page: Canceled, nothing left to cancel, the cancel at the end of its timeline.
    await row.getByRole("link", { name: "E2E scheduled" }).click();
    await page.getByRole("heading", { level: 1, name: "E2E scheduled" }).waitFor();
    await expect(page.getByTestId("email-status").locator(".badge").first().textContent()).resolves.toBe("Canceled");
    await expect(page.getByRole("list", { name: "Events" }).locator(".badge").allTextContents()).resolves.toEqual([
      "Scheduled",
      "Canceled",
    ]);
    await expect(page.getByRole("main").getByRole("button", { name: "Cancel", exact: true })).toHaveCount(0);
  });

  test("says on an email's page why its cancel was refused: it was canceled through the API meanwhile", async ({
    request,
  }) => {
    const scheduled = await request.post(url("/api/v1/send"), {
      headers: { "X-API-Key": apiKey },
      data: {
        template_id: welcomeId,
        to: "later@example.com",
        subject: "E2E canceled elsewhere",
        scheduled_at: new Date(Date.now() + 24 * 3600_000).toISOString(),
      },
    });
    expect(scheduled.status()).toBe(200);
    const { id } = (await scheduled.json()).data;
    await open(`/dashboard/emails/${id}`, "E2E canceled elsewhere");
    const header = page.locator(".page-header");
    await expect(page.getByTestId("email-status").locator(".badge").first().textContent()).resolves.toBe("Scheduled");
    await header.getByRole("button", { name: "Cancel", exact: true }).waitFor();

    const canceled = await request.post(url(`/api/v1/emails/${id}/cancel`), { headers: { "X-API-Key": apiKey } });
    expect(canceled.status()).toBe(200);
    await header.getByRole("button", { name: "Cancel", exact: true }).click();
    await page
      .getByRole("dialog", { name: "Cancel “E2E canceled elsewhere”?" })
      .getByRole("button", { name: "Cancel email" })
      .click();
    await expect(header.getByRole("alert").textContent()).resolves.toBe(
      "Only a scheduled email can be canceled; its status is canceled",
    );
    // The page shows the status that made it refused, and no button.
    await expect(page.getByTestId("email-status").locator(".badge").first()).toHaveText("Canceled");
    await expect(header.getByRole("button", { name: "Cancel", exact: true })).toHaveCount(0);
    await expect(page.getByRole("list", { name: "Events" }).locator(".badge").allTextContents()).resolves.toEqual([
      "Scheduled",
      "Canceled",
    ]);
  });

  test("lists the bounced address under Suppressions and removes it after confirmation, down to the empty state", async () => {
    await open("/dashboard/emails", "Emails");
    await page.getByRole("main").getByRole("link", { name: "Suppressions" }).click();
    await page.getByRole("heading", { level: 1, name: "Suppressions" }).waitFor();
    await expect(page.locator('.sidebar [aria-current="page"]').allTextContents()).resolves.toEqual(["Suppressions"]);

    const rows = page.getByTestId("suppression-row");
    await expect(
      rows.evaluateAll((elements) =>
        elements.map((row) => [
          row.querySelector("strong")!.textContent,
          row.querySelectorAll("td")[1].textContent,
          row.querySelector("time")!.getAttribute("datetime")!.length,
        ]),
      ),
    ).resolves.toEqual([["someone@bounce.test", "Hard bounce", 24]]);

    await rows.getByRole("button", { name: "Remove", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Send to someone@bounce.test again?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(rows).toHaveCount(1);
    await rows.getByRole("button", { name: "Remove", exact: true }).click();
    await dialog.getByRole("button", { name: "Remove suppression" }).click();

    await page.getByRole("heading", { level: 3, name: "No suppressed addresses" }).waitFor();
    await expect(rows).toHaveCount(0);
    await expect(page.locator(".empty-state p").textContent()).resolves.toBe(
      "When an email hard-bounces or its recipient marks it as spam, the address is listed here and later sends to it are refused, which keeps your sender reputation intact. With no email provider configured, send to any address at bounce.test or complaint.test to try it.",
    );
  });

  test("revokes the key after confirmation; the key then gets 401", async ({ request }) => {
    await open("/dashboard/settings/api-keys", "API keys");
    const row = page.getByTestId("api-key-row").filter({ hasText: "E2E server" });
    await expect(row.textContent()).resolves.not.toContain("Never"); // last used by the library call above
    await row.getByRole("button", { name: "Revoke" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke “E2E server”?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog.isVisible()).resolves.toBe(false);
    await row.getByRole("button", { name: "Revoke" }).click();
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await row.getByText("Revoked").waitFor();

    const response = await request.get(url("/api/v1/library"), { headers: { "X-API-Key": apiKey } });
    expect(response.status()).toBe(401);
    expect(await response.json()).toEqual(UNAUTHORIZED);
  });

  test("signs out, refuses a wrong password clearly, and signs back in", async () => {
    await open("/dashboard/settings", "Settings");
    await page.getByRole("main").getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(/\/signin/);
    await page.getByText("You have been signed out.").waitFor();
    expect((await context.cookies(baseUrl)).some((cookie) => cookie.name === "lp-auth-token")).toBe(false);

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("wrong password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "don't match an account" }).waitFor();

    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(url("/dashboard"));
    await page.getByRole("heading", { level: 1, name: /Hello/ }).waitFor();
  });
});

test.describe("an expired session", () => {
  test("sends a form submitted without a session to sign-in, then back to its page", async () => {
    await open("/dashboard/settings/api-keys", "API keys");
    await context.clearCookies();
    await page.getByLabel("Key name").fill("After expiry");
    await page.getByRole("button", { name: "Generate API key" }).click();
    await page.waitForURL(/\/signin\?/);
    expect(new URL(page.url()).searchParams.get("next")).toBe("/dashboard/settings/api-keys");
    await page.getByText("Sign in to continue.").waitFor();

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(url("/dashboard/settings/api-keys"));
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
  });
});

test.describe("screenshots at 375 and 1440 px", () => {
  const pages: [string, string, string | RegExp][] = [
    ["landing", "/", /Beautiful email/],
    ["docs", "/docs", "Letterpress API"],
    ["overview", "/dashboard", /Hello/],
    ["library", "/dashboard/library", "Library"],
    ["template", "/dashboard/library/{welcome}", "Welcome"],
    ["catalogue", "/dashboard/catalogue", "Catalogue"],
    ["new-template", "/dashboard/templates/new", "New template"],
    ["usage", "/dashboard/usage", "Usage"],
    ["emails", "/dashboard/emails", "Emails"],
    ["email", "/dashboard/emails/{email}", "[Test] Welcome"],
    ["suppressions", "/dashboard/emails/suppressions", "Suppressions"],
    ["domains", "/dashboard/domains", "Sending domains"],
    ["api-keys", "/dashboard/settings/api-keys", "API keys"],
    ["settings", "/dashboard/settings", "Settings"],
    ["billing", "/dashboard/billing", "Plan & billing"],
  ];

  for (const width of [375, 1440]) {
    test(`renders every main page without sideways overflow at ${width} px`, async ({ browser }) => {
      const shotContext = await browser.newContext({
        viewport: { width, height: width === 375 ? 812 : 900 },
        storageState: await context.storageState(),
      });
      const shotPage = await shotContext.newPage();
      watchErrors(shotPage, pageErrors);
      const overflowing: string[] = [];
      for (const [name, path, heading] of pages) {
        await shotPage.goto(url(path.replace("{welcome}", welcomeId).replace("{email}", bouncedEmailId)), {
          waitUntil: "networkidle",
        });
        await shotPage.getByRole("heading", { level: 1, name: heading }).first().waitFor();
        if (name === "new-template")
          await shotPage.getByTestId("preview-status").filter({ hasText: "Up to date" }).waitFor({ timeout: 15_000 });
        await screenshot(shotPage, name);
        if ((await horizontalOverflow(shotPage)) > 0) overflowing.push(name);
      }
      await shotContext.clearCookies();
      // The signed-out header has more in it (Sign in, Get started) than the signed-in one.
      for (const [name, path] of [
        ["landing-signed-out", "/"],
        ["docs-signed-out", "/docs"],
        ["signin", "/signin"],
        ["signup", "/signup"],
      ]) {
        await shotPage.goto(url(path), { waitUntil: "networkidle" });
        await screenshot(shotPage, name);
        if ((await horizontalOverflow(shotPage)) > 0) overflowing.push(name);
      }
      await shotContext.close();
      expect(overflowing).toEqual([]);
    });
  }

  test("raised no uncaught errors (hydration included) in any page", () => {
    expect(pageErrors).toEqual([]);
  });
});
