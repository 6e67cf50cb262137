import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { applyVariablesToSource } from "@/lib/render/react-email/react-source";
import { readZip } from "../support/zip";
import { signUp } from "./account";
import { baseUrl, url } from "./served-app";
import { open, useStoryPage } from "./story-page";

// New template: TSX written in the editor with a live sandboxed preview, compile errors marked where they are, a
// template of two files in tabs; saved, its page shows the source and downloads it as a zip.
test.describe.configure({ mode: "serial" });

const story = useStoryPage(signUp);

test("writes a new TSX template with a live sandboxed preview, shows compile errors, and saves it", async () => {
  const { page } = story;
  await open(page, "/dashboard/templates/new", "New template");
  const preview = page.frameLocator("iframe.email-frame");
  await preview.getByText("Hello, Ada").filter({ visible: true }).waitFor();

  // The starter's variables, derived from the code.
  const derived = page.getByTestId("derived-variables").getByRole("listitem");
  await derived.filter({ hasText: "actionUrl" }).waitFor();

  // A compile error: its line and character marked in the editor, its message said once with its position. A tag left
  // unclosed is named, with the line it was opened on.
  const editor = page.getByLabel("Template source code");
  await editor.fill(
    [
      'import { Html, Text } from "@react-email/components";',
      "",
      "export default function Broken() {",
      "  return (",
      "    <Html>",
      "      <Text>Hello",
      "    </Html>",
      "  );",
      "}",
      "",
    ].join("\n"),
  );
  const problem = page.getByTestId("editor-problem");
  await problem.filter({ hasText: /Line 6/ }).waitFor();
  await expect(problem.locator("p").textContent()).resolves.toBe(
    "Line 6, column 8: Syntax error: `<Text>` opened on line 6 is never closed",
  );
  await expect(page.locator(".cm-problem-line").textContent()).resolves.toBe("      <Text>Hello");
  await expect(page.locator(".cm-problem-at").textContent()).resolves.toBe("T");
  await expect(editor.getAttribute("aria-invalid")).resolves.toBe("true");
  await problem.getByRole("button", { name: "Go to line 6" }).click();
  await expect(editor.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
  await expect(page.locator(".cm-activeLine").textContent()).resolves.toBe("      <Text>Hello");

  // The preview still shows the starter's render: dimmed, and saying why.
  const previewPane = page.getByRole("region", { name: "Preview", exact: true });
  const frame = page.locator("iframe.email-frame");
  await expect(previewPane.getByRole("status")).toHaveText("Not updated: the code has an error on line 6");
  await expect(previewPane.getByRole("status")).toBeVisible();
  await expect(frame).toHaveCSS("opacity", "0.4");
  await preview.getByText("Hello, Ada").filter({ visible: true }).waitFor();

  // A required variable left out of PreviewProps: the render fails, and the message names the variable.
  const note = (previewProps: string) =>
    [
      'import { Body, Html, Text } from "@react-email/components";',
      "",
      "export default function Note({ who, count }: { who: string; count: number }) {",
      "  return (<Html><Body><Text>Items for {who}: {count.toFixed(0)}</Text></Body></Html>);",
      "}",
      "",
      `Note.PreviewProps = ${previewProps};`,
      "",
    ].join("\n");
  await editor.fill(note('{ who: "E2E", count: 2 }'));
  await preview.getByText("Items for E2E: 2").filter({ visible: true }).waitFor();
  await expect(previewPane.getByRole("status")).toHaveText("");
  await expect(frame).toHaveCSS("opacity", "1");
  await editor.fill(note('{ who: "E2E" }'));
  const lacking =
    "PreviewProps lacks the required variable count: the example render failed with: Template threw: TypeError: cannot read property 'toFixed' of undefined";
  await expect(problem.locator("p")).toHaveText(lacking);
  await expect(previewPane.getByRole("status")).toHaveText(`Not updated: ${lacking}`);
  await expect(frame).toHaveCSS("opacity", "0.4");
  await preview.getByText("Items for E2E: 2").filter({ visible: true }).waitFor();

  // Fixed: the preview is current again, and no longer marked.
  await editor.fill(
    [
      'import { Body, Html, Text } from "@react-email/components";',
      "",
      'export default function Note({ who = "world", count = 1 }: { who?: string; count?: number }) {',
      "  return (<Html><Body><Text>Note for {who}: {count} items</Text></Body></Html>);",
      "}",
      "",
      'Note.PreviewProps = { who: "E2E", count: 2 };',
      "",
    ].join("\n"),
  );
  await preview.getByText("Note for E2E: 2 items").filter({ visible: true }).waitFor();
  await expect(page.getByTestId("editor-problem").count()).resolves.toBe(0);
  await expect(page.locator(".cm-problem-line").count()).resolves.toBe(0);
  await expect(previewPane.getByRole("status")).toHaveText("");
  await expect(frame).toHaveCSS("opacity", "1");
  await derived.filter({ hasText: "count" }).getByText("number", { exact: true }).waitFor();
  await expect(derived.count()).resolves.toBe(2);

  await page.getByLabel("Name").fill("E2E note");
  await page.getByRole("button", { name: "Save template" }).click();
  await page.waitForURL(/\/dashboard\/library\/[0-9a-f-]{36}\?created=1$/);
  await page.getByRole("heading", { level: 1, name: "E2E note" }).waitFor();
  await page.getByText("Created by you").first().waitFor();
  await preview.getByText("Note for E2E: 2 items").filter({ visible: true }).waitFor();
  await page.getByLabel(/who/).fill("Grace");
  await preview.getByText("Note for Grace: 2 items").filter({ visible: true }).waitFor();

  // A number field is a number input: what the browser cannot read as a number is said in words on the field.
  const count = page.getByLabel(/count/);
  await expect(count).toHaveAttribute("type", "number");
  await count.press("End");
  await count.pressSequentially("e");
  await expect(page.locator("#var-count-error")).toHaveText("Enter a number, such as 3 or 2.5");
  await expect(count).toHaveAttribute("aria-invalid", "true");
  await count.fill("3");
  await preview.getByText("Note for Grace: 3 items").filter({ visible: true }).waitFor();
  await expect(page.locator("#var-count-error").count()).resolves.toBe(0);
});

test("names the line tsc names for the starter's first </Text> deleted, says a failed save by its button, and completes no closing tag", async () => {
  const { page } = story;
  await open(page, "/dashboard/templates/new", "New template");
  const preview = page.frameLocator("iframe.email-frame");
  await preview.getByText("Hello, Ada").filter({ visible: true }).waitFor();
  const editor = page.getByLabel("Template source code");
  const activeLine = page.locator(".cm-activeLine");
  const textOpener = '          <Text style={{ fontSize: "16px", lineHeight: "26px", color: "#3f3f46" }}>';

  // The starter's first </Text>, on line 18, deleted as a user would: its line selected and cleared.
  // Clicked, not reached by arrow keys: the editor wraps long lines, and ArrowDown moves by the line on screen.
  await editor.click();
  await page
    .locator(".cm-line")
    .filter({ hasText: /^\s*<\/Text>$/ })
    .first()
    .click();
  await expect(activeLine).toHaveText("          </Text>");
  await page.keyboard.press("End");
  await page.keyboard.press("Shift+Home");
  await page.keyboard.press("Backspace");
  await expect(activeLine).toHaveText(/^\s*$/);

  // The error names the <Text> on line 16 (as tsc does), not the <Preview> on line 12 where the compiler stopped.
  const message = "Syntax error: `<Text>` opened on line 16 is never closed";
  const problem = page.getByTestId("editor-problem");
  await expect(problem.locator("p")).toHaveText(`Line 16, column 12: ${message}`);
  await expect(page.locator(".cm-problem-line")).toHaveText(textOpener);
  await expect(page.locator(".cm-problem-at")).toHaveText("T");
  await problem.getByRole("button", { name: "Go to line 16" }).click();
  await expect(activeLine).toHaveText(textOpener);

  // Saving it: refused, said beside the Save button, with the way to the line.
  await page.getByLabel("Name").fill("E2E unclosed");
  await page.getByRole("button", { name: "Save template" }).click();
  const saveProblem = page.getByTestId("save-problem");
  await expect(saveProblem.locator("p")).toHaveText(`Not saved. Line 16, column 12: ${message}`);
  await expect(page).toHaveURL(/\/dashboard\/templates\/new$/);
  await page.keyboard.press("Control+End"); // away from line 16
  await saveProblem.getByRole("button", { name: "Go to line 16" }).click();
  await expect(activeLine).toHaveText(textOpener);

  // Typing the closer back: exactly what was typed, no closing tag completed on `</` (nor on `>` of an opener).
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("</Text>");
  await expect(activeLine).toHaveText(/^\s*<\/Text>$/);
  await page.keyboard.press("Enter");
  await page.keyboard.type("<Text>Typed</Text>");
  await expect(activeLine).toHaveText(/^\s*<Text>Typed<\/Text>$/);
  await preview.getByText("Typed", { exact: true }).filter({ visible: true }).waitFor();
  await expect(problem).toHaveCount(0);
  await expect(saveProblem).toHaveCount(0);
});

// The two files of "E2E two files", written in the editor by the first test below and shown by the second.
const letterEntry = [
  'import { Body, Html, Text } from "@react-email/components";',
  'import { Footer } from "./components/footer";',
  "",
  'export default function Letter({ who = "world" }: { who?: string }) {',
  "  return (<Html><Body><Text>Letter for {who}</Text><Footer /></Body></Html>);",
  "}",
  "",
  'Letter.PreviewProps = { who: "E2E" };',
  "",
].join("\n");
const letterFooter = [
  'import { Text } from "@react-email/components";',
  "",
  "export function Footer() {",
  "  return <Text>Sent by the E2E footer</Text>;",
  "}",
  "",
].join("\n");

test("writes a template of two files in tabs, names a compile error's file and brings its tab forward, saves and downloads them as a zip", async () => {
  const { page } = story;
  await open(page, "/dashboard/templates/new", "New template");
  const preview = page.frameLocator("iframe.email-frame");
  await preview.getByText("Hello, Ada").filter({ visible: true }).waitFor();
  const tabs = page.getByRole("tablist", { name: "Files of the template" }).getByRole("tab");
  await expect(tabs.allTextContents()).resolves.toEqual(["template.tsx"]);
  const editor = page.getByLabel("Template source code");
  const entryTab = page.getByRole("tab", { name: /^template\.tsx/ });
  const footerTab = page.getByRole("tab", { name: "components/footer.tsx" });

  // A path outside the API's rules is refused with its reason before any file is added.
  await page.getByRole("button", { name: "Add file" }).click();
  await page.getByLabel("Path of the new file").fill("../footer.tsx");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.locator("#file-path-help").textContent()).resolves.toBe(
    "The path must not contain .. (a template's files stay inside it).",
  );
  await page.getByLabel("Path of the new file").fill("components/footer.tsx");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(tabs.allTextContents()).resolves.toEqual(["template.tsx (entry)", "components/footer.tsx"]);
  await expect(footerTab.getAttribute("aria-selected")).resolves.toBe("true");

  await editor.fill(letterFooter);
  await entryTab.click();
  await editor.fill(letterEntry);
  await preview.getByText("Letter for E2E").filter({ visible: true }).waitFor();
  await preview.getByText("Sent by the E2E footer").filter({ visible: true }).waitFor();

  // A compile error in the footer, saved from the entry's tab: the footer's tab comes forward, its line marked.
  await footerTab.click();
  await editor.fill("export function Footer() {\n  return <p>;\n}\n");
  await page.getByTestId("editor-problem").waitFor();
  await entryTab.click();
  await page.getByLabel("Name").fill("E2E two files");
  await page.getByRole("button", { name: "Save template" }).click();
  // The save's answer brings the footer's tab forward.
  await expect(footerTab).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("editor-problem").locator("p").textContent()).resolves.toBe(
    "components/footer.tsx: Line 2, column 11: Syntax error: `<p>` opened on line 2 is never closed",
  );
  await expect(page.locator(".cm-problem-line").textContent()).resolves.toBe("  return <p>;");
  // The preview keeps the last good render while the footer does not compile, marked as such.
  const staleNote = page.getByRole("region", { name: "Preview", exact: true }).getByRole("status");
  await expect(staleNote).toHaveText("Not updated: the code has an error on line 2 of components/footer.tsx");
  await preview.getByText("Sent by the E2E footer").filter({ visible: true }).waitFor();

  await editor.fill(letterFooter);
  await expect(page.getByTestId("editor-problem")).toHaveCount(0);
  await expect(staleNote).toHaveText("");
  await preview.getByText("Sent by the E2E footer").filter({ visible: true }).waitFor();
  await page.getByRole("button", { name: "Save template" }).click();
  await page.waitForURL(/\/dashboard\/library\/[0-9a-f-]{36}\?created=1$/);
  await page.getByRole("heading", { level: 1, name: "E2E two files" }).waitFor();
  await preview.getByText("Sent by the E2E footer").filter({ visible: true }).waitFor();

  // Download: a zip of both files, the entry first, byte for byte as written.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download .zip" }).click();
  const zip = await download;
  expect(zip.suggestedFilename()).toBe("e2e-two-files.zip");
  const files = readZip(readFileSync((await zip.path())!)).map(({ path, data }) => [path, data.toString("utf8")]);
  expect(files).toEqual([
    ["template.tsx", letterEntry],
    ["components/footer.tsx", letterFooter],
  ]);
  const id = await page.getByTestId("template-id").textContent();
  const answer = await page.request.get(url(`/api/dashboard/templates/${id}/download`));
  expect([answer.status(), answer.headers()["content-type"], answer.headers()["content-disposition"]]).toEqual([
    200,
    "application/zip",
    'attachment; filename="e2e-two-files.zip"',
  ]);
});

test("shows the two files' source in tabs on the template's page, copies the file shown, and downloads them with the current variables as a zip", async () => {
  const { context, page } = story;
  // The page the previous test saved the template from.
  await page.getByRole("heading", { level: 1, name: "E2E two files" }).waitFor();
  const id = await page.getByTestId("template-id").textContent();
  const source = page.getByRole("region", { name: "Source" });
  const tabs = source.getByRole("tablist", { name: "Files of the template" }).getByRole("tab");
  const entryTab = source.getByRole("tab", { name: /^template\.tsx/ });
  const footerTab = source.getByRole("tab", { name: "components/footer.tsx" });
  const shown = source.getByRole("tabpanel").locator("pre.source-view");
  await expect(tabs.allTextContents()).resolves.toEqual(["template.tsx (entry)", "components/footer.tsx"]);
  await expect(entryTab).toHaveAttribute("aria-selected", "true");
  await expect(shown.getAttribute("aria-label")).resolves.toBe("Source of template.tsx");
  await expect(shown.textContent()).resolves.toBe(letterEntry);

  await footerTab.click();
  await expect(footerTab).toHaveAttribute("aria-selected", "true");
  await expect(entryTab).toHaveAttribute("aria-selected", "false");
  await expect(shown.getAttribute("aria-label")).resolves.toBe("Source of components/footer.tsx");
  await expect(shown.textContent()).resolves.toBe(letterFooter);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
  await source.getByRole("button", { name: "Copy" }).click();
  await source.getByRole("button", { name: "Copied" }).waitFor();
  await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(letterFooter);
  await context.clearPermissions();

  await entryTab.click();
  await expect(entryTab).toHaveAttribute("aria-selected", "true");
  await expect(shown.textContent()).resolves.toBe(letterEntry);
  // The entry alone would break on its relative import: the zip is the way to download the source.
  await expect(source.getByRole("button", { name: /^Download (?!with current variables$)/ })).toHaveCount(0);
  await source.getByRole("link", { name: "Download .zip" }).waitFor();

  // "With current variables": a zip of both files, the entry with the variables applied as POST /render answers it.
  await page.getByLabel(/who/).fill("Zed");
  await page.frameLocator("iframe.email-frame").getByText("Letter for Zed").filter({ visible: true }).waitFor();
  const download = page.waitForEvent("download");
  await source.getByRole("button", { name: "With current variables" }).click();
  const zip = await download;
  expect(zip.suggestedFilename()).toBe("e2e-two-files.with-variables.zip");
  const files = readZip(readFileSync((await zip.path())!)).map(({ path, data }) => [path, data.toString("utf8")]);
  const answer = await page.evaluate(async (id) => {
    const response = await fetch(`/api/v1/templates/${id}/render`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ variables: { who: "Zed" }, format: "react" }),
    });
    return { status: response.status, body: await response.json() };
  }, id);
  const applied = applyVariablesToSource(letterEntry, { who: "Zed" });
  expect(answer).toEqual({
    status: 200,
    body: {
      success: true,
      react: applied,
      files: { "template.tsx": applied, "components/footer.tsx": letterFooter },
      entry: "template.tsx",
    },
  });
  expect(files).toEqual([
    ["template.tsx", answer.body.react],
    ["components/footer.tsx", letterFooter],
  ]);
});

test("shows which email clients do not show the preview as written, and the saved template's on its page", async () => {
  const { page } = story;
  await open(page, "/dashboard/templates/new", "New template");
  await page
    .getByLabel("Template source code")
    .fill(
      [
        'import { Html, Text } from "@react-email/components";',
        "",
        "export default function Cards() {",
        '  return (<Html><div style={{ display: "flex" }}><Text>Cards for E2E</Text></div></Html>);',
        "}",
        "",
      ].join("\n"),
    );
  await page.frameLocator("iframe.email-frame").getByText("Cards for E2E").filter({ visible: true }).waitFor();

  // Per client, what it does not show as written; each finding with the element it is on and its caniemail page.
  const expectFlexboxNamed = async () => {
    const outlook = page
      .getByRole("region", { name: "Email client support" })
      .getByTestId("compatibility-client")
      .filter({ hasText: "Outlook (Windows)" });
    await expect(outlook.locator("summary")).toHaveText(
      "Outlook (Windows) 1 not supported, 5 partly supported, 1 supported",
    );
    await outlook.locator("summary").click();
    const flexbox = outlook
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: "display:flex", exact: true }) });
    await expect(flexbox).toHaveText('display:flex on <div style="display:flex">');
    await expect(flexbox.getByRole("link", { name: "display:flex" })).toHaveAttribute(
      "href",
      "https://www.caniemail.com/features/css-display-flex/",
    );
  };
  await expectFlexboxNamed();

  await page.getByLabel("Name").fill("E2E cards");
  await page.getByRole("button", { name: "Save template" }).click();
  await page.waitForURL(/\/dashboard\/library\/[0-9a-f-]{36}\?created=1$/);
  await page.getByRole("heading", { level: 1, name: "E2E cards" }).waitFor();
  await expectFlexboxNamed();
});
