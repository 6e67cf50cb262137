import { isValidElement, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postTemplatePreview } from "@/app/api/dashboard/templates/[id]/render/route";
import { POST as postPreview } from "@/app/api/dashboard/templates/preview/route";
import type { CreateTemplateState } from "@/app/dashboard/_lib/template-form";
import { sendTestEmailAction } from "@/app/dashboard/library/[id]/actions";
import EmailPage from "@/app/dashboard/emails/[id]/page";
import { saveDraftAction } from "@/app/dashboard/library/[id]/edit/actions";
import EditTemplatePage from "@/app/dashboard/library/[id]/edit/page";
import TemplatePage from "@/app/dashboard/library/[id]/page";
import { createTemplateAction } from "@/app/dashboard/templates/new/actions";
import { effectiveDefault, formVariablesSchema, localesOf, newLocale, pickerLocales } from "@/lib/dashboard/locales";
import {
  jsonSyntaxProblem,
  keyPosition,
  placeMessagesProblem,
  problemKey,
  type EditorProblem,
} from "@/lib/dashboard/message-key";
import { getDb } from "@/lib/db/client";
import { getEmailOrThrow } from "@/lib/sent-emails/service";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import {
  addToLibrary,
  BASE,
  call,
  catalogueId,
  createUser,
  sender,
  sessionCookie,
  type TestUser,
} from "../support/api";
import { newBrowser, submit, useBrowser } from "../support/next-headers";
import { signedIn } from "../support/signed-in";

// Issue 49, item 6: the editor's messages files, the save's missing-key warnings beside its result, and the template
// page's locale picker, whose preview renders in the chosen locale.
vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));

// Written as React Email's next-intl guide writes it: the locale's messages imported by the `locale` prop.
const WELCOME = `import { createTranslator } from "next-intl";
import { Html, Text } from "@react-email/components";

export default async function Welcome({ name, count, locale }: { name: string; count: number; locale: string }) {
  const t = createTranslator({ messages: await import(\`./messages/\${locale}.json\`), namespace: "welcome", locale });
  return (
    <Html>
      <Text>{t("title", { name })}</Text>
      <Text>{t("items", { count })}</Text>
    </Html>
  );
}
Welcome.PreviewProps = { name: "Ada", count: 2, locale: "en" };
`;

const EN = JSON.stringify(
  { welcome: { title: "Welcome, {name}", items: "{count, plural, one {# item} other {# items}}" } },
  null,
  2,
);
// Half the keys: the title falls back to en.
const FR = JSON.stringify({ welcome: { items: "{count, plural, one {# article} other {# articles}}" } }, null, 2);
const FILES = { "email.tsx": WELCOME, "messages/en.json": EN, "messages/fr.json": FR };

const HELLO = `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text></Html>;
}
`;

const WARNINGS = [{ field: "files.messages/fr.json", message: "missing welcome.title: falls back to en" }];

let author: TestUser;

beforeAll(async () => {
  useBrowser(newBrowser("203.0.113.149"));
  author = await createUser("annual");
  signedIn.accountId = author.accountId;
});

/** Every element in a page's tree (server components' output: their children are elements already). */
function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<{ children?: ReactNode }>(node)) return [];
  return [node as ReactElement<Record<string, unknown>>, ...elements(node.props.children)];
}

const page = (id: string, searchParams: Record<string, string> = {}) =>
  TemplatePage({ params: Promise.resolve({ id }), searchParams: Promise.resolve(searchParams) });

/** The props of the page's element of component `type`. */
async function propsOf(tree: ReactNode, name: string): Promise<Record<string, unknown>> {
  const found = elements(tree).find((element) => typeof element.type === "function" && element.type.name === name);
  if (!found) throw new Error(`no ${name} in the page`);
  return found.props;
}

/** The text of the page's save warnings, one line each, or null when it shows none. */
function savedWarnings(html: string): string[] | null {
  const block = /<div class="alert alert-warning" role="status" data-testid="save-warnings">(.*?)<\/ul>/s.exec(html);
  if (!block) return null;
  return [...block[1].matchAll(/<li>(.*?)<\/li>/g)].map(([, item]) => item.replace(/<[^>]+>/g, ""));
}

/** The page's locale picker: its label and its options, or null when it has none. */
function picker(html: string): { label: string; options: string[] } | null {
  const select = /<select id="preview-locale"[^>]*>(.*?)<\/select>/s.exec(html);
  if (!select) return null;
  const label = /<label class="label" for="preview-locale">(.*?)<\/label>/.exec(html)?.[1] ?? "";
  return {
    label,
    // The chosen one marked with a *.
    options: [...select[1].matchAll(/<option value="([^"]*)"( selected="")?>(.*?)<\/option>/g)].map(
      ([, value, selected, text]) => `${value}=${text}${selected ? "*" : ""}`,
    ),
  };
}

const outcome = ({ status, body }: { status: number; body: unknown }) => ({ status, body });

const PARAGRAPH = '<p style="font-size:14px;line-height:24px;margin-top:16px;margin-bottom:16px">';
/** The welcome email's HTML as the sandbox renders it. */
const email = (title: string, items: string) =>
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">' +
  `<html dir="ltr" lang="en"><head></head><!--$--><!--html-->${PARAGRAPH}${title}</p>${PARAGRAPH}${items}</p><!--/$--></html>`;

const session = async () => ({
  cookie: await sessionCookie(author.accountId),
  origin: BASE,
  "x-forwarded-for": "203.0.113.150",
});

const previewIn = async (id: string, locale: string | undefined) =>
  call(postTemplatePreview, `/api/dashboard/templates/${id}/render`, {
    method: "POST",
    params: { id },
    headers: await session(),
    body: { variables: { name: "Ada", count: 2 }, format: "html", plain_text: true, ...(locale ? { locale } : {}) },
  });

describe("a localized template in the dashboard", () => {
  let id: string;

  it("saves from the new-template editor and shows the save's missing-key warnings beside its result", async () => {
    const created = await submit<CreateTemplateState>(createTemplateAction, {
      name: "Welcome",
      description: "",
      files: JSON.stringify(FILES),
      entry: "email.tsx",
      default_locale: "en",
    });
    expect(created).toEqual({ redirect: expect.stringMatching(/^\/dashboard\/library\/[\w-]+\?created=1$/) });
    id = "redirect" in created ? created.redirect.slice("/dashboard/library/".length, -"?created=1".length) : "";

    const html = renderToStaticMarkup(await page(id, { created: "1" }));
    expect(html).toContain("Template saved and added to your library.");
    expect(savedWarnings(html)).toEqual(WARNINGS.map(({ field, message }) => `${field}: ${message}`));
    // Not said again once the save's result is gone.
    expect(savedWarnings(renderToStaticMarkup(await page(id)))).toBeNull();
  });

  it("previews each locale: a labelled picker of its locales, the default first, beside the variables form", async () => {
    const tree = await page(id);
    expect(picker(renderToStaticMarkup(tree))).toEqual({ label: "Locale", options: ["en=en (default)*", "fr=fr"] });
    const workbench = await propsOf(tree, "TemplateWorkbench");
    expect(workbench.locales).toEqual(["en", "fr"]);
    // The picker sets `locale`: the variables form edits the others.
    expect(Object.keys((workbench.schema as { properties: object }).properties).sort()).toEqual(["count", "name"]);
    // The page's first preview is the default locale's.
    expect([workbench.initialHtml, workbench.initialText]).toEqual([
      email("Welcome, Ada", "2 items"),
      "Welcome, Ada\n\n2 items",
    ]);
  });

  it("renders the preview in the chosen locale, resolved as the API resolves it, with its fallbacks", async () => {
    expect(outcome(await previewIn(id, "fr"))).toEqual({
      status: 200,
      // fr lacks the title: en's.
      body: {
        success: true,
        locale: "fr",
        html: email("Welcome, Ada", "2 articles"),
        text: "Welcome, Ada\n\n2 articles",
      },
    });
    expect(outcome(await previewIn(id, "en"))).toEqual({
      status: 200,
      body: { success: true, locale: "en", html: email("Welcome, Ada", "2 items"), text: "Welcome, Ada\n\n2 items" },
    });
    // A regional tag the template lacks: its language's messages.
    expect((await previewIn(id, "fr-CA")).body).toMatchObject({ locale: "fr", text: "Welcome, Ada\n\n2 articles" });
  });

  it("renders the editor's live preview in the locale it picks, else the PreviewProps' locale", async () => {
    const draft = async (locale?: string) =>
      call(postPreview, "/api/dashboard/templates/preview", {
        method: "POST",
        headers: await session(),
        body: {
          files: FILES,
          entry: "email.tsx",
          default_locale: "en",
          variables: null,
          ...(locale ? { locale } : {}),
        },
      });
    expect((await draft("fr")).body).toMatchObject({
      ok: true,
      html: email("Welcome, Ada", "2 articles"),
      props: { name: "Ada", count: 2, locale: "fr" },
    });
    expect((await draft()).body).toMatchObject({ ok: true, html: email("Welcome, Ada", "2 items") });
  });

  it("opens the messages in the editor's tabs with the saved default locale", async () => {
    const tree = await EditTemplatePage({ params: Promise.resolve({ id }) });
    const editor = await propsOf(tree, "TemplateEditor");
    expect(editor.template).toEqual({
      id,
      name: "Welcome",
      description: "",
      files: [
        { path: "email.tsx", code: WELCOME },
        { path: "messages/en.json", code: EN },
        { path: "messages/fr.json", code: FR },
      ],
      defaultLocale: "en",
    });
    const html = renderToStaticMarkup(tree);
    expect(html).toContain(">Add locale</button>");
    expect(html).toMatch(
      /<label class="label" for="default-locale">Default locale<\/label><select id="default-locale"/,
    );
    expect(html).toContain('<input type="hidden" name="default_locale" value="en"/>');
    // The live preview's locale: the PreviewProps' by default, or any of the messages' tags.
    expect(/<select id="preview-locale" class="select">(.*?)<\/select>/.exec(html)?.[1]).toBe(
      '<option value="" selected="">PreviewProps&#x27; locale, else the default (en)</option>' +
        '<option value="en">en</option><option value="fr">fr</option>',
    );
    // The files' tabs: the messages beside the code.
    expect([...html.matchAll(/role="tab" class="tab" id="file-tab-([^"]+)"/g)].map(([, path]) => path)).toEqual([
      "email.tsx",
      "messages/en.json",
      "messages/fr.json",
    ]);
  });

  it("saves a draft with its warnings beside the draft's result", async () => {
    const saved = await submit<CreateTemplateState>(saveDraftAction, {
      id,
      name: "Welcome",
      description: "",
      files: JSON.stringify({ ...FILES, "messages/de.json": "{}" }),
      entry: "email.tsx",
      default_locale: "en",
    });
    expect(saved).toEqual({ redirect: `/dashboard/library/${id}?draft=saved` });
    const html = renderToStaticMarkup(await page(id, { draft: "saved" }));
    expect(html).toContain("Draft saved.");
    expect(savedWarnings(html)).toEqual([
      "files.messages/de.json: missing welcome.title: falls back to en",
      "files.messages/de.json: missing welcome.items: falls back to en",
      ...WARNINGS.map(({ field, message }) => `${field}: ${message}`),
    ]);
  });

  it("refuses a malformed message on its file and key, which the editor finds in the file", async () => {
    const broken = JSON.stringify(
      { welcome: { items: "{count, plural, one {# article} other {# articles}" } },
      null,
      2,
    );
    const saved = await submit<CreateTemplateState>(saveDraftAction, {
      id,
      name: "Welcome",
      description: "",
      files: JSON.stringify({ ...FILES, "messages/fr.json": broken }),
      entry: "email.tsx",
    });
    expect(saved).toEqual({
      state: {
        status: "error",
        message:
          "files.messages/fr.json welcome.items: is not a valid ICU message (EXPECT_ARGUMENT_CLOSING_BRACE at character 1)",
        path: "messages/fr.json",
        values: { name: "Welcome", description: "" },
      },
    });
    // What the editor shows and marks: the message beside its file's name, at the key's line in that file.
    const files = [{ path: "messages/fr.json", code: broken }];
    const { message, path } = "state" in saved ? saved.state : { message: "", path: "" };
    expect(placeMessagesProblem({ message: message!, path }, files)).toEqual({
      message: "welcome.items: is not a valid ICU message (EXPECT_ARGUMENT_CLOSING_BRACE at character 1)",
      path: "messages/fr.json",
      line: 3,
      column: 5,
    });
    // The editor's live preview refuses it the same way, before any save.
    const preview = await call(postPreview, "/api/dashboard/templates/preview", {
      method: "POST",
      headers: await session(),
      body: { files: { ...FILES, "messages/fr.json": broken }, entry: "email.tsx", variables: null },
    });
    expect(outcome(preview)).toEqual({
      status: 200,
      body: {
        ok: false,
        message:
          "messages/fr.json welcome.items: is not a valid ICU message (EXPECT_ARGUMENT_CLOSING_BRACE at character 1)",
        path: "messages/fr.json",
      },
    });
    expect(placeMessagesProblem(preview.body as EditorProblem, files)).toMatchObject({ line: 3, column: 5 });
  });

  it("sends the test email in the chosen locale", async () => {
    const user = await sender();
    signedIn.accountId = user.accountId;
    try {
      const { id: localized } = await createTemplateFromSource(user.accountId, {
        name: "Welcome",
        description: "",
        files: FILES,
      });
      const state = await sendTestEmailAction({
        templateId: localized,
        to: "ann@example.com",
        subject: "Bienvenue",
        from: "",
        variables: { name: "Ada", count: 2 },
        locale: "fr",
      });
      expect(state).toEqual({
        status: "success",
        message: "Test sent to ann@example.com.",
        emailId: expect.any(String),
      });
      const emailId = "emailId" in state ? String(state.emailId) : "";
      expect((await getEmailOrThrow(user.accountId, emailId)).locale).toBe("fr");
      // The email's page says it, and says nothing of a locale for an email of a template without messages.
      const emailPage = async (id: string) =>
        renderToStaticMarkup(await EmailPage({ params: Promise.resolve({ id }) }));
      expect(await emailPage(emailId)).toContain('<dt>Locale</dt><dd data-testid="email-locale">fr</dd>');
      await addToLibrary(user, "verify-email");
      const plain = await sendTestEmailAction({
        templateId: await catalogueId("verify-email"),
        to: "ann@example.com",
        subject: "Verify",
        from: "",
        variables: { verifyUrl: "https://acme.example/v/1" },
      });
      expect(await emailPage("emailId" in plain ? String(plain.emailId) : "")).not.toContain("Locale");
      expect(await getDb()`select html, text_body from sent_emails where id = ${emailId}`).toEqual([
        { html: email("Welcome, Ada", "2 articles"), text_body: "Welcome, Ada\n\n2 articles" },
      ]);
    } finally {
      signedIn.accountId = author.accountId;
    }
  });

  it("previews a localized catalogue template in each of its locales too, the default first", async () => {
    await addToLibrary(author, "welcome");
    const tree = await page(await catalogueId("welcome"));
    expect(picker(renderToStaticMarkup(tree))).toEqual({
      label: "Locale",
      options: ["en=en (default)*", "de=de", "es=es", "fr=fr", "pt-BR=pt-BR"],
    });
    expect((await propsOf(tree, "TemplateWorkbench")).locales).toEqual(["en", "de", "es", "fr", "pt-BR"]);
  });

  it("shows no picker for a template without messages", async () => {
    const plain = await createTemplateFromSource(author.accountId, { name: "Plain", description: "", code: HELLO });
    const tree = await page(plain.id);
    expect(picker(renderToStaticMarkup(tree))).toBeNull();
    expect((await propsOf(tree, "TemplateWorkbench")).locales).toBeNull();
  });
});

describe("the picker's locales and the key lookup", () => {
  it("lists the default locale first, then the others alphabetically, from a record's or the details' locales", () => {
    expect(pickerLocales({ locales: [{ tag: "de" }, { tag: "fr" }, { tag: "pt-BR" }], default_locale: "fr" })).toEqual([
      "fr",
      "de",
      "pt-BR",
    ]);
    expect(pickerLocales({ locales: ["en", "es"], default_locale: "en" })).toEqual(["en", "es"]);
    expect(pickerLocales({ locales: null, default_locale: null })).toBeNull();
    expect(pickerLocales({})).toBeNull();
  });

  it("adds a locale by its BCP 47 tag, written as Intl writes it, once, up to the cap", () => {
    const paths = ["email.tsx", "messages/en.json"];
    expect(newLocale("pt-br", paths)).toEqual({ path: "messages/pt-BR.json" });
    expect(newLocale(" zh-hant ", paths)).toEqual({ path: "messages/zh-Hant.json" });
    expect(newLocale("EN", paths)).toEqual({ error: "The template has en already." });
    const refused = { error: "Enter a BCP 47 language tag, such as fr, de, pt-BR or zh-Hant." };
    expect([newLocale("en_US", paths), newLocale("", paths), newLocale("a-b", paths)]).toEqual([
      refused,
      refused,
      refused,
    ]);
    const fifty = Array.from({ length: 50 }, (_, i) => `messages/en-${String(i).padStart(3, "0")}.json`);
    expect(newLocale("fr", fifty)).toEqual({ error: "A template holds messages for at most 50 locales." });
  });

  it("chooses the default locale as the save does: the chosen one while it is a tag, else en, else the first", () => {
    const tags = localesOf(["email.tsx", "messages/fr.json", "messages/de.json", "messages/en.json"]);
    expect(tags).toEqual(["de", "en", "fr"]);
    expect([effectiveDefault(tags, "fr"), effectiveDefault(tags, "es"), effectiveDefault(tags, null)]).toEqual([
      "fr",
      "en",
      "en",
    ]);
    expect(effectiveDefault(["fr", "pt-BR"], null)).toBe("fr");
    expect(effectiveDefault([], "en")).toBeNull();
  });

  it("leaves `locale` out of the form's variables only when the picker sets it", () => {
    const schema = {
      type: "object" as const,
      properties: { name: { type: "string" as const }, locale: { type: "string" as const } },
      required: ["name", "locale"],
      additionalProperties: false,
    };
    expect(formVariablesSchema(schema, ["en"])).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    });
    expect(formVariablesSchema(schema, null)).toBe(schema);
  });

  it("finds a dotted key in JSON, skipping strings, arrays and other objects' keys of the same name", () => {
    const json =
      '{\n  "a": { "title": "x" },\n  "list": ["b", { "c": 1 }],\n  "welcome": {\n    "ti\\"tle": "y",\n    "title": "z"\n  }\n}';
    expect(keyPosition(json, "welcome.title")).toEqual({ line: 6, column: 5 });
    expect(keyPosition(json, "a.title")).toEqual({ line: 2, column: 10 });
    expect(keyPosition(json, "title")).toBeNull();
    expect(keyPosition("not json", "a")).toBeNull();
    expect(problemKey('has the key "a.b": a key must be non-empty')).toBeNull();
    expect(jsonSyntaxProblem(EN)).toBeNull();
    // The engine's message (Node 24's adds the line and column).
    expect(jsonSyntaxProblem('{\n  "a": "x"\n  "b": "y"\n}')).toMatch(
      /^Expected ',' or '}' after property value in JSON at position 15\b/,
    );
  });
});
