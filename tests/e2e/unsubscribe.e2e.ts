import { expect, test } from "@playwright/test";
import { addVerifiedDomain, createUnsubscribeTemplateThroughApi, signUp, unsubscribeLinkThroughApi } from "./account";
import { horizontalOverflow, seriousViolations, watchErrors } from "./browser";
import { url } from "./served-app";
import { open, useStoryPage } from "./story-page";

// A one-click unsubscribe as its recipient meets it: the link in a newsletter opens a page that says what it will do
// (signed out, on a phone), its button unsubscribes, and the sender's dashboard then lists the address.
test.describe.configure({ mode: "serial" });

const story = useStoryPage(signUp);

test("the link's page says what it will do; its button unsubscribes; the sender's suppressions list it", async ({
  browser,
}) => {
  const { page, pageErrors } = story;
  const digestId = await createUnsubscribeTemplateThroughApi(page, "E2E weekly news");
  await addVerifiedDomain(page, "mail.e2e-unsubscribe.dev");
  const path = await unsubscribeLinkThroughApi(page, digestId, "reader@example.com", "digest");

  // The recipient: signed out, on a phone.
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 } });
  const reader = await phone.newPage();
  watchErrors(reader, pageErrors);
  await reader.goto(url(path));
  await reader.getByRole("heading", { level: 1, name: "Unsubscribe" }).waitFor();
  await expect(reader.locator("main").innerText()).resolves.toBe(
    "Unsubscribe\n\nStop emails about digest to reader@example.com from this sender?\n\nUnsubscribe\n\nNothing changes until you press the button.",
  );
  await expect(horizontalOverflow(reader)).resolves.toBe(0);
  await expect(seriousViolations(reader, "unsubscribe")).resolves.toEqual([]);
  await reader.getByRole("button", { name: "Unsubscribe" }).click();
  await reader.getByRole("heading", { level: 1, name: "You are unsubscribed" }).waitFor();
  await expect(reader.locator("main").innerText()).resolves.toBe(
    "You are unsubscribed\n\nNo more emails about digest to reader@example.com will be sent from this sender.\n\nYou can close this page.",
  );
  await expect(horizontalOverflow(reader)).resolves.toBe(0);
  await expect(seriousViolations(reader, "unsubscribed")).resolves.toEqual([]);
  await phone.close();

  await open(page, "/dashboard/emails/suppressions", "Suppressions");
  const row = page.getByTestId("suppression-row").filter({ hasText: "reader@example.com" });
  await expect(row.getByRole("cell").nth(1).innerText()).resolves.toBe("Unsubscribed from digest");
  // A later send of the group to the address is held back; one of another group is not.
  const send = (group: string) =>
    page.request.post(url("/api/v1/send"), {
      data: { template_id: digestId, to: "reader@example.com", subject: "Again", unsubscribe: { group } },
    });
  expect((await send("digest")).status()).toBe(422);
  expect((await send("product news")).status()).toBe(200);
});
