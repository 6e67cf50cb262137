import { expect, test } from "@playwright/test";
import { signUp } from "./account";
import { UNAUTHORIZED, url } from "./served-app";
import { open, useStoryPage } from "./story-page";

// Settings → API keys: a key is generated and shown once, authenticates the API, and once revoked gets 401.
// (Test keys limited to a domain: domains.e2e.ts.)
test.describe.configure({ mode: "serial" });

const story = useStoryPage(signUp);
let apiKey = "";

test("generates a named API key, shown once, with a server-side warning", async () => {
  const { page } = story;
  await open(page, "/dashboard/settings/api-keys", "API keys");
  await page.getByText("Keep API keys server-side.").waitFor();
  await page.getByLabel("Key name").fill("E2E server");
  await page.getByRole("button", { name: "Generate API key" }).click();
  const revealed = page.getByTestId("new-api-key");
  await revealed.waitFor();
  apiKey = await revealed.inputValue();
  expect(apiKey).toMatch(/^lp_live_[0-9A-Za-z]{49}$/);
  await page.getByRole("button", { name: "Copy key" }).waitFor();
  // The two lines that set up the typed client with it.
  const setup = page.getByRole("figure", {
    name: "With the TypeScript client (npm install letterpress), after the export above:",
  });
  await expect(setup.locator("pre")).toHaveText(
    `import { Letterpress } from "letterpress";\nconst lp = new Letterpress({ apiKey: process.env.LETTERPRESS_API_KEY, baseUrl: "${url("/api/v1")}" });`,
  );
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

test("revokes the key after confirmation; the key then gets 401", async ({ request }) => {
  const { page } = story;
  await open(page, "/dashboard/settings/api-keys", "API keys");
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
