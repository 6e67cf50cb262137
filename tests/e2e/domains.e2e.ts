import { expect, test } from "@playwright/test";
import { formatDate } from "@/app/_components/format";
import { createApiKey, signUp } from "./account";
import { UNKNOWN_OR_REVOKED_KEY, url } from "./served-app";
import { open, useStoryPage } from "./story-page";

// Sending domains: one added and verified (embedded mode), then a test key limited to it, which the API answers
// within its scope.
test.describe.configure({ mode: "serial" });

const INSUFFICIENT_SCOPE = {
  error: "API key not allowed",
  code: "INSUFFICIENT_SCOPE",
  success: false,
  message:
    "This API key has sending access only: it may send and batch-send, read and cancel emails, and read usage. Use a full-access key for this endpoint.",
};
const DAY = 86_400_000;

let apiKey = "";
const story = useStoryPage(async (page) => {
  await signUp(page);
  apiKey = await createApiKey(page, "E2E server");
});

test("adds a sending domain and marks it verified (embedded mode)", async () => {
  const { page } = story;
  await open(page, "/dashboard/domains", "Sending domains");
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
  const { page } = story;
  await open(page, "/dashboard/settings/api-keys", "API keys");
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
  await expect(page.locator("pre.code-block").filter({ hasText: "curl" }).textContent()).resolves.toContain(
    "/api/v1/usage \\",
  );
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
  expect(await revoked.json()).toEqual(UNKNOWN_OR_REVOKED_KEY);
});
