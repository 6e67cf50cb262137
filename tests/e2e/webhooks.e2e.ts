import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { sendTestWebhookThroughApi, signUp } from "./account";
import { open, useStoryPage } from "./story-page";
import { startReceiver, type Received, type Receiver } from "./webhook-receiver";

// Webhooks: an endpoint added on a receiver of the test's own (127.0.0.1: the e2e server allows private URLs), its
// secret shown once; a test event sent, verified with that secret and listed in the delivery log; replayed; the secret
// rotated (a day of both signatures); the endpoint disabled (no test event then) and enabled, edited, then deleted.
test.describe.configure({ mode: "serial" });

const WHSEC = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

let receiver: Receiver;
let endpointPath = "";
let secret = "";
const story = useStoryPage(async (page) => {
  receiver = await startReceiver();
  await signUp(page);
});
test.afterAll(async () => receiver?.close());

/** The event `request` carries, verified with `withSecret` as a receiver would, by the Standard Webhooks library. */
function verified(request: Received, withSecret: string): { type: string; data: unknown } {
  const headers = Object.fromEntries(
    ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(request.headers[name])]),
  );
  return new Webhook(withSecret).verify(request.body, headers) as { type: string; data: unknown };
}

test("adds an endpoint with the events chosen; a refused one stays in the form; the secret is shown once", async () => {
  const { page } = story;
  await open(page, "/dashboard/webhooks", "Webhooks");
  await page.getByRole("heading", { name: "No endpoints yet" }).waitFor();
  endpointPath = "/hooks/orders";

  // No event chosen: refused, the URL kept to correct.
  await page.getByLabel("Endpoint URL").fill(receiver.url(endpointPath));
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByText("Choose at least one event").waitFor();
  await expect(page.getByLabel("Endpoint URL")).toHaveValue(receiver.url(endpointPath));

  // The service's rule on the URL, under its field.
  await page.getByLabel("Endpoint URL").fill("ftp://127.0.0.1/hooks");
  await page.getByRole("checkbox", { name: "email.delivered" }).check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.locator("#new-webhook-url[aria-invalid=true]").waitFor();
  await expect(page.locator("#new-webhook-url-hint")).toHaveText(/^url must be/);
  await expect(page.getByRole("checkbox", { name: "email.delivered" })).toBeChecked();

  await page.getByLabel("Endpoint URL").fill(receiver.url(endpointPath));
  await page.getByLabel("Description").fill("Order service");
  await page.getByRole("checkbox", { name: "email.bounced" }).check();
  await expect(page.getByRole("checkbox", { name: "email.bounced" })).toHaveAccessibleDescription(
    "It bounced: stop mailing the address.",
  );
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const revealed = page.getByTestId("webhook-secret");
  await revealed.waitFor();
  secret = await revealed.inputValue();
  expect(secret).toMatch(WHSEC);
  await page.getByRole("button", { name: "Copy secret" }).waitFor();
  // The form is empty again for the next endpoint.
  await expect(page.getByLabel("Endpoint URL")).toHaveValue("");
  await expect(page.getByRole("checkbox", { name: "email.delivered" })).not.toBeChecked();

  const row = page.getByTestId("webhook-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("link")).toHaveText(receiver.url(endpointPath));
  await row.getByText("Order service").waitFor();
  await expect(row.getByText("email.delivered, email.bounced")).toBeVisible();
  await row.getByText("Enabled").waitFor();

  // Shown once: a reload has it nowhere in the page.
  await page.reload();
  await row.waitFor();
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
});

test("sends a test event, signed with the secret, and lists it in the delivery log with the answer", async () => {
  const { page } = story;
  await open(page, "/dashboard/webhooks", "Webhooks");
  await page.getByTestId("webhook-row").getByRole("link").click();
  await page.getByRole("heading", { level: 1, name: receiver.url(endpointPath) }).waitFor();
  await page.getByRole("heading", { name: "No deliveries yet" }).waitFor();

  await page.getByRole("button", { name: "Send test event" }).click();
  const outcome = page.getByTestId("test-outcome");
  await outcome.getByText("Succeeded").waitFor();
  await expect(outcome.locator(".facts")).toContainText("Response200");

  const [request] = await receiver.waitFor(endpointPath, 1);
  expect(request.headers["content-type"]).toBe("application/json");
  const event = verified(request, secret);
  expect(event.type).toBe("webhook.test");

  const log = page.getByTestId("delivery-row");
  await expect(log).toHaveCount(1);
  await log.getByText("webhook.test").waitFor();
  await log.getByText("Succeeded").waitFor();
  await expect(log.locator(".facts")).toContainText("Attempts1");
  await expect(log.locator(".facts")).toContainText("Response200");
  await expect(log.locator(".facts")).toContainText(/Latency\d+ ms/);
  await expect(log.locator(".facts")).toContainText(`Event id${request.headers["webhook-id"]}`);
  await log.getByText("Response body (first 4 KB)").click();
  await expect(log.locator("pre")).toHaveText("received");

  // The filter: none failed.
  await page.getByRole("group", { name: "Filter by status" }).getByRole("button", { name: "Failed" }).click();
  await page.getByRole("heading", { name: "No failed deliveries" }).waitFor();
  await page.getByRole("group", { name: "Filter by status" }).getByRole("button", { name: "All" }).click();
  await expect(page.getByTestId("delivery-row")).toHaveCount(1);
});

test("replays the delivery: the same event (webhook-id) again, a new row in the log", async () => {
  const { page } = story;
  const log = page.getByTestId("delivery-row");
  await log.getByRole("button", { name: "Replay" }).click();
  await page.getByText("Replayed: the new delivery is at the top of the log.").waitFor();
  const [first, again] = await receiver.waitFor(endpointPath, 2);
  expect(again, "the replay reached the receiver").toBeDefined();
  expect(again.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
  expect(verified(again, secret).type).toBe("webhook.test");
  await expect(log).toHaveCount(2);
  // Attempted after the answer: the log shows its outcome once reloaded.
  await expect(async () => {
    await page.reload();
    await expect(log.first()).toHaveAttribute("data-status", "succeeded");
  }).toPass({ timeout: 10_000 });
});

test("rotates the secret: the new one shown once, the old one still signing beside it for a day", async () => {
  const { page } = story;
  await page.getByRole("button", { name: "Rotate secret" }).click();
  const dialog = page.getByRole("dialog", { name: "Rotate the signing secret?" });
  await expect(dialog).toContainText("and with the current one as well for 24 hours");
  await dialog.getByRole("button", { name: "Rotate secret" }).click();
  const revealed = page.getByTestId("webhook-secret");
  await revealed.waitFor();
  const rotated = await revealed.inputValue();
  expect(rotated).toMatch(WHSEC);
  expect(rotated).not.toBe(secret);
  await page.getByText(/The previous secret also signs deliveries until/).waitFor();

  const before = receiver.received.length;
  await page.getByRole("button", { name: "Send test event" }).click();
  await page.getByTestId("test-outcome").getByText("Succeeded").waitFor();
  const request = receiver.received[before];
  // Two signatures, the new secret's first: a receiver with either secret accepts it.
  expect(String(request.headers["webhook-signature"]).split(" ")).toHaveLength(2);
  expect(verified(request, rotated).type).toBe("webhook.test");
  expect(verified(request, secret).type).toBe("webhook.test");
  secret = rotated;
});

test("disables the endpoint, then enables it again", async () => {
  const { page } = story;
  await page.getByRole("button", { name: "Disable endpoint" }).click();
  await page.getByText("Disabled: nothing is delivered to it.").waitFor();
  await page.getByTestId("webhook-status").getByText("Disabled").waitFor();
  // A test event still goes out, so the endpoint can be checked before it is enabled again.
  await expect(page.getByRole("button", { name: "Send test event" })).toHaveAccessibleDescription(
    "Sent even while the endpoint is disabled, so you can check it before enabling it.",
  );
  const before = receiver.received.filter((request) => request.path === endpointPath).length;
  await page.getByRole("button", { name: "Send test event" }).click();
  const arrived = await receiver.waitFor(endpointPath, before + 1);
  expect(arrived).toHaveLength(before + 1);
  expect(verified(arrived.at(-1)!, secret).type).toBe("webhook.test");
  await page.getByTestId("test-outcome").getByText("Succeeded").waitFor();
  await page.getByTestId("webhook-status").getByText("Disabled").waitFor();
  await open(page, "/dashboard/webhooks", "Webhooks");
  await page.getByTestId("webhook-row").getByText("Disabled").waitFor();

  await page.getByTestId("webhook-row").getByRole("link").click();
  await page.getByRole("button", { name: "Enable endpoint" }).click();
  await page.getByText("Enabled: new events are delivered to it.").waitFor();
  await page.getByTestId("webhook-status").getByText("Enabled").waitFor();
});

test("pages through the delivery log, newest first, 20 a page", async () => {
  const { page } = story;
  const id = page.url().split("/").pop()!;
  // Four so far (a test event, its replay, one after the rotation, one while disabled), and 20 more.
  for (let sent = 0; sent < 20; sent++) await sendTestWebhookThroughApi(page, id);
  await page.reload();
  const pager = page.getByRole("navigation", { name: "Pages" });
  await expect(pager).toContainText("1–20 of 24");
  await expect(page.getByTestId("delivery-row")).toHaveCount(20);
  await pager.getByRole("link", { name: "Older" }).click();
  await expect(pager).toContainText("21–24 of 24");
  await expect(page.getByTestId("delivery-row")).toHaveCount(4);
  // The oldest last: the first test event (or its replay: the same webhook-id), which the receiver saw first.
  const [first] = await receiver.waitFor(endpointPath, 1);
  await expect(page.getByTestId("delivery-row").last().locator(".facts")).toContainText(
    `Event id${first.headers["webhook-id"]}`,
  );
  await pager.getByRole("link", { name: "Newer" }).click();
  await expect(pager).toContainText("1–20 of 24");
});

test("edits the endpoint's events and description, then deletes it", async () => {
  const { page } = story;
  await page.getByRole("checkbox", { name: "email.sent" }).check();
  await page.getByRole("checkbox", { name: "email.bounced" }).uncheck();
  await page.getByLabel("Description").fill("Orders, sent and delivered");
  await page.getByRole("button", { name: "Save changes" }).click();
  await page.getByText("Saved.").waitFor();
  await page.getByTestId("webhook-status").getByText("Orders, sent and delivered").waitFor();
  await open(page, "/dashboard/webhooks", "Webhooks");
  await page.getByTestId("webhook-row").getByText("email.sent, email.delivered").waitFor();

  await page.getByTestId("webhook-row").getByRole("link").click();
  await page.getByRole("button", { name: "Delete endpoint" }).click();
  await page
    .getByRole("dialog", { name: "Delete this endpoint?" })
    .getByRole("button", { name: "Delete endpoint" })
    .click();
  await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
  await page.getByRole("heading", { name: "No endpoints yet" }).waitFor();
});
