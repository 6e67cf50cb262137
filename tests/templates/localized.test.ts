import { execFile } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { POST as sendBatch } from "@/app/api/v1/send/batch/route";
import { POST as send } from "@/app/api/v1/send/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { GET as getTemplate, PUT as putTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { getDb } from "@/lib/db/client";
import { renderDraft } from "@/lib/dashboard/preview";
import {
  addToLibrary,
  auth,
  call,
  catalogueId,
  expectedEmailResponse,
  ISO,
  sender,
  type Sender,
  type TestUser,
} from "../support/api";
import { addEndpoint, webhookEvents } from "../support/webhooks";

// Localized templates (api-contract.md, "Localized templates"): what is checked at save, `locale` on render and send,
// its record on each email, and, with the sandbox's JSON modules and Intl, templates written as React Email's
// next-intl guide writes them.

const invalid = (details: { field: string; message: string }[]) => ({
  status: 400,
  body: { error: "Invalid request body", code: "VALIDATION_ERROR", success: false, details },
});
const outcome = ({ status, body }: { status: number; body: unknown }) => ({ status, body });

const create = (user: TestUser, body: unknown) =>
  call(postTemplate, "/api/v1/templates", { method: "POST", headers: auth(user), body });
const details = (user: TestUser, id: string) => call(getTemplate, "/x", { params: { id }, headers: auth(user) });
const render = (user: TestUser, id: string, body: Record<string, unknown>) =>
  call(postRender, `/api/v1/templates/${id}/render`, { method: "POST", params: { id }, headers: auth(user), body });
const sendEmail = (user: TestUser, body: Record<string, unknown>) =>
  call(send, "/api/v1/send", { method: "POST", headers: auth(user), body });
const email = (user: TestUser, id: string) => call(getEmail, "/x", { params: { id }, headers: auth(user) });

const SHOWS_LOCALE = `import { Html, Text } from "@react-email/components";
export default function Shows({ name = "there", locale = "none" }: { name?: string; locale?: string }) {
  return <Html><Text>{locale}: {name}</Text></Html>;
}
Shows.PreviewProps = { name: "Ada" };
`;

const code = { "email.tsx": SHOWS_LOCALE };

describe("a save's messages", () => {
  it("allows .json only as messages/<tag>.json, the tag written canonically", async () => {
    const user = await sender();
    expect(
      outcome(await create(user, { name: "T", files: { ...code, "data.json": "{}", "messages/pt-br.json": "{}" } })),
    ).toEqual(
      invalid([
        {
          field: "files.data.json",
          message: "must be messages/<tag>.json (<tag> a BCP 47 language tag: en, fr, pt-BR): no other .json file",
        },
        { field: "files.messages/pt-br.json", message: "must write its tag as pt-BR: messages/pt-BR.json" },
      ]),
    );
  });

  it("refuses a malformed ICU message, naming the file and the key", async () => {
    const user = await sender();
    const files = {
      ...code,
      "messages/en.json": JSON.stringify({ welcome: { title: "Hello {name}" } }),
      "messages/fr.json": JSON.stringify({ welcome: { title: "Bonjour {name" } }),
    };
    expect(outcome(await create(user, { name: "T", files }))).toEqual(
      invalid([
        {
          field: "files.messages/fr.json",
          message: "welcome.title: is not a valid ICU message (EXPECT_ARGUMENT_CLOSING_BRACE at character 9)",
        },
      ]),
    );
  });

  it("refuses messages built to explode: plurals nested deep, a select of a thousand cases, objects 9 deep", async () => {
    const user = await sender();
    const nested = (depth: number): string =>
      depth === 0 ? "x" : `{n${depth}, plural, one {${nested(depth - 1)}} other {${nested(depth - 1)}}}`;
    const huge = `{k, select, ${Array.from({ length: 1000 }, (_, i) => `c${i} {x}`).join(" ")} other {y}}`;
    const save = (messages: unknown) =>
      create(user, { name: "T", files: { ...code, "messages/en.json": JSON.stringify(messages) } });
    expect(outcome(await save({ a: nested(5) }))).toEqual(
      invalid([{ field: "files.messages/en.json", message: "a: nests plural and select more than 4 deep" }]),
    );
    expect(outcome(await save({ a: huge }))).toEqual(
      invalid([
        {
          field: "files.messages/en.json",
          message: "a: has more than 500 elements (text, arguments, tags and plural or select options)",
        },
      ]),
    );
    expect(outcome(await save({ a: { b: { c: { d: { e: { f: { g: { h: { i: "x" } } } } } } } } }))).toEqual(
      invalid([{ field: "files.messages/en.json", message: "nests objects more than 8 deep (at a.b.c.d.e.f.g.h)" }]),
    );
  });

  it("refuses a default_locale that is malformed, none of the template's, or without messages", async () => {
    const user = await sender();
    const files = { ...code, "messages/en.json": "{}", "messages/fr.json": "{}" };
    expect(outcome(await create(user, { name: "T", files, default_locale: "de" }))).toEqual(
      invalid([{ field: "default_locale", message: "default_locale must be one of the template's locales (en, fr)" }]),
    );
    expect(outcome(await create(user, { name: "T", files, default_locale: "not a tag" }))).toEqual(
      invalid([{ field: "default_locale", message: "default_locale must be a BCP 47 language tag (en, pt-BR)" }]),
    );
    expect(outcome(await create(user, { name: "T", files: code, default_locale: "en" }))).toEqual(
      invalid([
        {
          field: "default_locale",
          message: "default_locale needs the template's messages: a messages/<tag>.json file per locale",
        },
      ]),
    );
  });
});

describe("locale on render and send", () => {
  const LOCALE = [{ field: "locale", message: "locale must be a BCP 47 language tag (en, fr-CA, pt-BR)" }];

  it("refuses a malformed locale on render, send and batch", async () => {
    const user = await sender();
    expect(outcome(await render(user, user.welcomeId, { locale: "en_US!" }))).toEqual(invalid(LOCALE));
    const body = { template_id: user.welcomeId, to: "ann@example.com", subject: "Hi", locale: 5 };
    expect(outcome(await sendEmail(user, body))).toEqual(invalid(LOCALE));
    const batch = await call(sendBatch, "/api/v1/send/batch", {
      method: "POST",
      headers: auth(user),
      body: { emails: [{ ...body, locale: "-" }] },
    });
    expect(outcome(batch)).toEqual(invalid([{ field: "emails.0.locale", message: LOCALE[0].message }]));
  });

  it("ignores locale for a template without messages, whose answer has none, and still requires subject", async () => {
    const user = await sender();
    await addToLibrary(user, "verify-email");
    const verify = await catalogueId("verify-email");
    const variables = { verifyUrl: "https://acme.example/v/1" };
    const rendered = await render(user, verify, { locale: "fr", variables });
    expect(rendered.status).toBe(200);
    expect(Object.keys(rendered.body)).toEqual(["success", "html"]);
    const sent = await sendEmail(user, { template_id: verify, to: "ann@example.com", locale: "fr", variables });
    expect(outcome(sent)).toEqual(invalid([{ field: "subject", message: "subject is required" }]));
  });

  it("resolves the locale by lookup, gives it to the component, answers it and records it on the email", async () => {
    const user = await sender();
    await addEndpoint(user.accountId, { events: ["email.sent"] });
    const saved = await create(user, { name: "Shows", files: code });
    expect(saved.status).toBe(201);
    const id: string = saved.body.template.id;
    // As a save of messages en, fr and pt-BR stores them (the sandbox's JSON modules are not needed for this template).
    const locales = [
      { tag: "en", subject: "Hello {name}" },
      { tag: "fr", subject: "Bonjour {name}" },
      { tag: "pt-BR" },
    ];
    await getDb()`update templates set locales = ${getDb().json(locales)}, default_locale = 'en' where id = ${id}`;
    await getDb()`update template_versions set locales = ${getDb().json(locales)}, default_locale = 'en'
                  where template_id = ${id}`;

    const got = await details(user, id);
    expect(got.status).toBe(200);
    expect(got.body.template).toMatchObject({ locales: ["en", "fr", "pt-BR"], default_locale: "en" });
    expect(Object.keys(got.body.template).slice(-2)).toEqual(["locales", "default_locale"]);

    const cases: [string | undefined, string][] = [
      ["fr-CA", "fr"],
      ["PT-br", "pt-BR"],
      ["pt", "en"],
      ["ja", "en"],
      [undefined, "en"],
    ];
    for (const [asked, resolved] of cases) {
      const rendered = await render(user, id, asked === undefined ? {} : { locale: asked });
      expect(rendered.status).toBe(200);
      expect(rendered.body).toEqual({ success: true, locale: resolved, html: expect.any(String) });
      expect(rendered.body.html).toContain(`>${resolved}<!-- -->: <!-- -->there</p>`);
    }
    const react = await render(user, id, { locale: "fr", format: "react" });
    expect(react.body).toEqual({ success: true, locale: "fr", react: expect.stringContaining('\n  "locale": "fr"\n') });

    const sent = await sendEmail(user, { template_id: id, to: "ann@example.com", subject: "Hi", locale: "fr-CA" });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({
      id: expect.any(String),
      from: `hello@${user.domain}`,
      to: ["ann@example.com"],
      subject: "Hi",
      locale: "fr",
      sent_at: ISO,
    });
    const recorded = await email(user, sent.body.data.id);
    expect(recorded.body).toEqual({
      success: true,
      email: {
        ...expectedEmailResponse(user as Sender, sent.body.data.id, "delivered", expect.any(Array)),
        subject: "Hi",
        template_id: id,
        locale: "fr",
      },
    });
    const [event] = await webhookEvents(user.accountId);
    expect(event.payload.data).toMatchObject({ email_id: sent.body.data.id, locale: "fr" });

    await addToLibrary(user, "verify-email");
    const batch = await call(sendBatch, "/api/v1/send/batch", {
      method: "POST",
      headers: auth(user),
      body: {
        emails: [
          { template_id: id, to: "ann@example.com", subject: "Hi", locale: "pt-PT" },
          { template_id: id, to: "bob@example.com", subject: "Hi", locale: "pt-BR" },
          { template_id: user.welcomeId, to: "cy@example.com", subject: "Hi", locale: "fr" },
          {
            template_id: await catalogueId("verify-email"),
            to: "dee@example.com",
            subject: "Hi",
            locale: "fr",
            variables: { verifyUrl: "https://acme.example/v/1" },
          },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.data.map((item: { locale?: string }) => item.locale)).toEqual(["en", "pt-BR", "fr", undefined]);
    const rows = await getDb()<{ locale: string | null }[]>`
      select locale from sent_emails where account_id = ${user.accountId} and batch_id is not null order by batch_index`;
    expect(rows).toEqual([{ locale: "en" }, { locale: "pt-BR" }, { locale: "fr" }, { locale: null }]);

    // A locale without a subject message of its own (pt-BR): a send must name one.
    expect(outcome(await sendEmail(user, { template_id: id, to: "ann@example.com", locale: "pt-BR" }))).toEqual(
      invalid([{ field: "subject", message: "subject is required" }]),
    );
  });
});

// Needs the sandbox's JSON modules, next-intl and Intl (h4-sandbox).
describe("a template written as React Email's next-intl guide writes it", () => {
  const WELCOME = `import { Heading, Html, Text } from "@react-email/components";
import { createTranslator } from "next-intl";
import en from "./messages/en.json";
import fr from "./messages/fr.json";
import frCA from "./messages/fr-CA.json";

const messages = { en, fr, "fr-CA": frCA };

export default function Welcome({ name = "Ada", count = 1, locale = "en" }: { name?: string; count?: number; locale?: string }) {
  const t = createTranslator({ locale, messages: messages[locale as keyof typeof messages], namespace: "welcome" });
  return (
    <Html lang={locale}>
      <Heading>{t("title", { name })}</Heading>
      <Text>{t("items", { count })}</Text>
    </Html>
  );
}
Welcome.PreviewProps = { name: "Ada", count: 2 };
`;
  const FILES = {
    "email.tsx": WELCOME,
    "messages/en.json": JSON.stringify({
      subject: "Welcome, {name}",
      welcome: { title: "Hello {name}", items: "{count, plural, one {# item} other {# items}}" },
    }),
    "messages/fr.json": JSON.stringify({
      subject: "Bienvenue, {name}",
      welcome: { items: "{count, plural, one {# article} other {# articles}}" },
    }),
    "messages/fr-CA.json": JSON.stringify({ welcome: {} }),
  };

  it("saves with a warning per missing key, renders each locale with fallbacks, and sends with the locale's subject", async () => {
    const user = await sender();
    const saved = await create(user, { name: "Welcome", files: FILES });
    expect(saved.status).toBe(201);
    expect(saved.body.warnings).toEqual([
      { field: "files.messages/fr.json", message: "missing welcome.title: falls back to en", kind: "messages" },
      { field: "files.messages/fr-CA.json", message: "missing subject: falls back to fr", kind: "messages" },
      { field: "files.messages/fr-CA.json", message: "missing welcome.title: falls back to en", kind: "messages" },
      { field: "files.messages/fr-CA.json", message: "missing welcome.items: falls back to fr", kind: "messages" },
    ]);
    const id: string = saved.body.template.id;
    expect(saved.body.template).toMatchObject({ locales: ["en", "fr", "fr-CA"], default_locale: "en" });

    const text = (html: string) =>
      html
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim();
    const shown: Record<string, string> = {};
    for (const [asked, count] of [
      ["en", 1],
      ["fr", 2],
      ["fr-CA", 1],
      ["de", 5],
    ] as const) {
      const rendered = await render(user, id, { locale: asked, variables: { name: "Zoé", count } });
      expect(rendered.status).toBe(200);
      expect(Object.keys(rendered.body)).toEqual(["success", "locale", "html"]);
      shown[`${rendered.body.locale} ${count}`] = text(rendered.body.html);
    }
    expect(shown).toEqual({
      "en 1": "Hello Zoé 1 item",
      "fr 2": "Hello Zoé 2 articles",
      "fr-CA 1": "Hello Zoé 1 article",
      "en 5": "Hello Zoé 5 items",
    });

    const sent = await sendEmail(user, {
      template_id: id,
      to: "ann@example.com",
      locale: "fr-CA",
      variables: { name: "Zoé" },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({
      id: expect.any(String),
      from: `hello@${user.domain}`,
      to: ["ann@example.com"],
      subject: "Bienvenue, Zoé",
      locale: "fr-CA",
      sent_at: ISO,
    });
    expect((await email(user, sent.body.data.id)).body.email).toMatchObject({
      subject: "Bienvenue, Zoé",
      locale: "fr-CA",
    });

    const batch = await call(sendBatch, "/api/v1/send/batch", {
      method: "POST",
      headers: auth(user),
      body: {
        emails: [
          { template_id: id, to: "ann@example.com", locale: "fr", variables: { name: "Léa" } },
          { template_id: id, to: "bob@example.com", variables: { name: "Bo" } },
          { template_id: id, to: "cy@example.com", subject: "Mine", locale: "de" },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(
      batch.body.data.map(({ subject, locale }: { subject: string; locale: string }) => [subject, locale]),
    ).toEqual([
      ["Bienvenue, Léa", "fr"],
      ["Welcome, Bo", "en"],
      ["Mine", "en"],
    ]);
  });

  it("previews an unsaved template in each locale, as the dashboard's editor and template page do", async () => {
    const user = await sender();
    const preview = async (locale: string | undefined) => {
      const result = await renderDraft(user.accountId, { files: FILES, entry: "email.tsx", locale }, null);
      if (!result.ok) throw new Error(result.message);
      return result.html
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim();
    };
    expect(await preview(undefined)).toBe("Hello Ada 2 items");
    expect(await preview("fr-CA")).toBe("Hello Ada 2 articles");
    const broken = { ...FILES, "messages/fr.json": JSON.stringify({ welcome: { items: "{count, plural, one {#}" } }) };
    expect(await renderDraft(user.accountId, { files: broken, entry: "email.tsx" }, null)).toEqual({
      ok: false,
      path: "messages/fr.json",
      message: expect.stringMatching(/^messages\/fr\.json welcome\.items: is not a valid ICU message/),
    });
  });

  it("refuses at save a messages file the template imports that no locale has", async () => {
    const user = await sender();
    const files = { ...FILES, "messages/fr-CA.json": undefined };
    delete files["messages/fr-CA.json"];
    const saved = await create(user, { name: "Welcome", files });
    expect(saved.status).toBe(400);
    expect(saved.body.details).toEqual([{ field: "files.email.tsx", message: expect.stringContaining("fr-CA.json") }]);
  });

  it("is pushed from CI with its messages (bin/push-templates.mjs), and no other .json", async () => {
    const user = await sender();
    // The API's template routes behind a real HTTP server, as the script reaches a deployment.
    const serve = async (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const [, id] = /^\/api\/v1\/templates(?:\/([^/]+))?$/.exec(request.url ?? "") ?? [];
      const result = await call(id === undefined ? postTemplate : putTemplate, request.url!, {
        method: request.method,
        headers: { "x-api-key": String(request.headers["x-api-key"]) },
        body: Buffer.concat(chunks).toString(),
        params: id === undefined ? {} : { id },
      });
      response.writeHead(result.status, { "content-type": "application/json" }).end(result.text);
    };
    const server = createServer((request, response) => void serve(request, response));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const root = await mkdtemp(path.join(tmpdir(), "letterpress-ci-"));
      await mkdir(path.join(root, "welcome", "messages"), { recursive: true });
      for (const [name, content] of Object.entries(FILES)) await writeFile(path.join(root, "welcome", name), content);
      await writeFile(path.join(root, "welcome", "package.json"), "{}");
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
      await promisify(execFile)("node", ["bin/push-templates.mjs", root], {
        env: { ...process.env, LETTERPRESS_BASE_URL: url, LETTERPRESS_API_KEY: user.key },
      });
      expect((await details(user, "welcome")).body.template).toMatchObject({
        locales: ["en", "fr", "fr-CA"],
        default_locale: "en",
      });
    } finally {
      server.close();
    }
  });
});
