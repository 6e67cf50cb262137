import { expect, test, type Page } from "@playwright/test";
import { createTemplateThroughApi, signUp } from "./account";
import { settled } from "./browser";
import { open, useStoryPage } from "./story-page";

// The catalogue and the library: add a free template and buy a paid one within the free plan's limits, list them,
// preview one with edited variables (the form generated from its variables schema), fill the library to its limit.
test.describe.configure({ mode: "serial" });

const story = useStoryPage(signUp);

/** What each locked button of the catalogue points at to say why it is locked (aria-describedby), card by card. */
async function lockedButtonsDescribedBy(page: Page): Promise<(string | null)[]> {
  return page
    .getByTestId("catalogue-card")
    .locator("button[disabled]")
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute("aria-describedby")));
}

test("adds a free catalogue template and buys a paid one in test mode, within the plan's limits", async () => {
  const { page } = story;
  await open(page, "/dashboard/catalogue", "Catalogue");
  const welcome = page
    .getByTestId("catalogue-card")
    .filter({ has: page.getByRole("heading", { name: "Welcome", exact: true }) });
  // The preview dialog says what variables the template takes.
  await welcome.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByRole("dialog", { name: "Welcome", exact: true });
  const variables = preview.getByRole("list", { name: "Variables of Welcome" }).getByRole("listitem");
  await expect(variables.count()).resolves.toBe(7);
  const dashboardUrl = variables.filter({ hasText: "dashboardUrl" });
  await dashboardUrl.getByText("URL", { exact: true }).waitFor();
  await dashboardUrl.getByText("optional", { exact: true }).waitFor();
  await preview.getByRole("button", { name: "Close" }).click();
  const receiptPreview = page.getByRole("dialog", { name: "Order receipt", exact: true });
  await page
    .getByTestId("catalogue-card")
    .filter({ has: page.getByRole("heading", { name: "Order receipt" }) })
    .getByRole("button", { name: "Preview" })
    .click();
  await receiptPreview
    .getByRole("listitem")
    .filter({ hasText: "orderId" })
    .getByText("required", { exact: true })
    .waitFor();
  await receiptPreview.getByRole("button", { name: "Close" }).click();

  await welcome.getByRole("button", { name: "Add to library" }).click();
  await welcome.getByRole("link", { name: "Open in library" }).waitFor();

  const receipt = page
    .getByTestId("catalogue-card")
    .filter({ has: page.getByRole("heading", { name: "Order receipt" }) });
  await receipt.getByRole("button", { name: "Buy for $19.00" }).click();
  const dialog = page.getByRole("dialog", { name: "Buy “Order receipt”?" });
  await dialog.getByText("Test mode: no card is charged").waitFor();
  await dialog.getByRole("button", { name: "Buy for $19.00" }).click();
  await receipt.getByRole("link", { name: "Open in library" }).waitFor();

  // The free plan allows one paid purchase a month: after a reload the page says so once, and the other paid
  // templates' buttons are locked and described by that sentence.
  await page.reload();
  const shipped = page
    .getByTestId("catalogue-card")
    .filter({ has: page.getByRole("heading", { name: "Order shipped" }) });
  await expect(shipped.getByRole("button", { name: "Buy for $9.00" }).isDisabled()).resolves.toBe(true);
  await expect(page.getByText("the Free plan's limit").count()).resolves.toBe(1);
  await expect(page.locator("#purchase-limit").textContent()).resolves.toBe(
    "You've made 1 premium purchase this month, the Free plan's limit. The count resets on the first day of next month (UTC), or upgrade for unlimited purchases.",
  );
  // The five paid templates not bought.
  await expect(lockedButtonsDescribedBy(page)).resolves.toEqual(Array(5).fill("purchase-limit"));
  await page.getByText("2 / 10 templates").waitFor();
});

test("lists both in the library with category, author, how added and last modified", async () => {
  const { page } = story;
  await open(page, "/dashboard/library", "Library");
  const cards = page.getByTestId("library-card");
  await expect(cards.count()).resolves.toBe(2);
  const receipt = cards.filter({ hasText: "Order receipt" });
  for (const text of ["Commerce", "Purchased", "By Letterpress", "Modified"])
    await receipt.getByText(text).first().waitFor();
  await cards.filter({ hasText: "Welcome" }).getByText("Added free").waitFor();
  await expect(receipt.locator("iframe").getAttribute("sandbox")).resolves.toBe("");
});

test("previews a template in a sandboxed iframe and re-renders it with edited variables", async () => {
  const { page } = story;
  await page.getByRole("link", { name: "Welcome", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Welcome" }).waitFor();
  const frame = page.locator("iframe.email-frame");
  await expect(frame.getAttribute("sandbox")).resolves.toBe("");
  await page
    .frameLocator("iframe.email-frame")
    .getByText("Ada", { exact: false })
    .filter({ visible: true })
    .first()
    .waitFor();

  await page.getByLabel(/userName/).fill("Grace Hopper");
  await page.waitForFunction(() =>
    document.querySelector("iframe.email-frame")?.getAttribute("srcdoc")?.includes("Grace Hopper"),
  );
  await page
    .frameLocator("iframe.email-frame")
    .getByText("Grace Hopper", { exact: false })
    .filter({ visible: true })
    .first()
    .waitFor();
  await page.getByTestId("preview-status").filter({ hasText: "Up to date" }).waitFor();

  // A bad value is refused by the API and shown on its field.
  await page.getByLabel(/dashboardUrl/).fill("not a url");
  await page.locator("#var-dashboardUrl-error").waitFor();
  await page.getByLabel(/dashboardUrl/).fill("https://example.com/start");
  await page.getByTestId("preview-status").filter({ hasText: "Up to date" }).waitFor();

  // The source: the component and its messages per locale, a tab each, downloaded together as a zip.
  await page.getByRole("tab", { name: "messages/fr.json" }).waitFor();
  await expect(page.getByRole("button", { name: /Download welcome\.tsx/ })).toHaveCount(0);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download .zip" }).click();
  expect((await download).suggestedFilename()).toBe("welcome.zip");
  // The button that renders the source with the form's variables says it downloads.
  const withVariables = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download with current variables", exact: true }).click();
  expect((await withVariables).suggestedFilename()).toBe("welcome.with-variables.tsx");
});

test("edits a list of objects in the form generated from the variables schema, with the API's errors inline", async () => {
  const { page } = story;
  await open(page, "/dashboard/library", "Library");
  await page.getByRole("link", { name: "Order receipt", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Order receipt" }).waitFor();
  const srcdocIncludes = (text: string) =>
    page.waitForFunction(
      (expected) => document.querySelector("iframe.email-frame")?.getAttribute("srcdoc")?.includes(expected),
      text,
    );

  // Each item of `items` is a group of its own fields.
  await expect(page.locator("#var-items-0-name").inputValue()).resolves.toBe("Letterpress notebook (A5, dotted)");
  await page.locator("#var-items-1-name").fill("Fountain pen");
  await srcdocIncludes("Fountain pen");

  // A number is a number input; what is not a number is said in words beside it, and while it is wrong the preview
  // goes on following the other fields (the quantity keeping its last good value).
  const quantity = page.locator("#var-items-0-quantity");
  await expect(quantity).toHaveAttribute("type", "number");
  await quantity.press("End");
  await quantity.pressSequentially("e");
  await expect(page.locator("#var-items-0-quantity-error")).toHaveText("Enter a number, such as 3 or 2.5");
  await expect(quantity).toHaveAttribute("aria-invalid", "true");
  await page.locator("#var-items-1-name").fill("Fountain pen, engraved");
  await srcdocIncludes("Fountain pen, engraved");
  await page.getByTestId("preview-status").filter({ hasText: "Up to date" }).waitFor();
  await expect(page.getByText(/Invalid input/)).toHaveCount(0);
  await quantity.fill("3");
  await srcdocIncludes("Qty 3");
  await expect(page.locator("#var-items-0-quantity-error")).toHaveCount(0);

  // A new item starts with its required name empty and its numbers missing: the API's answer is shown on each.
  await page.getByRole("button", { name: "Add an item to items" }).click();
  await page.locator("#var-items-3-name").fill("Ink cartridge");
  await expect(page.locator("#var-items-3-quantity-error").textContent()).resolves.toBe("is required");
  await expect(page.locator("#var-items-3-unitPrice-error").textContent()).resolves.toBe("is required");
  await expect(page.locator("#var-items-3-quantity").getAttribute("aria-invalid")).resolves.toBe("true");
  await page.locator("#var-items-3-quantity").fill("2");
  await page.locator("#var-items-3-unitPrice").fill("7.5");
  await srcdocIncludes("Ink cartridge");
  await page.getByTestId("preview-status").filter({ hasText: "Up to date" }).waitFor();
  await expect(page.locator("#var-items-3-quantity-error").count()).resolves.toBe(0);
  await page.getByRole("button", { name: "Remove items 4" }).click();
  await expect(page.locator("#var-items-3-name").count()).resolves.toBe(0);

  // A cleared required field is left out, and the API says it is required.
  await page.locator("#var-orderId").fill("");
  await expect(page.locator("#var-orderId-error").textContent()).resolves.toBe("is required");
  await page.locator("#var-orderId").fill("B-20");
  await srcdocIncludes("B-20");
  await expect(page.locator("#var-orderId-error").count()).resolves.toBe(0);

  // A variable the template does not declare still renders, and the API's warning is shown with its suggestion.
  await page.locator("#other-variables").fill('{"orderID": "C-30"}');
  const warnings = page.getByTestId("render-warnings");
  await warnings.waitFor();
  await expect(warnings.locator("li").allTextContents()).resolves.toEqual([
    "variables.orderID: not a variable of this template; did you mean orderId?",
  ]);
  await page.locator("#other-variables").fill("{}");
  await warnings.waitFor({ state: "detached" });
});

test("shows a placeholder in each catalogue card until its thumbnail has loaded, and asks for each thumbnail once", async () => {
  const { page } = story;
  const asked: string[] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  // Routing also turns the browser's cache off: every thumbnail shown is asked for here.
  const thumbnails = "**/api/dashboard/templates/*/thumbnail";
  await page.route(thumbnails, async (route) => {
    asked.push(new URL(route.request().url()).pathname);
    await held;
    await route.continue();
  });
  await open(page, "/dashboard/catalogue", "Catalogue");
  const first = page.getByTestId("catalogue-card").first();
  await expect(first.getByTestId("thumb-placeholder")).toBeVisible();
  await expect(first.locator(".thumb iframe")).toHaveCSS("opacity", "0");
  release();
  await expect(first.getByTestId("thumb-placeholder")).toHaveCount(0);
  await expect(first.locator(".thumb iframe")).toHaveCSS("opacity", "1");
  await settled(page);
  await page.unroute(thumbnails);
  expect(asked.length).toBeGreaterThan(0);
  // Not again by the card's Preview dialog, closed.
  expect(asked.filter((path, index) => asked.indexOf(path) !== index)).toEqual([]);
  // Opened, the dialog shows the template.
  await first.getByRole("button", { name: "Preview" }).click();
  await page.getByRole("dialog").locator("iframe.email-frame").waitFor();
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
});

test("says once on the catalogue that the free library is full, and every locked card points at that sentence", async () => {
  const { page } = story;
  // The library has Welcome and Order receipt: two templates written through the API, the four other free ones and
  // two written in the editor make the free plan's ten.
  for (const name of ["E2E note", "E2E letter"]) await createTemplateThroughApi(page, name);
  await open(page, "/dashboard/catalogue", "Catalogue");
  const addable = page
    .getByTestId("catalogue-card")
    .filter({ has: page.getByRole("button", { name: "Add to library" }) });
  await expect(addable.count()).resolves.toBe(4);
  for (let added = 0; added < 4; added++) {
    const card = addable.first();
    const name = await card.getAttribute("data-name");
    await card.getByRole("button", { name: "Add to library" }).click();
    await page
      .getByTestId("catalogue-card")
      .filter({ has: page.getByRole("heading", { name: name!, exact: true }) })
      .getByRole("link", { name: "Open in library" })
      .waitFor();
  }
  for (const name of ["E2E filler 1", "E2E filler 2"]) {
    await open(page, "/dashboard/templates/new", "New template");
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Save template" }).click();
    await page.waitForURL(/\/dashboard\/library\/[0-9a-f-]{36}\?created=1$/);
  }

  await open(page, "/dashboard/catalogue", "Catalogue");
  await page.getByText("10 / 10 templates").waitFor();
  await expect(page.getByText("Your library is full").count()).resolves.toBe(1);
  await expect(page.locator("#library-full").textContent()).resolves.toBe(
    "Your library is full (10 templates on the Free plan). Every template you add, create or buy takes a slot. Upgrade to a paid plan for an unlimited library.",
  );
  // The five paid templates not bought.
  await expect(lockedButtonsDescribedBy(page)).resolves.toEqual(Array(5).fill("library-full"));
});
