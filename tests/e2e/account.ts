import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { APIResponse, Page } from "@playwright/test";
import { open } from "./story-page";
import { appLogFile, baseUrl, url } from "./served-app";

// A fresh account and what a file's story needs in it, made through the app's own pages, forms and API as a user
// would: each file signs up its own account, so it runs alone and leaves nothing for another file.

export const PASSWORD = "correct horse battery staple";

export const newEmailAddress = () => `e2e-${randomUUID().slice(0, 8)}@example.com`;

/**
 * The sign-up emails the app wrote to its log for `to` (no email provider is configured), oldest first, once there
 * are `count` of them: the server's output reaches the log file a moment after the form has answered.
 */
export async function loggedSignUpEmails(to: string, count: number): Promise<{ subject: string; text: string }[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const emails = readFileSync(appLogFile, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("{") && line.includes('"sign-up email (no email provider configured)"'))
      .map((line) => JSON.parse(line) as { level: string; message: string; to: string; subject: string; text: string })
      .filter((email) => email.to === to);
    if (emails.length >= count || Date.now() > deadline) return emails;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The link that finishes signing up, from the sign-up email's text. */
export function signUpLink(text: string): string | undefined {
  return /(http:\/\/\S+\/auth\/confirm\?token=[A-Za-z0-9_-]{43})$/.exec(text)?.[1];
}

/**
 * Submits the form of the page at `path` whose button is named `button` as a browser without scripts does (the app's
 * forms work without): the page's HTML is read, not loaded, and the form's fields, hidden ones included, are posted
 * with `values` in the page's session. A file's setup skips loading the pages it does not test this way. Answers the
 * HTML of the page the app answers with.
 */
async function submitForm(page: Page, path: string, button: string, values: Record<string, string>): Promise<string> {
  const answer = await postForm(page, path, button, values);
  if (!answer.ok()) throw new Error(`${button} on ${path}: ${answer.status()}`);
  return answer.text();
}

/** As submitForm, posting from `origin` (another site's, to see what the app makes of it); answers the response. */
export async function postForm(
  page: Page,
  path: string,
  button: string,
  values: Record<string, string>,
  origin = baseUrl,
): Promise<APIResponse> {
  const html = await (await page.request.get(url(path))).text();
  const form = await page.evaluate(
    ({ html, button }) => {
      const document = new DOMParser().parseFromString(html, "text/html");
      const submit = [...document.querySelectorAll("form button")].find(
        (found) => found.textContent?.trim() === button,
      );
      const form = submit?.closest("form");
      if (!form) return null;
      return {
        action: form.getAttribute("action") ?? "",
        fields: [...new FormData(form)].map(([name, value]) => [name, `${value}`]),
      };
    },
    { html, button },
  );
  if (!form) {
    const shown = html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, "").replace(/<[^>]+>/g, " ");
    throw new Error(`${path} has no form with a button named "${button}"; it shows: ${shown.replace(/\s+/g, " ")}`);
  }
  return page.request.post(new URL(form.action, url(path)).href, {
    headers: { origin },
    multipart: { ...Object.fromEntries(form.fields), ...values },
  });
}

/**
 * Signs `page` up as a new account through the sign-up form and the button of the emailed link's page (both submitted
 * without loading them); answers its address.
 */
export async function signUp(page: Page, email = newEmailAddress()): Promise<string> {
  // An invited address has its invitation in the log already.
  const before = (await loggedSignUpEmails(email, 0)).length;
  await submitForm(page, "/signup", "Create account", { email, password: PASSWORD });
  const link = (await loggedSignUpEmails(email, before + 1)).map((sent) => signUpLink(sent.text)).find(Boolean);
  if (!link) throw new Error(`no sign-up link was logged for ${email}`);
  // The button's answer sets the session cookie in the page's context; opening the Overview is for the file's tests to
  // do, when they need it (sign-up.e2e.ts does).
  const { pathname, search } = new URL(link);
  await submitForm(page, pathname + search, "Create account and sign in", {});
  if (!(await page.context().cookies(baseUrl)).some((cookie) => cookie.name === "lp-auth-token"))
    throw new Error(`the sign-up link of ${email} was refused`);
  return email;
}

/**
 * Joins the team that invited `email` as the person signed in on `page` (signed up with that address): the invitation's
 * link is read from the app's log and its page's Join button submitted.
 */
export async function acceptInvitation(page: Page, email: string, teamName: string): Promise<void> {
  const emails = await loggedSignUpEmails(email, 1);
  const link = emails.map((sent) => /(http:\/\/\S+\/invite\/[A-Za-z0-9_-]+)$/.exec(sent.text)?.[1]).find(Boolean);
  if (!link) throw new Error(`no invitation link was logged for ${email}`);
  await submitForm(page, new URL(link).pathname, `Join ${teamName}`, {});
}

/** Invites `email` to the signed-in admin's team with `role` under Settings → Team (the form submitted unloaded). */
export async function inviteMember(page: Page, email: string, role: "admin" | "member" = "member"): Promise<void> {
  await submitForm(page, "/dashboard/settings/team", "Invite", { email, role });
}

/**
 * Generates a full-access API key of `kind` named `name` under Settings → API keys (the form submitted without loading
 * the page); answers the key, which the page shows once.
 */
export async function createApiKey(page: Page, name: string, kind: "live" | "test" = "live"): Promise<string> {
  const answer = await submitForm(page, "/dashboard/settings/api-keys", "Generate API key", { name, kind });
  const key = new RegExp(`value="(lp_${kind}_[0-9A-Za-z]{49})"`).exec(answer)?.[1];
  if (!key) throw new Error(`no API key was shown for ${name}`);
  return key;
}

/** Adds free catalogue templates to the library by name; answers their ids, in the same order. */
export async function addFromCatalogue(page: Page, names: string[]): Promise<string[]> {
  await open(page, "/dashboard/catalogue", "Catalogue");
  const ids: string[] = [];
  for (const name of names) {
    const card = page.getByTestId("catalogue-card").filter({ has: page.getByRole("heading", { name, exact: true }) });
    await card.getByRole("button", { name: "Add to library" }).click();
    const href = await card.getByRole("link", { name: "Open in library" }).getAttribute("href");
    ids.push(href!.split("/").pop()!);
  }
  return ids;
}

/** Writes a one-file template through POST /api/v1/templates, authenticated by the page's session; answers its id. */
export async function createTemplateThroughApi(page: Page, name: string): Promise<string> {
  const source = [
    'import { Html, Text } from "@react-email/components";',
    "",
    'export default function Note({ who = "world" }: { who?: string }) {',
    "  return (<Html><Text>Note for {who}</Text></Html>);",
    "}",
    "",
  ].join("\n");
  const response = await page.request.post(url("/api/v1/templates"), {
    data: { name, files: { "email.tsx": source } },
  });
  if (response.status() !== 201)
    throw new Error(`POST /api/v1/templates: ${response.status()} ${await response.text()}`);
  return (await response.json()).template.id;
}

/** A template with messages for en and fr (fr lacking a key), as React Email's next-intl guide writes one. */
export async function createLocalizedTemplateThroughApi(page: Page, name: string): Promise<string> {
  const source = [
    'import { createTranslator } from "next-intl";',
    'import { Html, Text } from "@react-email/components";',
    "",
    "export default async function Receipt({ count = 2, locale }: { count?: number; locale: string }) {",
    '  const t = createTranslator({ messages: await import(`./messages/${locale}.json`), namespace: "receipt", locale });',
    '  return (<Html><Text>{t("title")}</Text><Text>{t("items", { count })}</Text></Html>);',
    "}",
    "",
  ].join("\n");
  const en = { receipt: { title: "Your receipt", items: "{count, plural, one {# item} other {# items}}" } };
  const fr = { receipt: { items: "{count, plural, one {# article} other {# articles}}" } };
  const response = await page.request.post(url("/api/v1/templates"), {
    data: {
      name,
      files: { "email.tsx": source, "messages/en.json": JSON.stringify(en), "messages/fr.json": JSON.stringify(fr) },
    },
  });
  if (response.status() !== 201)
    throw new Error(`POST /api/v1/templates: ${response.status()} ${await response.text()}`);
  return (await response.json()).template.id;
}

/** Adds `domain` under Sending domains and marks it verified (embedded mode): sends come from hello@`domain`. */
export async function addVerifiedDomain(page: Page, domain: string): Promise<void> {
  await open(page, "/dashboard/domains", "Sending domains");
  await page.getByLabel("Domain", { exact: true }).fill(domain);
  await page.getByRole("button", { name: "Add domain" }).click();
  const row = page.getByTestId("domain-row").filter({ hasText: domain });
  await row.getByRole("button", { name: "Mark as verified" }).click();
  await row.getByText("Verified", { exact: true }).waitFor();
}

/**
 * Sends an email through POST /api/v1/send, authenticated by the page's session, or by `apiKey` when given; answers
 * the email's id.
 */
export async function sendThroughApi(
  page: Page,
  email: { template_id: string; to: string; subject: string },
  apiKey?: string,
): Promise<string> {
  const response = await page.request.post(url("/api/v1/send"), {
    data: email,
    headers: apiKey ? { "X-API-Key": apiKey } : undefined,
  });
  if (response.status() !== 200) throw new Error(`POST /api/v1/send: ${response.status()} ${await response.text()}`);
  return (await response.json()).data.id;
}

/** Adds a shared component through POST /api/v1/components. */
export async function createComponentThroughApi(
  page: Page,
  component: { name: string; description?: string; files: Record<string, string> },
): Promise<void> {
  await callApi(page, "POST", "/components", 201, component);
}

/** Writes a template of several files through POST /api/v1/templates; answers its id. */
export async function createTemplateFilesThroughApi(
  page: Page,
  name: string,
  files: Record<string, string>,
): Promise<string> {
  const { template } = await callApi(page, "POST", "/templates", 201, { name, files });
  return (template as { id: string }).id;
}

/** A call to /api/v1 authenticated by the page's session, which must answer `status`; answers the body. */
async function callApi(
  page: Page,
  method: "POST" | "PATCH",
  path: string,
  status: number,
  data?: unknown,
): Promise<Record<string, unknown>> {
  const response = await page.request.fetch(url(`/api/v1${path}`), { method, data });
  if (response.status() !== status)
    throw new Error(`${method} /api/v1${path}: ${response.status()} ${await response.text()}`);
  return response.json();
}

/** Adds a webhook endpoint through POST /api/v1/webhooks; answers its id. */
export async function addWebhookThroughApi(page: Page, endpoint: { url: string; events: string[] }): Promise<string> {
  const { webhook } = await callApi(page, "POST", "/webhooks", 201, endpoint);
  return (webhook as { id: string }).id;
}

/** Changes a webhook endpoint through PATCH /api/v1/webhooks/{id}. */
export async function updateWebhookThroughApi(
  page: Page,
  id: string,
  changes: { url?: string; enabled?: boolean },
): Promise<void> {
  await callApi(page, "PATCH", `/webhooks/${id}`, 200, changes);
}

/** Sends the endpoint a test event (POST /api/v1/webhooks/{id}/test), which its delivery log then lists. */
export async function sendTestWebhookThroughApi(page: Page, id: string): Promise<void> {
  await callApi(page, "POST", `/webhooks/${id}/test`, 200);
}

/** A template of the account's own whose footer links its `unsubscribeUrl` prop, as a newsletter's does. */
export async function createUnsubscribeTemplateThroughApi(page: Page, name: string): Promise<string> {
  return createTemplateFilesThroughApi(page, name, {
    "email.tsx": [
      'import { Body, Html, Link, Text } from "@react-email/components";',
      "export default function Digest({ unsubscribeUrl }: { unsubscribeUrl?: string }) {",
      "  return (<Html><Body><Text>This week's news.</Text>",
      "    {unsubscribeUrl && <Link href={unsubscribeUrl}>Unsubscribe</Link>}</Body></Html>);",
      "}",
      "",
    ].join("\n"),
  });
}

/**
 * Sends `templateId` (one that shows `unsubscribeUrl`) to `to` with a one-click unsubscribe of `group`, and answers the
 * link's path as the email's page shows it in the rendered message.
 */
export async function unsubscribeLinkThroughApi(
  page: Page,
  templateId: string,
  to: string,
  group: string,
): Promise<string> {
  const subject = `E2E ${group}`;
  const response = await page.request.post(url("/api/v1/send"), {
    data: { template_id: templateId, to, subject, unsubscribe: { group } },
  });
  if (response.status() !== 200) throw new Error(`POST /api/v1/send: ${response.status()} ${await response.text()}`);
  await open(page, `/dashboard/emails/${(await response.json()).data.id}`, subject);
  const html = (await page.locator(`iframe[title="Email: ${subject}"]`).first().getAttribute("srcdoc")) ?? "";
  const link = /href="([^"]*\/u\/[^"]+)"/.exec(html)?.[1];
  if (!link) throw new Error("the email's HTML has no unsubscribe link");
  return new URL(link).pathname;
}
