import { expect, test } from "@playwright/test";
import { addVerifiedDomain, createTemplateThroughApi, sendThroughApi, signUp } from "./account";
import { copiedBy, watchErrors } from "./browser";
import { CONFIGURED_PRICES, shownPrices } from "./prices";
import { url } from "./served-app";
import { open, useStoryPage } from "./story-page";

// What the account has done, used and pays: the Overview (a new account's checklist on a phone, this month's bounces
// and complaints, test sends' among them and marked Test), Usage, and Plan & billing.
test.describe.configure({ mode: "serial" });

const story = useStoryPage(signUp);

test("the Overview's checklist reads on a 375 px phone: nothing overflows sideways, no text is clipped", async ({
  browser,
}) => {
  const { context, pageErrors } = story;
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

test("the Overview's Call the API snippet has a Copy button that copies the curl call", async () => {
  const { page } = story;
  await open(page, "/dashboard", /Hello/);
  const callTheApi = page.getByRole("region", { name: "Call the API" });
  await expect(copiedBy(page, callTheApi.getByRole("button", { name: "Copy curl example" }))).resolves.toBe(
    `curl ${url("/api/v1/library")} \\\n  -H "X-API-Key: $LETTERPRESS_API_KEY"`,
  );
});

test("shows each plan's price on Plan & billing, from the plan table, with the test-mode note", async () => {
  const { page } = story;
  await open(page, "/dashboard/billing", "Plan & billing");
  await expect(shownPrices(page)).resolves.toEqual({ plans: CONFIGURED_PRICES, note: 1 });
  await page.getByText("Test-mode payments", { exact: true }).waitFor();
});

test.describe("after an email that bounced", () => {
  let templateId = "";
  test.beforeAll(async () => {
    const { page } = story;
    templateId = await createTemplateThroughApi(page, "E2E note");
    await addVerifiedDomain(page, "mail.e2e-overview.dev");
    // Addresses at bounce.test always bounce.
    await sendThroughApi(page, { template_id: templateId, to: "someone@bounce.test", subject: "E2E bounced" });
  });

  test("counts the usage on the Usage page", async () => {
    const { page } = story;
    await open(page, "/dashboard/usage", "Usage");
    await expect(
      page.getByRole("progressbar", { name: "Emails this month" }).getAttribute("aria-valuenow"),
    ).resolves.toBe("1");
    await page.getByRole("img", { name: /API calls: [1-9]\d* in the last 30 days/ }).waitFor();
    // Test sends are counted apart: none was sent.
    await expect(page.getByTestId("test-sends").locator(".stat-value").textContent()).resolves.toBe("0 today");
  });

  test("counts this month's bounces and complaints on the Overview, next to the usage", async () => {
    const { page } = story;
    await open(page, "/dashboard", /Hello/);
    await expect(page.getByTestId("delivery-problems").locator(".stat-value").textContent()).resolves.toBe(
      "1 bounce · 0 complaints",
    );
  });

  test("warns on the Overview of a 30-day bounce rate of 4% or more, naming the template and domain behind it", async () => {
    const { page } = story;
    await open(page, "/dashboard", /Hello/);
    await expect(page.getByTestId("deliverability-warning").innerText()).resolves.toBe(
      "Your last 30 days’ bounce rate is 100% (4% or more). Gmail and Yahoo refuse mail from senders whose " +
        "complaints reach 0.3%, and a high bounce rate gets a sender slowed or suspended.\n\n" +
        "Templates behind it: E2E note.\n\nSending domains behind it: mail.e2e-overview.dev.",
    );
  });

  test("shows the template's sends and rates on its page, over the period chosen", async () => {
    const { page } = story;
    await open(page, `/dashboard/library/${templateId}`, "E2E note");
    const card = page.getByRole("region", { name: "Performance" });
    const rates = card.getByTestId("performance-rates");
    await expect(rates.innerText()).resolves.toMatch(
      // Each rate says, to a screen reader, what it is of.
      /^Sent\s+1\s+Delivered\s+of sent\s+0%\s+Bounced\s+of sent\s+100%\s+Complaints\s+of delivered\s+0%\s+Opened\s+of delivered\s+0%\s+Clicked\s+of delivered\s+0%$/,
    );
    await expect(card.getByRole("link", { name: "30 days" }).getAttribute("aria-current")).resolves.toBe("page");
    await card.getByRole("img", { name: /Emails sent/ }).waitFor();
    await card.getByRole("link", { name: "7 days" }).click();
    await page.waitForURL(/\?period=7/);
    await expect(card.getByRole("link", { name: "7 days" }).getAttribute("aria-current")).resolves.toBe("page");
    await card.getByText("Show daily rates").click();
    const today = new Date().toISOString().slice(0, 10);
    const days = card.getByRole("table", { name: "Sends and rates per day" }).getByRole("row");
    // A heading row and the 7 days, today first.
    await expect(days).toHaveCount(8);
    await expect(days.nth(1).innerText()).resolves.toBe(`${today}\t1\t0%\t100%\t0%\t0%\t0%`);
  });

  test("counts a test send's bounce on the Overview as the list below shows it, marked Test, and not on Usage", async () => {
    const { page } = story;
    await open(page, `/dashboard/library/${templateId}`, "E2E note");
    await page.getByLabel("To", { exact: true }).fill("tester@bounce.test");
    await page.getByRole("button", { name: "Send test email" }).click();
    await page.getByTestId("send-result").filter({ hasText: "Test sent to tester@bounce.test" }).waitFor();

    await open(page, "/dashboard", /Hello/);
    const problems = page.getByTestId("delivery-problems");
    await expect(problems.locator(".stat-value").textContent()).resolves.toBe("2 bounces · 0 complaints");
    await expect(problems.locator(".stat-foot").textContent()).resolves.toBe(
      "Of this month's emails; 1 was a test send. Bounced emails",
    );
    const recent = page.getByRole("region", { name: "Recent emails" }).getByRole("row");
    await expect(
      recent.evaluateAll((rows) =>
        rows.map((row) => [
          row.querySelector(".row-link")!.textContent,
          [...row.querySelectorAll(".badge")].map((badge) => badge.textContent),
        ]),
      ),
    ).resolves.toEqual([
      ["[Test] E2E note", ["Simulated bounce", "Test"]],
      ["E2E bounced", ["Bounced"]],
    ]);

    // Not one of the month's emails: a test send of the day.
    await open(page, "/dashboard/usage", "Usage");
    await expect(
      page.getByRole("progressbar", { name: "Emails this month" }).getAttribute("aria-valuenow"),
    ).resolves.toBe("1");
    await expect(page.getByTestId("test-sends").locator(".stat-value").textContent()).resolves.toBe("1 today");
  });
});
