import { expect, test } from "@playwright/test";
import { CONFIGURED_PRICES, shownPrices } from "./prices";
import { UNAUTHORIZED, url } from "./served-app";
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
    expect(await api.json()).toEqual(UNAUTHORIZED);
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
      'TypeScriptawait lp.templates.getVersion("<template id>", 1);',
    );
    const endpoints = await page.getByRole("figure", { name: "curl" }).count();
    expect(endpoints).toBeGreaterThan(20);
    await expect(page.getByRole("figure", { name: "TypeScript" })).toHaveCount(endpoints);
  });
});

test.describe("prices", () => {
  test("the landing page shows each plan's price from the plan table, with the test-mode note", async () => {
    const { page } = story;
    await open(page, "/", /Beautiful email/);
    await expect(shownPrices(page)).resolves.toEqual({ plans: CONFIGURED_PRICES, note: 1 });
  });
});
