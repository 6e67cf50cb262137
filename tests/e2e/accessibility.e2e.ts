import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import {
  addFromCatalogue,
  addVerifiedDomain,
  createApiKey,
  createTemplateThroughApi,
  sendThroughApi,
  signUp,
} from "./account";
import { settled } from "./browser";
import { open, useStoryPage } from "./story-page";

// Every page checked by axe-core against WCAG 2.0 and 2.1, levels A and AA: a visitor's pages signed out, then every
// dashboard page of an account with something on each (templates, a key, a domain, a sent and a bounced email, so a
// suppression). A serious or critical violation fails, listed with its rule, impact and the elements it found.
test.describe.configure({ mode: "serial" });

const story = useStoryPage();

type Violation = { page: string; id: string; impact: string; targets: string[] };

/** The page's serious and critical violations, compactly: one entry per rule. */
async function seriousViolations(page: Page, name: string): Promise<Violation[]> {
  await settled(page);
  // Legacy mode runs axe in the page itself: the default one finishes in a blank page of its own, which never opened
  // beside a template's preview here. It leaves out the sandboxed previews and thumbnails (of an opaque origin): the
  // emails shown, not the app's pages.
  const { violations } = await new AxeBuilder({ page })
    .setLegacyMode()
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return violations
    .filter(({ impact }) => impact === "serious" || impact === "critical")
    .map(({ id, impact, nodes }) => ({
      page: name,
      id,
      impact: impact ?? "",
      targets: nodes.map(({ target }) => target.join(" ")),
    }));
}

test("the landing page, sign-in, sign-up and the API docs (at 1440 and 375 px) have no serious or critical violation", async () => {
  const { page } = story;
  const found: Violation[] = [];
  for (const [path, heading] of [
    ["/", /Beautiful email/],
    ["/signin", "Welcome back"],
    ["/signup", "Create your account"],
    ["/docs", "Letterpress API"],
  ] as const) {
    await open(page, path, heading);
    found.push(...(await seriousViolations(page, path)));
  }
  // On a phone the docs' tables and examples scroll sideways, each on its own.
  await page.setViewportSize({ width: 375, height: 812 });
  await open(page, "/docs", "Letterpress API");
  found.push(...(await seriousViolations(page, "/docs at 375 px")));
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(found).toEqual([]);
});

test("every dashboard page has no serious or critical violation", async () => {
  // Fourteen pages, each checked in about a second (the catalogue, a thumbnail per template, in about five).
  test.setTimeout(120_000);
  const { page } = story;
  await signUp(page);
  const [welcomeId] = await addFromCatalogue(page, ["Welcome"]);
  const noteId = await createTemplateThroughApi(page, "E2E note");
  await createApiKey(page, "E2E server");
  await addVerifiedDomain(page, `mail-${randomUUID().slice(0, 8)}.e2e-accessibility.dev`);
  // Addresses at bounce.test bounce: the email has a timeline, and its address is suppressed.
  const emailId = await sendThroughApi(page, { template_id: welcomeId, to: "axe@bounce.test", subject: "E2E bounced" });

  const found: Violation[] = [];
  for (const [path, heading] of [
    ["/dashboard", /Hello/],
    ["/dashboard/library", "Library"],
    [`/dashboard/library/${welcomeId}`, "Welcome"],
    [`/dashboard/library/${noteId}/edit`, "Edit E2E note"],
    ["/dashboard/templates/new", "New template"],
    ["/dashboard/catalogue", "Catalogue"],
    ["/dashboard/emails", "Emails"],
    [`/dashboard/emails/${emailId}`, "E2E bounced"],
    ["/dashboard/emails/suppressions", "Suppressions"],
    ["/dashboard/usage", "Usage"],
    ["/dashboard/billing", "Plan & billing"],
    ["/dashboard/settings", "Settings"],
    ["/dashboard/settings/api-keys", "API keys"],
    ["/dashboard/domains", "Sending domains"],
  ] as const) {
    await open(page, path, heading);
    // The preview (and the editor's problems) shown once the code is compiled and rendered.
    if (path.endsWith("/edit") || path.endsWith("/new"))
      await page.getByTestId("preview-status").filter({ hasText: "Up to date" }).waitFor({ timeout: 15_000 });
    found.push(
      ...(await seriousViolations(
        page,
        path.replace(welcomeId, "{id}").replace(noteId, "{id}").replace(emailId, "{id}"),
      )),
    );
  }
  expect(found).toEqual([]);
});
