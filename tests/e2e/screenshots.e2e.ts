import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import {
  addFromCatalogue,
  addVerifiedDomain,
  createApiKey,
  createTemplateThroughApi,
  sendThroughApi,
  signUp,
} from "./account";
import { horizontalOverflow, screenshot, settled, watchErrors } from "./browser";
import { url } from "./served-app";
import { useStoryPage } from "./story-page";

// Every main page at 375 and 1440 px wide, signed in with something on each (templates, a key, a domain, a delivered
// and a bounced email) and signed out: nothing may overflow sideways. The screenshots are left in
// test-results/screenshots/ to look at. The two widths run at once, each in a worker of its own and an account it
// signs up for there.
test.describe.configure({ mode: "parallel" });

let welcomeId = "";
let noteId = "";
let bouncedEmailId = "";
const story = useStoryPage(async (page) => {
  await signUp(page);
  [welcomeId] = await addFromCatalogue(page, ["Welcome"]);
  noteId = await createTemplateThroughApi(page, "E2E note");
  await createApiKey(page, "E2E server");
  // A domain belongs to one account, and each worker has its own.
  await addVerifiedDomain(page, `mail-${randomUUID().slice(0, 8)}.e2e-screenshots.dev`);
  await sendThroughApi(page, { template_id: welcomeId, to: "qa@example.com", subject: "E2E delivered" });
  bouncedEmailId = await sendThroughApi(page, {
    template_id: welcomeId,
    to: "someone@bounce.test",
    subject: "E2E bounced",
  });
});

const pages: [string, string, string | RegExp][] = [
  ["landing", "/", /Beautiful email/],
  ["docs", "/docs", "Letterpress API"],
  ["overview", "/dashboard", /Hello/],
  ["library", "/dashboard/library", "Library"],
  ["template", "/dashboard/library/{welcome}", "Welcome"],
  ["own-template", "/dashboard/library/{note}", "E2E note"],
  ["edit-template", "/dashboard/library/{note}/edit", "Edit E2E note"],
  ["catalogue", "/dashboard/catalogue", "Catalogue"],
  ["new-template", "/dashboard/templates/new", "New template"],
  ["usage", "/dashboard/usage", "Usage"],
  ["emails", "/dashboard/emails", "Emails"],
  ["email", "/dashboard/emails/{email}", "E2E bounced"],
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
      storageState: await story.context.storageState(),
    });
    const shotPage = await shotContext.newPage();
    watchErrors(shotPage, story.pageErrors);
    const overflowing: string[] = [];
    for (const [name, path, heading] of pages) {
      await shotPage.goto(
        url(path.replace("{welcome}", welcomeId).replace("{note}", noteId).replace("{email}", bouncedEmailId)),
      );
      await shotPage.getByRole("heading", { level: 1, name: heading }).first().waitFor();
      if (name === "new-template" || name === "edit-template")
        await shotPage.getByTestId("preview-status").filter({ hasText: "Up to date" }).waitFor({ timeout: 15_000 });
      await settled(shotPage);
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
      await shotPage.goto(url(path));
      await settled(shotPage);
      await screenshot(shotPage, name);
      if ((await horizontalOverflow(shotPage)) > 0) overflowing.push(name);
    }
    await shotContext.close();
    expect(overflowing).toEqual([]);
  });
}
