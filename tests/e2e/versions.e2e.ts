import { expect, test } from "@playwright/test";
import { signUp } from "./account";
import { open, useStoryPage } from "./story-page";

// A template's lifecycle: saved, opened again in the editor and saved as a draft (its own preview beside the
// published one), published as version 2 (the "Draft saved" notice then gone), the two versions diffed, version 1
// restored and published as version 3, version 2 restored and published at once after confirming, as version 4. The
// versions panel stands under the draft, above the workbench; the published version offers no Restore.
test.describe.configure({ mode: "serial" });

const story = useStoryPage(signUp);

const source = (line: string) =>
  [
    'import { Body, Html, Text } from "@react-email/components";',
    "",
    'export default function Note({ who = "world" }: { who?: string }) {',
    "  return (",
    "    <Html><Body>",
    `      <Text>${line}</Text>`,
    "      <Text>For {who}</Text>",
    "    </Body></Html>",
    "  );",
    "}",
    "",
    'Note.PreviewProps = { who: "E2E" };',
    "",
  ].join("\n");

let templatePath = "";

test("a saved template opens in the editor and saves as a draft, previewed beside the published version", async () => {
  const { page } = story;
  await open(page, "/dashboard/templates/new", "New template");
  const editor = page.getByLabel("Template source code");
  const preview = page.frameLocator("iframe.email-frame");
  await editor.fill(source("The first wording"));
  await preview.getByText("The first wording").filter({ visible: true }).waitFor();
  await page.getByLabel("Name").fill("E2E lifecycle");
  await page.getByRole("button", { name: "Save template" }).click();
  await page.waitForURL(/\/dashboard\/library\/[0-9a-f-]{36}\?created=1$/);
  templatePath = new URL(page.url()).pathname;
  await expect(page.getByTestId("published-version")).toHaveText(/^Version 1, published /);
  await expect(page.getByTestId("draft-status")).toHaveText(
    "No draft. Edit the template to start one, or restore a version below.",
  );

  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Edit E2E lifecycle" }).waitFor();
  await expect(page.getByTestId("edit-source")).toHaveText(
    "You are editing a copy of version 1, the published one. Saving keeps your changes as the draft; publish it from the template's page.",
  );
  await expect(page.getByLabel("Name")).toHaveValue("E2E lifecycle");
  await preview.getByText("The first wording").filter({ visible: true }).waitFor();
  await editor.fill(source("The second wording"));
  await preview.getByText("The second wording").filter({ visible: true }).waitFor();
  await page.getByRole("button", { name: "Save draft" }).click();

  await page.waitForURL((address) => address.pathname === templatePath && address.search === "?draft=saved");
  await page.getByText("Draft saved. Sends keep using the published version until you publish the draft.").waitFor();
  await expect(page.getByTestId("draft-status")).toHaveText(/^Draft: revision \d+, saved .+ UTC\. Edit the draft$/);
  // The draft's preview shows the draft; the workbench's, which sends use, still the published version.
  await page
    .getByTestId("draft-preview")
    .frameLocator("iframe.email-frame")
    .getByText("The second wording")
    .filter({ visible: true })
    .waitFor();
  await page
    .locator(".wb-preview")
    .frameLocator("iframe.email-frame")
    .getByText("The first wording")
    .filter({ visible: true })
    .waitFor();
});

test("publishes the draft as version 2 and shows the line changed between versions 1 and 2", async () => {
  const { page } = story;
  await page.getByRole("button", { name: "Publish draft" }).click();
  await page.getByText("Published the draft as version 2. Sends use it from now on.").waitFor();
  // The notice of the save is replaced, not left above it; a reload does not bring it back.
  await expect(page.getByText(/^Draft saved\./)).toHaveCount(0);
  await page.waitForURL((address) => address.pathname === templatePath && address.search === "");
  await expect(page.getByTestId("published-version")).toHaveText(/^Version 2, published /);
  await expect(page.getByTestId("draft-preview")).toHaveCount(0);
  await page
    .locator(".wb-preview")
    .frameLocator("iframe.email-frame")
    .getByText("The second wording")
    .filter({ visible: true })
    .waitFor();

  const versions = page.getByTestId("version-row");
  await expect(versions.locator("strong")).toHaveText(["Version 2", "Version 1"]);
  await expect(versions.first().locator(".badge")).toHaveText(["Published"]);
  // With no draft, the published version has nothing to restore; the older one both ways.
  await expect(versions.first().getByRole("button")).toHaveCount(0);
  await expect(versions.last().getByRole("button")).toHaveText([
    "Restore version 1 to draft",
    "Restore version 1 and publish",
  ]);
  // The panel is under the published version and draft, above the workbench and email client support.
  const top = async (selector: string) => (await page.locator(selector).first().boundingBox())!.y;
  expect(await top("#versions")).toBeGreaterThan(await top("[data-testid=template-lifecycle]"));
  expect(await top("#versions")).toBeLessThan(await top(".wb-preview"));
  await expect(page.getByLabel("Compare version")).toHaveValue("1");
  await expect(page.getByLabel("with version")).toHaveValue("2");
  await page.getByRole("button", { name: "Show changes" }).click();
  const diff = page.getByTestId("version-diff");
  await diff.getByRole("heading", { name: "Changes from version 1 to version 2" }).waitFor();
  const file = diff.getByTestId("diff-file");
  await expect(file.locator("code").first()).toHaveText("template.tsx");
  await expect(file.locator(".badge")).toHaveText("Changed");
  // Every changed line says what happened to it in words, not by colour alone.
  await expect(file.locator(".diff-removed, .diff-added")).toHaveText([
    "- Removed:       <Text>The first wording</Text>",
    "+ Added:       <Text>The second wording</Text>",
  ]);
  await expect(file.locator(".diff-folded")).toHaveText(["… 2 unchanged lines", "… 4 unchanged lines"]);
});

test("restores version 1 into the draft and publishes it as version 3", async () => {
  const { page } = story;
  await page.getByRole("button", { name: "Restore version 1 to draft" }).click();
  await page.getByText("Restored version 1 into the draft. Publish it to send it.").waitFor();
  // With a draft, restoring the published version into it is how to discard the draft; publishing it again is not offered.
  await expect(page.getByTestId("version-row").first().getByRole("button")).toHaveText(["Restore version 2 to draft"]);
  await page
    .getByTestId("draft-preview")
    .frameLocator("iframe.email-frame")
    .getByText("The first wording")
    .filter({ visible: true })
    .waitFor();
  await page.getByRole("button", { name: "Publish draft" }).click();
  await page.getByText("Published the draft as version 3. Sends use it from now on.").waitFor();
  await expect(page.getByTestId("version-row").locator("strong")).toHaveText(["Version 3", "Version 2", "Version 1"]);
  await page
    .locator(".wb-preview")
    .frameLocator("iframe.email-frame")
    .getByText("The first wording")
    .filter({ visible: true })
    .waitFor();
});

test("restores version 2 and publishes it only once confirmed, as version 4", async () => {
  const { page } = story;
  await page.getByRole("button", { name: "Restore version 2 and publish" }).click();
  const dialog = page.getByRole("dialog", { name: "Publish version 2 again?" });
  await expect(dialog.locator("p")).toHaveText(
    "Sends use version 2's content from the moment you confirm, published as version 4; version 3 stays listed here to restore.",
  );
  // Canceling changes nothing.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("published-version")).toHaveText(/^Version 3, published /);
  await expect(page.getByTestId("version-row")).toHaveCount(3);

  await page.getByRole("button", { name: "Restore version 2 and publish" }).click();
  await dialog.getByRole("button", { name: "Publish version 2" }).click();
  await page.getByText("Restored version 2 and published it as version 4.").waitFor();
  await expect(page.getByTestId("published-version")).toHaveText(/^Version 4, published /);
  await expect(page.getByTestId("version-row").locator("strong")).toHaveText([
    "Version 4",
    "Version 3",
    "Version 2",
    "Version 1",
  ]);
  await page
    .locator(".wb-preview")
    .frameLocator("iframe.email-frame")
    .getByText("The second wording")
    .filter({ visible: true })
    .waitFor();
});
