import { isValidElement, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  createComponentAction,
  deleteComponentAction,
  updateComponentAction,
  type ComponentEditorState,
  type DeleteComponentState,
} from "@/app/dashboard/components/actions";
import ComponentsPage from "@/app/dashboard/components/page";
import ComponentPage from "@/app/dashboard/components/[name]/page";
import TemplatePage from "@/app/dashboard/library/[id]/page";
import { getComponent } from "@/lib/components/service";
import { getDb } from "@/lib/db/client";
import { createTemplateFromSource, deleteTemplateOrThrow } from "@/lib/templates/user-templates";
import { createUser, type TestUser } from "../support/api";
import { footer, RECEIPT } from "../support/components";
import { newBrowser, submit, useBrowser } from "../support/next-headers";
import { signedIn } from "../support/signed-in";

// The Components pages' Server Actions: a component added from the editor's files, saved as its next version (every
// template importing it published again, or nothing when one breaks, each broken one named), deleted unless a
// template imports it; and the pages that show them, the template's page its components.
vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));

let user: TestUser;

/** The editor's form: its files as JSON, the entry first. */
const editorForm = (files: Record<string, string>, fields: Record<string, string> = {}) => ({
  name: "footer",
  description: "",
  files: JSON.stringify(files),
  entry: Object.keys(files)[0],
  ...fields,
});

const save = (files: Record<string, string>, fields: Record<string, string> = {}) =>
  submit<ComponentEditorState>(updateComponentAction, editorForm(files, fields));

const remove = (name: string) => submit<DeleteComponentState>((_state, form) => deleteComponentAction(form), { name });

const publishedVersion = async (id: string) =>
  (await getDb()<{ published_version: number }[]>`select published_version from templates where id = ${id}`)[0]
    .published_version;

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replaceAll("&quot;", '"')
    .trim();

/** Every element in a page's tree (server components' output: their children are elements already). */
function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<{ children?: ReactNode }>(node)) return [];
  return [node as ReactElement<Record<string, unknown>>, ...elements(node.props.children)];
}

beforeAll(async () => {
  useBrowser(newBrowser("203.0.113.161"));
  user = await createUser("monthly");
  signedIn.accountId = user.accountId;
});

describe("the Components pages' actions", () => {
  it("add a component from the editor's files and go to its page", async () => {
    expect(
      await submit<ComponentEditorState>(
        createComponentAction,
        editorForm(footer("Acme Inc."), { description: " Legal text " }),
      ),
    ).toEqual({ redirect: "/dashboard/components/footer?created=1" });
    expect(await getComponent(user.accountId, "footer")).toMatchObject({
      name: "footer",
      description: "Legal text",
      version: 1,
      files: footer("Acme Inc."),
      entry: "index.tsx",
      used_by: [],
    });
  });

  it("answer a compile error with its file, line and column, a bad name and a taken one beside the field, and add nothing", async () => {
    const broken = { "index.tsx": "export default function Header() {\n  return <h1>Acme;\n}\n" };
    expect(await submit<ComponentEditorState>(createComponentAction, editorForm(broken, { name: "header" }))).toEqual({
      state: {
        status: "error",
        message: "Syntax error: `<h1>` opened on line 2 is never closed",
        path: "index.tsx",
        line: 2,
        column: 11,
        values: { name: "header", description: "" },
      },
    });
    expect(
      await submit<ComponentEditorState>(createComponentAction, editorForm(footer("x"), { name: "Brand Header" })),
    ).toEqual({
      state: {
        status: "error",
        message: "Check the highlighted fields.",
        fields: { name: "Use 1 to 64 of a-z, 0-9 and -, starting with a letter: footer, brand-header" },
        values: { name: "Brand Header", description: "" },
      },
    });
    expect(await submit<ComponentEditorState>(createComponentAction, editorForm(footer("again")))).toEqual({
      state: {
        status: "error",
        message: "Check the highlighted fields.",
        fields: { name: "You have a component named “footer” already: open it to save a new version." },
        values: { name: "footer", description: "" },
      },
    });
    // A path the API refuses, named with its file.
    expect(
      await submit<ComponentEditorState>(
        createComponentAction,
        editorForm({ "index.tsx": "export default () => null;\n", "my part.tsx": "" }, { name: "header" }),
      ),
    ).toEqual({
      state: {
        status: "error",
        message: 'files.my part.tsx may hold only letters, digits, -, _, ., @ and / (not " ")',
        path: "my part.tsx",
        values: { name: "header", description: "" },
      },
    });
    expect(
      (await getDb()`select name from components where account_id = ${user.accountId}`).map(({ name }) => name),
    ).toEqual(["footer"]);
  });

  it("save its next version and publish again the template that imports it, naming it", async () => {
    const receipt = await createTemplateFromSource(user.accountId, {
      name: "Receipt",
      description: "",
      files: RECEIPT,
    });
    expect(await publishedVersion(receipt.id)).toBe(1);
    expect(await save(footer("Acme Ltd"), { version: "1", description: "Legal text" })).toEqual({
      state: {
        status: "success",
        message: "Saved as version 2. The template that imports it is published again with it:",
        republished: [{ template_id: receipt.id, version: 2 }],
      },
    });
    expect(await getComponent(user.accountId, "footer")).toMatchObject({
      version: 2,
      files: footer("Acme Ltd"),
      used_by: [{ template_id: receipt.id, name: "Receipt", component_version: 2 }],
    });
    expect(await publishedVersion(receipt.id)).toBe(2);
    // The same files again make no version.
    expect(await save(footer("Acme Ltd"), { version: "2", description: "Legal text" })).toEqual({
      state: {
        status: "success",
        message: "Saved. The files are as they were, so it is still version 2.",
        republished: [],
      },
    });
  });

  it("save nothing when the new version breaks a template that imports it, and name each one broken with its error", async () => {
    const [{ id }] = await getDb()<{ id: string }[]>`
      select id from templates where owner_account_id = ${user.accountId} and name = 'Receipt'`;
    expect(await save(footer("Acme Ltd", false), { version: "2", description: "Legal text" })).toEqual({
      state: {
        status: "error",
        message: "This version of @components/footer breaks a template that imports it: nothing was changed.",
        broken: [{ template_id: id, message: expect.stringMatching(/^Receipt: The trial render failed: /) }],
        values: { name: "footer", description: "Legal text" },
      },
    });
    expect(await getComponent(user.accountId, "footer")).toMatchObject({ version: 2, files: footer("Acme Ltd") });
    expect(await publishedVersion(id)).toBe(2);
    // A compile error of the component itself stays the editor's, with its file and place.
    expect(
      await save(
        { ...footer("Acme Ltd"), "legal.tsx": "export function Legal() {\n  return <small>;\n}\n" },
        {
          version: "2",
        },
      ),
    ).toEqual({
      state: {
        status: "error",
        message: "Syntax error: `<small>` opened on line 2 is never closed",
        path: "legal.tsx",
        line: 2,
        column: 11,
        values: { name: "footer", description: "" },
      },
    });
  });

  it("refuse to delete it while a template imports it, naming the template, and delete it once none does", async () => {
    const [{ id }] = await getDb()<{ id: string }[]>`
      select id from templates where owner_account_id = ${user.accountId} and name = 'Receipt'`;
    expect(await remove("footer")).toEqual({
      state: {
        status: "error",
        message: "A template imports @components/footer: change it first.",
        importers: [{ template_id: id, message: "Receipt imports @components/footer" }],
      },
    });
    expect((await getComponent(user.accountId, "footer")).version).toBe(2);
    await deleteTemplateOrThrow(user.accountId, id);
    expect(await remove("footer")).toEqual({ redirect: "/dashboard/components?deleted=1" });
    await expect(getComponent(user.accountId, "footer")).rejects.toMatchObject({ code: "COMPONENT_NOT_FOUND" });
    expect(await remove("footer")).toEqual({
      state: { status: "error", message: 'You have no component named "footer".' },
    });
  });
});

describe("the Components pages", () => {
  it("list the components, show one with the templates that use it, and the template's page its components", async () => {
    const owner = await createUser("monthly");
    signedIn.accountId = owner.accountId;
    expect(text(renderToStaticMarkup(await ComponentsPage({ searchParams: Promise.resolve({}) })))).toContain(
      "Your components 0 of 100 No components yet",
    );
    expect(
      await submit<ComponentEditorState>(createComponentAction, editorForm(footer("Acme"), { description: "Legal" })),
    ).toEqual({ redirect: "/dashboard/components/footer?created=1" });
    const receipt = await createTemplateFromSource(owner.accountId, {
      name: "Receipt",
      description: "",
      files: RECEIPT,
    });

    const list = text(renderToStaticMarkup(await ComponentsPage({ searchParams: Promise.resolve({}) })));
    expect(list).toContain("Component Version Used by Updated footer Legal v1 1 template Just now");

    const page = (name: string) =>
      ComponentPage({ params: Promise.resolve({ name }), searchParams: Promise.resolve({}) });
    const shown = text(renderToStaticMarkup(await page("footer")));
    expect(shown).toContain("footer Legal Version 1 Saved");
    expect(shown).toContain('import Footer from "@components/footer";');
    expect(shown).toContain("Used by 1 template Template Built with Receipt Version 1 (current)");
    const links = elements(await page("footer")).filter(
      (element) => element.props.href === `/dashboard/library/${receipt.id}`,
    );
    expect(links).toHaveLength(1);
    for (const name of ["header", "Not-A-Name"])
      await expect(page(name)).rejects.toMatchObject({ digest: "NEXT_HTTP_ERROR_FALLBACK;404" });

    const template = elements(
      await TemplatePage({ params: Promise.resolve({ id: receipt.id }), searchParams: Promise.resolve({}) }),
    ).find((element) => element.props["data-testid"] === "template-components");
    expect(text(renderToStaticMarkup(template!))).toBe("Components @components/footer version 1");
    expect(
      elements(template)
        .map((element) => element.props.href)
        .filter(Boolean),
    ).toEqual(["/dashboard/components/footer"]);
  });
});
