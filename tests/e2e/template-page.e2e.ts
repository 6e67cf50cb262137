import { expect, test, type Page } from "@playwright/test";
import { addFromCatalogue, createLocalizedTemplateThroughApi, createTemplateThroughApi, signUp } from "./account";
import { url } from "./served-app";
import { open, useStoryPage } from "./story-page";

// A template page's Delete (a template the user wrote) and Remove from library (a catalogue template, free or bought),
// each after a confirmation that says what is lost; a removed catalogue template is added again from the catalogue, a
// bought one without buying it again.
test.describe.configure({ mode: "serial" });

let noteId = "";
const story = useStoryPage(async (page) => {
  await signUp(page);
  await addFromCatalogue(page, ["Welcome"]);
  noteId = await createTemplateThroughApi(page, "E2E note");
  const alias = await page.request.patch(url(`/api/v1/templates/${noteId}`), { data: { alias: "e2e-note" } });
  if (!alias.ok()) throw new Error(`PATCH /api/v1/templates/${noteId}: ${alias.status()}`);
});

/** The card of a catalogue template on the catalogue page. */
const catalogueCard = (page: Page, name: string) =>
  page.getByTestId("catalogue-card").filter({ has: page.getByRole("heading", { name, exact: true }) });

test("deletes a template the user wrote after a confirmation that says what is lost; Keep it changes nothing", async () => {
  const { page } = story;
  await open(page, "/dashboard/library", "Library");
  await page.getByText("2 of 10 slots used on the free plan.").waitFor();
  await open(page, `/dashboard/library/${noteId}`, "E2E note");

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Delete “E2E note”?" });
  await expect(dialog.getByRole("paragraph")).toHaveText(
    "This deletes the template with its published version and its alias “e2e-note”, and frees its slot in your library. API calls that name it will answer “not found”. Emails already sent with it stay in Emails. This cannot be undone.",
  );
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await dialog.waitFor({ state: "hidden" });
  await expect(page).toHaveURL(url(`/dashboard/library/${noteId}`));

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await dialog.getByRole("button", { name: "Delete template" }).click();
  await page.waitForURL(url("/dashboard/library?deleted=1"));
  await expect(page.getByRole("status").filter({ hasText: "is deleted" })).toHaveText(
    "The template is deleted. Emails already sent with it stay in Emails.",
  );
  await page.getByText("1 of 10 slots used on the free plan.").waitFor();
  await expect(page.getByTestId("library-card").allTextContents()).resolves.toEqual([
    expect.stringContaining("Welcome"),
  ]);

  await open(page, `/dashboard/library/${noteId}`, "Not found");
});

test("says why when the template was deleted meanwhile (in another tab, through the API), and stays on the page", async () => {
  const { page } = story;
  const id = await createTemplateThroughApi(page, "E2E letter");
  await open(page, `/dashboard/library/${id}`, "E2E letter");
  expect((await page.request.delete(url(`/api/v1/templates/${id}`))).status()).toBe(200);

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page
    .getByRole("dialog", { name: "Delete “E2E letter”?" })
    .getByRole("button", { name: "Delete template" })
    .click();
  await expect(page.getByRole("alert").filter({ hasText: "This template" })).toHaveText(
    "This template is not one of yours any more: it may have been deleted.",
  );
  await expect(page).toHaveURL(url(`/dashboard/library/${id}`));
});

test("removes a free catalogue template after a confirmation; the slot is freed and the catalogue adds it again", async () => {
  const { page } = story;
  await open(page, "/dashboard/library", "Library");
  await page.getByRole("link", { name: "Welcome", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Welcome" }).waitFor();

  await page.getByRole("button", { name: "Remove from library" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove “Welcome” from your library?" });
  await expect(dialog.getByRole("paragraph")).toHaveText(
    "This frees its slot in your library. It stays free in the catalogue: add it again from there any time. Emails already sent with it stay in Emails.",
  );
  await dialog.getByRole("button", { name: "Remove from library" }).click();
  await page.waitForURL(url("/dashboard/library?removed=1"));
  await expect(page.getByRole("status").filter({ hasText: "out of your library" })).toHaveText(
    "The template is out of your library. You can add it back from the catalogue any time.",
  );
  await page.getByText("0 of 10 slots used on the free plan.").waitFor();
  await page.getByRole("heading", { name: "Your library is empty" }).waitFor();

  await open(page, "/dashboard/catalogue", "Catalogue");
  const welcome = catalogueCard(page, "Welcome");
  await welcome.getByRole("button", { name: "Add to library" }).click();
  await welcome.getByRole("link", { name: "Open in library" }).waitFor();
  await page.getByText("1 / 10 templates").waitFor();
});

test("removes a bought template; the catalogue adds it back without buying it again, past the month's purchase limit", async () => {
  const { page } = story;
  const receipt = catalogueCard(page, "Order receipt");
  await receipt.getByRole("button", { name: "Buy for $19.00" }).click();
  await page
    .getByRole("dialog", { name: "Buy “Order receipt”?" })
    .getByRole("button", { name: "Buy for $19.00" })
    .click();
  await receipt.getByRole("link", { name: "Open in library" }).click();
  await page.getByRole("heading", { level: 1, name: "Order receipt" }).waitFor();

  await page.getByRole("button", { name: "Remove from library" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove “Order receipt” from your library?" });
  await expect(dialog.getByRole("paragraph")).toHaveText(
    "This frees its slot in your library; until you add it back, your API keys cannot render or send it. You keep your purchase: adding it back from the catalogue does not charge you again. Emails already sent with it stay in Emails.",
  );
  await dialog.getByRole("button", { name: "Remove from library" }).click();
  await page.waitForURL(url("/dashboard/library?removed=1"));
  await page.getByText("1 of 10 slots used on the free plan.").waitFor();

  // The free plan's one purchase this month is made: the other paid templates are locked, the bought one is not.
  await open(page, "/dashboard/catalogue", "Catalogue");
  await page.locator("#purchase-limit").waitFor();
  await expect(catalogueCard(page, "Order shipped").getByRole("button", { name: "Buy for $9.00" })).toBeDisabled();
  await receipt.getByText("Bought", { exact: true }).waitFor();
  await receipt.getByRole("button", { name: "Add back to library" }).click();
  await receipt
    .getByText("“Order receipt” is back in your library. You bought it before, so nothing was charged.")
    .waitFor();
  await page.reload();
  await page.getByText("2 / 10 templates").waitFor();
  await page.getByText("1 / 1 purchases").waitFor();
  await receipt.getByRole("link", { name: "Open in library" }).waitFor();
});

test("previews a localized template in the locale its picker chooses, with the default locale's message where one lacks it", async () => {
  const { page } = story;
  const id = await createLocalizedTemplateThroughApi(page, "E2E localized receipt");
  await open(page, `/dashboard/library/${id}`, "E2E localized receipt");
  const picker = page.getByLabel("Locale", { exact: true });
  await expect(picker.locator("option")).toHaveText(["en (default)", "fr"]);
  const preview = page.frameLocator("iframe.email-frame");
  await preview.getByText("2 items").filter({ visible: true }).waitFor();
  await picker.selectOption("fr");
  await preview.getByText("2 articles").filter({ visible: true }).waitFor();
  // fr has no title: en's.
  await expect(preview.getByText("Your receipt")).toBeVisible();
});
