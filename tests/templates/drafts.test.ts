import { isValidElement, type ReactElement, type ReactNode } from "react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { saveDraftAction } from "@/app/dashboard/library/[id]/edit/actions";
import type { CreateTemplateState } from "@/app/dashboard/_lib/template-form";
import { createTemplateAction } from "@/app/dashboard/templates/new/actions";
import EditTemplatePage from "@/app/dashboard/library/[id]/edit/page";
import TemplatePage from "@/app/dashboard/library/[id]/page";
import { TemplateEditor } from "@/app/dashboard/templates/new/template-editor";
import { getDb } from "@/lib/db/client";
import { findOwnDraft } from "@/lib/templates/data/drafts";
import { MAX_TEMPLATE_NAME_CHARS } from "@/lib/core/limits";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import { addToLibrary, catalogueId, createUser, type TestUser } from "../support/api";
import { newBrowser, submit, useBrowser } from "../support/next-headers";
import { signedIn } from "../support/signed-in";

// A saved template opens in the editor and saves as a draft: the published version, which sends use, is untouched.
vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));

const hello = (greeting: string) => `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>${greeting} {name}</Text></Html>;
}
Hello.PreviewProps = { name: "Ada" };
`;

let author: TestUser;
let templateId: string;
beforeAll(async () => {
  useBrowser(newBrowser("203.0.113.81"));
  author = await createUser("annual");
  signedIn.accountId = author.accountId;
  templateId = (await createTemplateFromSource(author.accountId, { name: "Hello", description: "", code: hello("Hi") }))
    .id;
});

const saveDraft = (fields: Record<string, string>) =>
  submit<CreateTemplateState>(saveDraftAction, { name: "Hello", description: "", ...fields });

const published = async (id: string) =>
  (await getDb()`select code, published_version from templates where id = ${id}`)[0];

/** Every element in a page's tree (server components' output: their children are elements already). */
function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<{ children?: ReactNode }>(node)) return [];
  return [node as ReactElement<Record<string, unknown>>, ...elements(node.props.children)];
}

const notFoundOf = (page: Promise<unknown>) =>
  page.then(
    () => "rendered",
    (error: { digest?: string }) => error.digest,
  );

describe("editing a saved template in the dashboard", () => {
  it("saves the editor's files as the draft, the name and description with them, and goes back to the template's page; the published version stays", async () => {
    expect(await saveDraft({ id: templateId, name: "Hello again", code: hello("Hello") })).toEqual({
      redirect: `/dashboard/library/${templateId}?draft=saved`,
    });
    expect(await published(templateId)).toEqual({ code: hello("Hi"), published_version: 1 });
    expect(await findOwnDraft(author.accountId, templateId)).toMatchObject({
      revision: 1,
      code: hello("Hello"),
      files: null,
      entry: null,
    });
    expect((await getDb()`select name from templates where id = ${templateId}`)[0].name).toBe("Hello again");
  });

  it("answers a compile error with its line and column and keeps the draft as it was", async () => {
    expect(
      await saveDraft({ id: templateId, code: "export default function Broken() {\n  return <div>;\n}\n" }),
    ).toEqual({
      state: {
        status: "error",
        message: "Syntax error: `<div>` opened on line 2 is never closed",
        line: 2,
        column: 11,
        values: { name: "Hello", description: "" },
      },
    });
    expect((await findOwnDraft(author.accountId, templateId))?.code).toBe(hello("Hello"));
  });

  it("refuses $ref as a key in a default, as the API does, and keeps the draft as it was", async () => {
    const beacon = hello("Hi").replace(
      `{ name = "there" }: { name?: string }`,
      `{ name = { $ref: "/etc/hostname" } }: { name?: object }`,
    );
    expect(await saveDraft({ id: templateId, code: beacon })).toEqual({
      state: {
        status: "error",
        message:
          "$ref cannot be a key in a default, as at variables.name.$ref (JSON Schema tools would follow it as a reference)",
        values: { name: "Hello", description: "" },
      },
    });
    expect((await findOwnDraft(author.accountId, templateId))?.code).toBe(hello("Hello"));
  });

  it("stores \\n line endings although the editor's form posts \\r\\n, for one file or several, new or a draft", async () => {
    const crlf = (text: string) => text.replaceAll("\n", "\r\n");
    const created = await submit<CreateTemplateState>(createTemplateAction, {
      name: "Windows",
      description: "",
      code: crlf(hello("Hi")),
    });
    expect(created).toEqual({ redirect: expect.stringMatching(/^\/dashboard\/library\/[\w-]+\?created=1$/) });
    const id = "redirect" in created ? created.redirect.slice("/dashboard/library/".length, -"?created=1".length) : "";
    expect(await published(id)).toEqual({ code: hello("Hi"), published_version: 1 });

    const footer = `import { Text } from "@react-email/components";\nexport const Footer = () => <Text>Bye</Text>;\n`;
    const entry = `import { Html } from "@react-email/components";\nimport { Footer } from "./footer";\nexport default function E() {\n  return <Html><Footer /></Html>;\n}\n`;
    expect(
      await saveDraft({
        id,
        files: JSON.stringify({ "email.tsx": crlf(entry), "footer.tsx": crlf(footer) }),
        entry: "email.tsx",
      }),
    ).toEqual({ redirect: `/dashboard/library/${id}?draft=saved` });
    const { code, files, entry: savedEntry } = (await findOwnDraft(author.accountId, id))!;
    expect({ code, files, entry: savedEntry }).toEqual({
      code: entry,
      files: { "email.tsx": entry, "footer.tsx": footer },
      entry: "email.tsx",
    });
  });

  it("refuses another account's template, a catalogue template and an id that is none, and changes nothing", async () => {
    const other = await createUser("annual");
    const theirs = (
      await createTemplateFromSource(other.accountId, { name: "Theirs", description: "", code: hello("Yo") })
    ).id;
    const refused = {
      state: {
        status: "error",
        message: "This template is not one of yours any more: it may have been deleted.",
        values: { name: "Hello", description: "" },
      },
    };
    for (const id of [theirs, await catalogueId("welcome"), "not-an-id"])
      expect(await saveDraft({ id, code: hello("Mine now") })).toEqual(refused);
    expect({ published: await published(theirs), draft: await findOwnDraft(other.accountId, theirs) }).toEqual({
      published: { code: hello("Yo"), published_version: 1 },
      draft: null,
    });
  });

  it("refuses a name too long and no code with the fields' messages, before compiling", async () => {
    expect(await saveDraft({ id: templateId, name: "x".repeat(MAX_TEMPLATE_NAME_CHARS + 1), code: "" })).toEqual({
      state: {
        status: "error",
        message: "Check the highlighted fields.",
        fields: { name: `Use at most ${MAX_TEMPLATE_NAME_CHARS} characters`, code: "Write the template's code" },
        values: { name: "x".repeat(MAX_TEMPLATE_NAME_CHARS + 1), description: "" },
      },
    });
  });
});

describe("the edit page", () => {
  it("opens the draft in the editor, which saves it with saveDraftAction; without a draft, the published files, the entry first", async () => {
    const page = await EditTemplatePage({ params: Promise.resolve({ id: templateId }) });
    const editor = elements(page).find((element) => element.type === TemplateEditor)!;
    expect(editor.props).toEqual({
      saveAction: saveDraftAction,
      template: {
        id: templateId,
        name: "Hello again",
        description: "",
        files: [{ path: "template.tsx", code: hello("Hello") }],
        defaultLocale: null,
      },
    });

    const files = { "email.tsx": hello("Hey"), "components/a.tsx": "export const a = 1;\n" };
    const several = (await createTemplateFromSource(author.accountId, { name: "Two", description: "d", files })).id;
    const opened = elements(await EditTemplatePage({ params: Promise.resolve({ id: several }) }));
    expect(opened.find((element) => element.type === TemplateEditor)!.props.template).toEqual({
      id: several,
      name: "Two",
      description: "d",
      files: [
        { path: "email.tsx", code: files["email.tsx"] },
        { path: "components/a.tsx", code: files["components/a.tsx"] },
      ],
      defaultLocale: null,
    });
  });

  it("is not found for a catalogue template in the library, another account's template and an id that is none", async () => {
    await addToLibrary(author, "welcome");
    const other = await createUser("annual");
    const theirs = (
      await createTemplateFromSource(other.accountId, { name: "Theirs", description: "", code: hello("Yo") })
    ).id;
    for (const id of [await catalogueId("welcome"), theirs, "nope"])
      expect(await notFoundOf(EditTemplatePage({ params: Promise.resolve({ id }) }))).toBe(
        "NEXT_HTTP_ERROR_FALLBACK;404",
      );
  });

  it("is linked by an Edit button on the page of the account's own template, and on no catalogue template's page", async () => {
    const editLinks = async (id: string) =>
      elements(await TemplatePage({ params: Promise.resolve({ id }), searchParams: Promise.resolve({}) }))
        .filter((element) => element.props.children === "Edit")
        .map((element) => element.props.href);
    expect(await editLinks(templateId)).toEqual([`/dashboard/library/${templateId}/edit`]);
    expect(await editLinks(await catalogueId("welcome"))).toEqual([]);
  });
});
