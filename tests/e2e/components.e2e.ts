import { expect, test } from "@playwright/test";
import { createTemplateFilesThroughApi, signUp } from "./account";
import { open, useStoryPage } from "./story-page";

// Components: a shared component written in the editor's file tabs (its compile error marked where it is), a template
// importing it, a new version that publishes that template again (named in the answer, its version in the used-by
// list and on the template's page), and a delete refused while the template imports it, naming it.
test.describe.configure({ mode: "serial" });

const story = useStoryPage(signUp);

test("writes a component of two files, saves a version that republishes its template, and is refused its deletion", async () => {
  const { page } = story;
  await open(page, "/dashboard/components", "Components");
  await expect(page.getByText("No components yet")).toBeVisible();
  await page.getByRole("link", { name: "New component" }).click();
  await page.getByRole("heading", { level: 1, name: "New component" }).waitFor();
  await page.getByLabel("Name").fill("footer");
  const editor = page.getByLabel("Component source code");
  await editor.fill("export default function Footer() {\n  return <p>;\n}\n");
  await page.getByRole("button", { name: "Save component" }).click();
  await expect(page.getByTestId("save-problem")).toContainText(
    "Line 2, column 11: Syntax error: `<p>` opened on line 2 is never closed",
  );
  await expect(page.locator(".cm-problem-line")).toHaveText("  return <p>;");

  await page.getByRole("button", { name: "Add file" }).click();
  await page.getByLabel("Path of the new file").fill("legal.tsx");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await editor.fill("export const Legal = () => <small>Legal v1</small>;\n");
  await page.getByRole("tab", { name: /index\.tsx/ }).click();
  await editor.fill('import { Legal } from "./legal";\nexport default function Footer() {\n  return <Legal />;\n}\n');
  await page.getByRole("button", { name: "Save component" }).click();
  await page.getByRole("heading", { level: 1, name: "footer" }).waitFor();
  await expect(page.getByTestId("component-version")).toHaveText("Version 1");

  await createTemplateFilesThroughApi(page, "Uses footer", {
    "email.tsx": [
      'import { Html } from "@react-email/components";',
      'import Footer from "@components/footer";',
      "export default function Email() { return <Html><Footer /></Html>; }",
      "",
    ].join("\n"),
  });
  await page.reload();
  await expect(page.getByTestId("used-by")).toContainText(/Uses footer\s*Version 1 \(current\)/);
  await page.getByRole("tab", { name: /legal\.tsx/ }).click();
  await editor.fill("export const Legal = () => <small>Legal v2</small>;\n");
  await page.getByRole("button", { name: "Save new version" }).click();
  const saved = page.getByTestId("component-saved");
  await expect(saved).toContainText("Saved as version 2. The template that imports it is published again with it:");
  await expect(saved).toContainText("Uses footer, as its version 2");
  await expect(page.getByTestId("component-version")).toHaveText("Version 2");
  await expect(page.getByTestId("used-by")).toContainText(/Uses footer\s*Version 2 \(current\)/);

  await page.getByRole("button", { name: "Delete component" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete component" }).click();
  const refused = page.getByTestId("delete-refused");
  await expect(refused).toContainText("A template imports @components/footer: change it first.");
  await expect(refused).toContainText("Uses footer imports @components/footer");
  await refused.getByRole("link", { name: "Uses footer" }).click();
  await page.getByRole("heading", { level: 1, name: "Uses footer" }).waitFor();
  const components = page.getByTestId("template-components");
  await expect(components).toContainText("@components/footer version 2");
  // Its history says why Letterpress published its version 2.
  await expect(page.getByTestId("version-row").first()).toContainText(/Published .*, with component footer v2/);
  await components.getByRole("link", { name: "@components/footer" }).click();
  await page.getByRole("heading", { level: 1, name: "footer" }).waitFor();
});
