import { expect, test, type Locator } from "@playwright/test";
import { copiedBy, horizontalOverflow } from "./browser";
import { CONFIGURED_PRICES, shownPrices } from "./prices";
import { NO_CREDENTIALS, url } from "./served-app";
import { open, useStoryPage } from "./story-page";

// What a visitor sees signed out: the landing page with its prices and the API docs; the dashboard sends them to
// sign in, the API answers 401.
test.describe.configure({ mode: "serial" });

const story = useStoryPage();

test.describe("signed out", () => {
  test("sends dashboard visits to sign-in, but never redirects the API", async ({ request }) => {
    const { page } = story;
    const response = await page.goto(url("/dashboard/library"));
    expect(new URL(page.url()).pathname).toBe("/signin");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/dashboard/library");
    expect(response?.status()).toBe(200);

    const api = await request.get(url("/api/v1/library"), { maxRedirects: 0 });
    expect(api.status()).toBe(401);
    expect(await api.json()).toEqual(NO_CREDENTIALS);
  });

  test("shows the landing page with links to sign in and the API docs", async () => {
    const { page } = story;
    await open(page, "/", /Beautiful email/);
    await expect(page.getByRole("link", { name: "Sign in" }).first().getAttribute("href")).resolves.toBe("/signin");
    await page.getByRole("link", { name: "Read the API docs" }).click();
    await page.getByRole("heading", { level: 1, name: "Letterpress API" }).waitFor();
    await page.locator("#sendEmail").waitFor();
    await page.locator("#rate-limits").waitFor();
  });

  test("the API docs show each endpoint's call with the TypeScript client, then with curl", async () => {
    const { page } = story;
    await open(page, "/docs", "Letterpress API");
    const send = page.locator("#sendEmail");
    await expect(send.getByRole("figure", { name: "TypeScript" }).locator("pre")).toHaveText(`await lp.send({
  "template_id": "<template id>",
  "to": "ada@example.com",
  "subject": "Welcome aboard",
  "variables": { "userName": "Ada" }
});`);
    await expect(send.getByRole("figure", { name: "curl" }).locator("pre")).toContainText(
      `curl -X POST ${url("/api/v1/send")}`,
    );
    await expect(page.locator("#getTemplateVersion").getByRole("figure", { name: "TypeScript" })).toHaveText(
      'TypeScriptawait lp.templates.getVersion("<template id>", 1);Copy',
    );
    const endpoints = await page.getByRole("figure", { name: "curl" }).count();
    expect(endpoints).toBeGreaterThan(20);
    await expect(page.getByRole("figure", { name: "TypeScript" })).toHaveCount(endpoints);

    // Every code block has a Copy button named after it, which copies the block's text.
    const blocks = page.locator("pre.code-block");
    await expect(page.getByRole("button", { name: /^Copy / })).toHaveCount(await blocks.count());
    const curl = send.getByRole("button", { name: "Copy curl example: POST /send" });
    await expect(copiedBy(page, curl)).resolves.toBe(
      await send.getByRole("figure", { name: "curl" }).locator("pre").textContent(),
    );
    await expect(curl).toHaveText("Copied");
    await expect(curl).toHaveText("Copy");
  });
});

/** A table's rows as the reader sees them: each field's or parameter's name, and its notes (the last cell). */
function namesAndNotes(table: Locator): Promise<[string, string][]> {
  return table
    .locator("tbody tr")
    .evaluateAll((rows) =>
      rows.map((row) => [
        row.querySelector("td")!.firstChild!.textContent!,
        (row.querySelector("td:last-child") as HTMLElement).innerText,
      ]),
    ) as Promise<[string, string][]>;
}

test.describe("API docs", () => {
  const TEMPLATE_ID =
    "The template's id, or its alias; a catalogue template in your library also answers to its slug (your own aliases first). GET /library lists your library's templates with their ids; GET /catalogue lists the catalogue's, and POST /library adds a free one to your library.";

  test("say how to find a template's id, the sender's forms and default, how far ahead to schedule, and that attachments are Base64", async () => {
    const { page } = story;
    await open(page, "/docs", "Letterpress API");
    const send = page.locator("#sendEmail");
    const body = send.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Field" }) });
    const shown = (await namesAndNotes(body)).filter(([name]) =>
      ["template_id", "from", "attachments", "content", "path", "scheduled_at"].includes(name),
    );
    expect(shown).toEqual([
      ["template_id", `${TEMPLATE_ID}\nmax length 64`],
      [
        "from",
        'The sender, address@domain or Name <address@domain> ("Acme, Inc." <hello@mail.example.com> quotes a name with commas), on one of your verified sending domains or the shared sending domain, when the service has one. Without from, your default sender on a verified domain is used.\nmax length 320',
      ],
      [
        "attachments",
        "Files to attach, each a filename and Base64 content, or an https:// path: at most 50 files, 10 MB decoded in all\nat most 50 items",
      ],
      [
        "content",
        "The file itself, Base64-encoded (standard alphabet with = padding; whitespace is ignored): at most 10 MB of Base64, and the attachments of one email at most 10 MB decoded in all. Give it or path.\nmax length 10485760",
      ],
      [
        "path",
        "An https:// URL to fetch the file from, instead of content, on a public host (never a file on the server, nor a loopback, private, link-local or other internal address, nor a name resolving to one)\nmax length 2048",
      ],
      [
        "scheduled_at",
        "When to send it: ISO 8601 with a time zone (2030-01-01T09:00:00Z), in the future and up to 30 days ahead. The answer carries scheduled_at as well (its sent_at is when the request was accepted) and the email goes out when due; POST /emails/{id}/cancel cancels it until then.\nmax length 64",
      ],
    ]);
    // What a description quotes (CommonMark's backticks) is shown as code.
    await expect(
      body
        .getByRole("row")
        .filter({ hasText: "The sender" })
        .getByRole("cell")
        .last()
        .locator("code")
        .allTextContents(),
    ).resolves.toEqual(["address@domain", "Name <address@domain>", '"Acme, Inc." <hello@mail.example.com>', "from"]);

    // A path naming a template says the same.
    const render = page.locator("#renderTemplate");
    await expect(namesAndNotes(render.getByRole("table").nth(0))).resolves.toEqual([["id", TEMPLATE_ID]]);
  });

  test("open on their content at 375 px, the sections and endpoints in a menu, with no sideways scroll", async () => {
    const { page } = story;
    await page.setViewportSize({ width: 375, height: 812 });
    await open(page, "/docs", "Letterpress API");
    const heading = await page.getByRole("heading", { level: 1, name: "Letterpress API" }).boundingBox();
    expect(heading!.y + heading!.height).toBeLessThan(812);
    await expect(horizontalOverflow(page)).resolves.toBe(0);

    const contents = page.getByRole("navigation", { name: "On this page" });
    await expect(contents.getByRole("link", { name: "POST /send", exact: true }).isVisible()).resolves.toBe(false);
    await page.getByText("On this page", { exact: true }).click();
    await contents.getByRole("link", { name: "POST /send", exact: true }).click();
    await page.waitForURL(/\/docs#sendEmail$/);
    await expect(horizontalOverflow(page)).resolves.toBe(0);
    // A table wider than the screen scrolls on its own, and takes focus to be scrolled with the keyboard.
    const plans = page.getByRole("group", { name: "Plans and rate limits" });
    // Pressed again should the first press land while the browser is still busy with the jump to #sendEmail (a run
    // under load once saw the box focused and not scrolled).
    await expect(async () => {
      await plans.focus();
      await page.keyboard.press("ArrowRight");
      expect(await plans.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
    }).toPass();

    // At 1440 px the sidebar lists them, without the menu, and a table that fits is no tab stop.
    await page.setViewportSize({ width: 1440, height: 900 });
    await contents.getByRole("link", { name: "POST /send", exact: true }).waitFor();
    await expect(page.getByText("On this page", { exact: true }).isVisible()).resolves.toBe(false);
    await plans.waitFor({ state: "detached" });
    await expect(page.locator("#rate-limits .table-wrap").getAttribute("tabindex")).resolves.toBe(null);
  });
});

test.describe("prices", () => {
  test("the landing page shows each plan's price from the plan table, with the test-mode note", async () => {
    const { page } = story;
    await open(page, "/", /Beautiful email/);
    await expect(shownPrices(page)).resolves.toEqual({ plans: CONFIGURED_PRICES, note: 1 });
  });
});
