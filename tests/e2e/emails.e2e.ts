import { expect, test, type Page } from "@playwright/test";
import { formatDateTime } from "@/app/_components/format";
import { addFromCatalogue, addVerifiedDomain, createApiKey, signUp } from "./account";
import { copiedBy } from "./browser";
import { url } from "./served-app";
import { open, useStoryPage } from "./story-page";

// Emails: a test email sent from a template's page (a test send, as a test key's: neither it nor the previews before it
// counted on Usage), listed with its status, Test badge and preview, filtered by status (with and without the app's
// scripts), each email's delivery status and timeline, a scheduled email canceled, and the bounced address under
// Emails → Suppressions.
test.describe.configure({ mode: "serial" });

const DOMAIN = "mail.e2e-emails.dev";
let apiKey = "";
let welcomeId = "";
const story = useStoryPage(async (page) => {
  await signUp(page);
  apiKey = await createApiKey(page, "E2E server");
  [welcomeId] = await addFromCatalogue(page, ["Welcome"]);
  await addVerifiedDomain(page, DOMAIN);
});

/** What the Usage page shows of the month's API calls and emails (its meters), and of today's test sends. */
async function usageShown(page: Page) {
  await open(page, "/dashboard/usage", "Usage");
  const meter = (name: string) => page.getByRole("progressbar", { name }).getAttribute("aria-valuenow");
  return {
    apiCalls: await meter("API calls this month"),
    emails: await meter("Emails this month"),
    testSends: await page.getByTestId("test-sends").locator(".stat-value").textContent(),
  };
}
let usageBefore: Awaited<ReturnType<typeof usageShown>>;

test("sends a test email with the edited variables, and View in Emails opens that email, marked Test", async () => {
  const { page } = story;
  usageBefore = await usageShown(page);
  await open(page, `/dashboard/library/${welcomeId}`, "Welcome");
  // Each edit re-renders the preview.
  for (const name of ["Grace", "Grace Hopper"]) {
    await page.getByLabel(/userName/).fill(name);
    await page.waitForFunction(
      (name) => document.querySelector("iframe.email-frame")?.getAttribute("srcdoc")?.includes(`, ${name}!`),
      name,
    );
  }
  await page.getByLabel("To", { exact: true }).fill("qa@example.com");
  await page.getByRole("button", { name: "Send test email" }).click();
  const result = page.getByTestId("send-result").filter({ hasText: "Test sent to qa@example.com" });
  await result.getByRole("link", { name: "View in Emails" }).click();
  await page.waitForURL(/\/dashboard\/emails\/[0-9a-f-]{36}$/);
  await page.getByRole("heading", { level: 1, name: "[Test] Welcome" }).waitFor();
  // Never handed to a provider, it reached no inbox: its status says the delivery was simulated, as the send panel said.
  await expect(page.getByTestId("email-status").locator(".badge").allTextContents()).resolves.toEqual([
    "Simulated delivery",
    "Test",
  ]);
  await expect(page.getByRole("list", { name: "Events" }).locator(".badge").allTextContents()).resolves.toEqual([
    "Sent",
    "Simulated delivery",
  ]);
  await expect(page.getByTestId("test-email-note")).toHaveText(
    "A test email: kept in your outbox and never handed to a provider, so it reached no inbox. Its events are the outbox's simulation: delivered, or bounced and complained for addresses at bounce.test and complaint.test.",
  );
});

test("Send a test on Emails opens the Library with a hint: a test is sent from a template's page", async () => {
  const { page } = story;
  await open(page, "/dashboard/emails", "Emails");
  await page.getByRole("main").getByRole("link", { name: "Send a test" }).click();
  await page.getByRole("heading", { level: 1, name: "Library" }).waitFor();
  await expect(page.getByTestId("send-test-hint")).toHaveText(
    "To send a test email, open a template below: its page has a Send a test email form, with its variables to fill in. Test emails stay in your outbox and reach no inbox.",
  );
});

test("counts neither the previews nor the test send on Usage: one test send today, API calls and emails as before", async () => {
  const { page } = story;
  await expect(usageShown(page)).resolves.toEqual({ ...usageBefore, testSends: "1 today" });
});

test("shows the message under Emails with its status, a Test badge and a preview", async () => {
  const { page } = story;
  await open(page, "/dashboard/emails", "Emails");
  const row = page.getByTestId("email-row").filter({ hasText: "[Test] Welcome" });
  await row.getByText("to qa@example.com").waitFor();
  // The embedded outbox "delivers" it at once, and the list says that was simulated.
  await row.getByText("Simulated delivery", { exact: true }).waitFor();
  await row.getByTestId("email-test").filter({ hasText: "Test" }).waitFor();
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
  const { page } = story;
  await open(page, "/dashboard/emails", "Emails");
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

test("shows each email's delivery status: an address at bounce.test bounces, another is delivered", async ({
  request,
}) => {
  const { page } = story;
  // One through the template page's test send, one through the API.
  await open(page, `/dashboard/library/${welcomeId}`, "Welcome");
  await page.getByLabel("To", { exact: true }).fill("someone@bounce.test");
  await page.getByRole("button", { name: "Send test email" }).click();
  await page.getByTestId("send-result").filter({ hasText: "Test sent to someone@bounce.test" }).waitFor();
  const sent = await request.post(url("/api/v1/send"), {
    headers: { "X-API-Key": apiKey },
    data: { template_id: welcomeId, to: "someone@example.com", subject: "E2E delivered" },
  });
  expect(sent.status()).toBe(200);

  await open(page, "/dashboard/emails", "Emails");
  const rows = page.getByTestId("email-row");
  const shown = () =>
    rows.evaluateAll((elements) =>
      elements.map((row) => [
        row.querySelector(".row-link")!.textContent,
        row.querySelector(".muted.small")!.textContent,
        row.querySelector(".badge")!.textContent,
        row.querySelector("[data-testid=email-test]")?.textContent ?? null,
      ]),
    );
  // The template page's sends are test sends; the API key's is live.
  await expect(shown()).resolves.toEqual([
    ["E2E delivered", "to someone@example.com", "Delivered", null],
    ["[Test] Welcome", "to someone@bounce.test", "Simulated bounce", "Test"],
    ["[Test] Welcome", "to qa@example.com", "Simulated delivery", "Test"],
  ]);

  // Each filter counts its emails; Bounced lists only the bounce.
  const filters = page.getByRole("group", { name: "Filter by status" });
  for (const label of ["All · 3", "Delivered · 2", "Bounced · 1", "Complained · 0", "Failed · 0"])
    await filters.getByRole("button", { name: label, exact: true }).waitFor();
  await filters.getByRole("button", { name: "Bounced · 1", exact: true }).click();
  await page.waitForURL(url("/dashboard/emails?status=bounced"));
  await expect(rows).toHaveCount(1);
  await expect(shown()).resolves.toEqual([["[Test] Welcome", "to someone@bounce.test", "Simulated bounce", "Test"]]);

  // The bounced email's page: its status, every field, the events as a timeline, the sandboxed preview.
  await rows.getByRole("link", { name: "[Test] Welcome" }).click();
  await page.getByRole("heading", { level: 1, name: "[Test] Welcome" }).waitFor();
  await expect(page.getByTestId("email-status").locator(".badge").first().textContent()).resolves.toBe(
    "Simulated bounce",
  );
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
    "Locale",
    "Message id",
  ]);
  expect(Object.fromEntries(details)).toMatchObject({
    From: `hello@${DOMAIN}`,
    To: "someone@bounce.test",
    Subject: "[Test] Welcome",
    Template: "Welcome, version 1",
    // welcome has messages: sent without a locale, in its default one.
    Locale: "en",
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
      "Simulated bounce",
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
  await open(page, `/dashboard/emails/${id}`, "E2E delivered");
  await expect(page.getByTestId("email-status").locator(".badge").first().textContent()).resolves.toBe("Delivered");
  await expect(page.getByRole("list", { name: "Events" }).locator(".badge").allTextContents()).resolves.toEqual([
    "Sent",
    "Delivered",
  ]);
  await page.locator(".dl dd .mono").filter({ hasText: id }).waitFor();
  // Beside it, its Copy button puts the id on the clipboard.
  const copyId = page.locator(".dl dd").filter({ hasText: id }).getByRole("button", { name: "Copy id" });
  await expect(copiedBy(page, copyId)).resolves.toBe(id);
});

test("filters Emails before the app's scripts have loaded, or if they never do: the filter is a GET form", async ({
  browser,
}) => {
  const { context } = story;
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
  const { page } = story;
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

  await open(page, "/dashboard/emails", "Emails");
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
  const { page } = story;
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
  await open(page, `/dashboard/emails/${id}`, "E2E canceled elsewhere");
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
  const { page } = story;
  await open(page, "/dashboard/emails", "Emails");
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
