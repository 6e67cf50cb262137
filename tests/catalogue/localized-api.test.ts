/**
 * The localized catalogue templates through the API (api-contract.md, "Localized templates"): GET /templates/{id}
 * lists their locales, render and send take `locale` resolved by lookup, the component gets the resolved tag, the
 * answer and the email record it, and a send without `subject` takes the locale's `subject` message.
 */
import { describe, expect, it } from "vitest";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { POST as sendBatch } from "@/app/api/v1/send/batch/route";
import { POST as send } from "@/app/api/v1/send/route";
import { GET as getTemplate } from "@/app/api/v1/templates/[id]/route";
import { GET as getSource } from "@/app/api/v1/templates/[id]/source/route";
import { POST as createTemplate } from "@/app/api/v1/templates/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { LOCALE_MESSAGE } from "@/lib/templates/files";
import { readFileSync } from "node:fs";
import { auth, call, ISO, sender, type TestUser } from "../support/api";

const NBSP = "\u00a0";
const render = (user: TestUser, id: string, body: Record<string, unknown>) =>
  call(postRender, `/api/v1/templates/${id}/render`, { method: "POST", params: { id }, headers: auth(user), body });
const sendEmail = (user: TestUser, body: Record<string, unknown>) =>
  call(send, "/api/v1/send", { method: "POST", headers: auth(user), body });
const variables = { userName: "Ada", productName: "Acme" };

describe("a localized catalogue template through the API", () => {
  it("lists its locales and default locale in GET /templates/{id}", async () => {
    const user = await sender();
    const got = await call(getTemplate, "/x", { params: { id: user.welcomeId }, headers: auth(user) });
    expect(got.status).toBe(200);
    expect(got.body.template).toMatchObject({ locales: ["de", "en", "es", "fr", "pt-BR"], default_locale: "en" });
  });

  it("renders in the locale resolved by lookup, and answers it", async () => {
    const user = await sender();
    const cases: [string | undefined, string, string][] = [
      ["fr", "fr", `Bienvenue sur Acme, Ada${NBSP}!`],
      ["fr-CA", "fr", `Bienvenue sur Acme, Ada${NBSP}!`],
      ["DE-at", "de", "Willkommen bei Acme, Ada!"],
      ["ja", "en", "Welcome to Acme, Ada!"],
      [undefined, "en", "Welcome to Acme, Ada!"],
    ];
    for (const [asked, resolved, heading] of cases) {
      const rendered = await render(user, user.welcomeId, { variables, ...(asked ? { locale: asked } : {}) });
      expect({ status: rendered.status, body: rendered.body }).toEqual({
        status: 200,
        body: { success: true, locale: resolved, html: expect.stringContaining(`lang="${resolved}"`) },
      });
      expect(rendered.body.html.replaceAll("<!-- -->", "")).toContain(heading);
    }
  });

  it("refuses a malformed locale with field locale", async () => {
    const user = await sender();
    const rendered = await render(user, user.welcomeId, { variables, locale: "not a tag" });
    expect({ status: rendered.status, body: rendered.body }).toEqual({
      status: 400,
      body: {
        success: false,
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        details: [{ field: "locale", message: LOCALE_MESSAGE }],
      },
    });
  });

  it("sends without a subject in the locale's subject, and records the locale on the email", async () => {
    const user = await sender();
    const sent = await sendEmail(user, {
      template_id: user.welcomeId,
      to: "ann@example.com",
      variables,
      locale: "fr-CA",
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({
      id: expect.any(String),
      from: `hello@${user.domain}`,
      to: ["ann@example.com"],
      subject: `Bienvenue sur Acme, Ada${NBSP}!`,
      locale: "fr",
      sent_at: ISO,
    });
    const recorded = await call(getEmail, "/x", { params: { id: sent.body.data.id }, headers: auth(user) });
    expect(recorded.body.email).toMatchObject({ subject: `Bienvenue sur Acme, Ada${NBSP}!`, locale: "fr" });

    const batch = await call(sendBatch, "/api/v1/send/batch", {
      method: "POST",
      headers: auth(user),
      body: {
        emails: [
          { template_id: user.welcomeId, to: "bob@example.com", variables, locale: "pt-BR" },
          { template_id: user.welcomeId, to: "cy@example.com", variables: { productName: "Acme" }, locale: "de" },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(
      batch.body.data.map(({ subject, locale }: { subject: string; locale: string }) => [subject, locale]),
    ).toEqual([
      ["Boas-vindas ao Acme, Ada!", "pt-BR"],
      ["Willkommen bei Acme!", "de"],
    ]);
  });

  it("downloads as files a user template is saved from: the component and messages/<tag>.json, rendering the same", async () => {
    const user = await sender();
    const got = await call(getSource, "/x", { params: { id: user.welcomeId }, headers: auth(user) });
    expect(got.status).toBe(200);
    const { source } = got.body;
    const tags = ["de", "en", "es", "fr", "pt-BR"];
    const onDisk = readFileSync("emails/welcome.tsx", "utf8");
    expect(source).toEqual({
      name: expect.any(String),
      description: expect.any(String),
      entry: "welcome.tsx",
      code: onDisk.replaceAll('"./_messages/welcome/', '"./messages/'),
      files: {
        "welcome.tsx": onDisk.replaceAll('"./_messages/welcome/', '"./messages/'),
        ...Object.fromEntries(
          tags.map((tag) => [
            `messages/${tag}.json`,
            `${JSON.stringify(JSON.parse(readFileSync(`emails/_messages/welcome/${tag}.json`, "utf8")), null, 2)}\n`,
          ]),
        ),
      },
    });
    expect(source.code).toContain('import fr from "./messages/fr.json";');
    const created = await call(createTemplate, "/api/v1/templates", {
      method: "POST",
      headers: auth(user),
      body: { name: "My welcome", files: source.files, entry: source.entry },
    });
    expect(created.status).toBe(201);
    expect(created.body.template).toMatchObject({ locales: tags, default_locale: "en" });
    for (const locale of ["fr", "pt-BR"]) {
      const own = await render(user, created.body.template.id, { variables, locale });
      const catalogue = await render(user, user.welcomeId, { variables, locale });
      // Byte for byte the catalogue's own render (the user template's answer adds its client support warnings).
      expect({ status: own.status, success: own.body.success, locale: own.body.locale }).toEqual({
        status: 200,
        success: true,
        locale,
      });
      expect(own.body.html).toBe(catalogue.body.html);
    }
  });
});
