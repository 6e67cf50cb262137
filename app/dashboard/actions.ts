"use server";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect, unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { clientAddress } from "@/lib/api/client-address";
import { jsonTextProblem } from "@/lib/api/json-body";
import { API_KEY_KINDS, API_KEY_SCOPES, type ApiKeyScope } from "@/lib/api-keys";
import { AppError, type SourceProblem } from "@/lib/errors";
import { requireAccount } from "@/lib/auth/current";
import { getConfig } from "@/lib/config";
import { MAX_TEMPLATE_DESCRIPTION_CHARS, MAX_TEMPLATE_NAME_CHARS, MAX_TEMPLATE_SOURCE_CHARS } from "@/lib/limits";
import { admitSignedInPreview } from "@/lib/dashboard/preview";
import { createApiKey, revokeApiKey } from "@/lib/db/api-keys";
import { removeCatalogueTemplate } from "@/lib/catalogue-library";
import { findSendingDomain } from "@/lib/db/domains";
import { registerSendingDomain, verifySendingDomain } from "@/lib/domains";
import { addLibraryEntry, restorePurchasedEntry } from "@/lib/db/library";
import { findCatalogueTemplate } from "@/lib/db/templates";
import { cancelEmailOrThrow } from "@/lib/emails";
import { getPaymentProcessor } from "@/lib/payments";
import { isPlanName } from "@/lib/plans";
import { holdsNul } from "@/lib/schemas/common";
import { removeSuppressionOrThrow } from "@/lib/suppressions";
import { sendEmail } from "@/lib/send/pipeline";
import { publishDraft, restoreVersion, type PublishedBy } from "@/lib/db/template-versions";
import { getTemplateVersionOrThrow } from "@/lib/template-versions";
import { type TemplateFiles } from "@/lib/template-files";
import {
  createTemplateFromSource,
  deleteTemplateOrThrow,
  replaceTemplateFromSource,
  templateFilesRefused,
  type NewTemplateSource,
} from "@/lib/user-templates";
import { KEY_EXPIRY_DAYS, NO_EXPIRY } from "./settings/api-keys/key-expiry";

// Dashboard mutations. Each re-checks the session (Server Actions are public endpoints; Next also refuses a
// cross-origin POST to them, and proxy.ts one without Origin) and calls the same lib/ services the API and CLI use.

/** What the versions the dashboard publishes record of who published them. */
const SIGNED_IN: PublishedBy = { via: "session" };

export type ActionState = {
  status: "idle" | "success" | "error";
  message?: string;
  fields?: Record<string, string>;
  /** What was submitted, given back on an error: React resets a form after its action, to these values. */
  values?: Record<string, string>;
};

/**
 * What a form shows for a failed action: an AppError's message (lib/errors.ts); anything else is a bug, logged, and
 * shown as the generic message. Next's own control flow (redirect, notFound) is rethrown.
 */
function formMessage(error: unknown): string {
  unstable_rethrow(error);
  if (error instanceof AppError) return error.message;
  console.error(
    JSON.stringify({
      level: "error",
      message: "dashboard action failed",
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    }),
  );
  return "Something went wrong on our side. Please try again in a moment.";
}

// ---------- API keys ----------

export type CreateKeyState = ActionState & { id?: string; key?: string; name?: string; scope?: ApiKeyScope };

// PostgreSQL's text cannot hold the NUL character: a field holding one is refused before anything is stored.
const NUL_MESSAGE = "Use letters, digits and punctuation: not the NUL character";

const newKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the key a name")
    .max(64, "Use at most 64 characters")
    .refine((name) => !holdsNul(name), NUL_MESSAGE),
  kind: z.enum(API_KEY_KINDS, "Choose live or test"),
  scope: z.enum(API_KEY_SCOPES, "Choose full access or sending access"),
  // Empty: the key may send from any of the account's domains. That the domain is the account's is checked where the
  // key is stored.
  domain: z
    .string()
    .trim()
    .max(253, "Choose one of your sending domains")
    .refine((domain) => !holdsNul(domain), "Choose one of your sending domains")
    .transform((domain) => domain || null),
  expiresInDays: z
    .string()
    .refine(
      (days) => days === NO_EXPIRY || KEY_EXPIRY_DAYS.some((offered) => String(offered) === days),
      "Choose one of the expiries offered",
    )
    .transform((days) => (days === NO_EXPIRY ? null : new Date(Date.now() + Number(days) * 86_400_000))),
});

export async function createApiKeyAction(_previous: CreateKeyState, formData: FormData): Promise<CreateKeyState> {
  const account = await requireAccount("/dashboard/settings/api-keys");
  const values = {
    name: String(formData.get("name") ?? ""),
    kind: String(formData.get("kind") ?? "live"),
    scope: String(formData.get("scope") ?? "full_access"),
    domain: String(formData.get("domain") ?? ""),
    expiresInDays: String(formData.get("expiresInDays") ?? NO_EXPIRY),
  };
  const parsed = newKeySchema.safeParse(values);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    return { status: "error", message: parsed.error.issues[0].message, fields, values };
  }
  const { name, kind, scope, domain, expiresInDays } = parsed.data;
  let created;
  try {
    created = await createApiKey(account.id, { name, kind, scope, domain, expiresAt: expiresInDays });
  } catch (error) {
    if (!(error instanceof AppError && error.code === "DOMAIN_NOT_FOUND"))
      return { status: "error", message: formMessage(error), values };
    // Removed in another tab, or a crafted request.
    const message = `${domain?.trim().toLowerCase()} is not one of your sending domains`;
    return { status: "error", message, fields: { domain: message }, values };
  }
  revalidatePath("/dashboard/settings/api-keys");
  revalidatePath("/dashboard");
  return { status: "success", id: created.id, key: created.key, name: created.name, scope: created.scope };
}

export async function revokeApiKeyAction(formData: FormData): Promise<void> {
  const account = await requireAccount("/dashboard/settings/api-keys");
  const id = z.uuid().safeParse(formData.get("id"));
  if (id.success) await revokeApiKey(id.data, account.id);
  revalidatePath("/dashboard/settings/api-keys");
}

// ---------- Library ----------

export type AddTemplateState = ActionState & { templateId?: string; code?: string };

export async function addTemplateAction(_previous: AddTemplateState, formData: FormData): Promise<AddTemplateState> {
  const account = await requireAccount("/dashboard/catalogue");
  const templateId = String(formData.get("templateId") ?? "");
  const template = await findCatalogueTemplate(templateId);
  if (!template) return { status: "error", message: "That template is no longer in the catalogue." };
  const paid = Number(template.price) > 0;
  let restored = false;
  try {
    if (!paid) {
      await addLibraryEntry(account.id, template.id, { processor: "none" });
    } else if (await restorePurchasedEntry(account.id, template.id)) {
      // Bought before and removed since: back as purchased, as POST /library puts it, not charged again.
      restored = true;
    } else {
      const processor = getPaymentProcessor();
      if (!processor) return { status: "error", message: "Purchases are not available on this deployment yet." };
      const outcome = await processor.startTemplatePurchase({
        accountId: account.id,
        templateId: template.id,
        returnUrl: `${getConfig().siteUrl}/dashboard/catalogue`,
      });
      if (!outcome.completed) redirect(outcome.redirectUrl);
    }
  } catch (error) {
    // Next's redirect to the checkout is thrown from inside this try; formMessage rethrows it.
    const code = error instanceof AppError ? { code: error.code } : {};
    return { status: "error", ...code, message: formMessage(error), templateId: template.id };
  }
  revalidatePath("/dashboard/catalogue");
  revalidatePath("/dashboard/library");
  revalidatePath("/dashboard");
  return {
    status: "success",
    templateId: template.id,
    message: restored
      ? `“${template.name}” is back in your library. You bought it before, so nothing was charged.`
      : paid
        ? `Purchased “${template.name}”. It is in your library now.`
        : `Added “${template.name}” to your library.`,
  };
}

/**
 * Takes a catalogue template out of the account's library as DELETE /library/{id} does, and goes to the library,
 * which says what was removed.
 */
export async function removeFromLibraryAction(formData: FormData): Promise<ActionState> {
  const id = String(formData.get("id") ?? "");
  const account = await requireAccount(`/dashboard/library/${encodeURIComponent(id)}`);
  try {
    await removeCatalogueTemplate(account.id, id);
  } catch (error) {
    // Removed meanwhile (in another tab, through the API), or a crafted request.
    if (error instanceof AppError && error.code === "TEMPLATE_NOT_FOUND")
      return { status: "error", message: "This template is not in your library any more: it may have been removed." };
    return { status: "error", message: formMessage(error) };
  }
  revalidatePath("/dashboard", "layout");
  redirect("/dashboard/library?removed=1");
}

// ---------- Templates ----------

/** A failed save's compile error: where it is (`path`: the file, when the template has several). */
export type CreateTemplateState = ActionState & { line?: number; column?: number; path?: string };

const newTemplateSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the template a name")
    .max(MAX_TEMPLATE_NAME_CHARS, `Use at most ${MAX_TEMPLATE_NAME_CHARS} characters`)
    .refine((name) => !holdsNul(name), NUL_MESSAGE),
  description: z
    .string()
    .trim()
    .max(MAX_TEMPLATE_DESCRIPTION_CHARS, `Use at most ${MAX_TEMPLATE_DESCRIPTION_CHARS} characters`)
    .refine((description) => !holdsNul(description), NUL_MESSAGE),
  code: z.string().min(1, "Write the template's code").max(MAX_TEMPLATE_SOURCE_CHARS, "The source is too long"),
});

/**
 * The editor's files (`files`: JSON of `{ "<path>": "<source>" }`, posted when it has more than one tab) and their
 * entry, or null when it posted one source. Paths and sizes are checked by checkTemplate, as for every save; this
 * only bounds the JSON before it is parsed.
 */
function readPostedFiles(formData: FormData): { files: TemplateFiles; entry: string } | null {
  const posted = formData.get("files");
  if (typeof posted !== "string" || posted === "") return null;
  // Every character of a source can take at most six in JSON (\uXXXX), plus the paths and punctuation.
  if (posted.length > 6 * MAX_TEMPLATE_SOURCE_CHARS + 64 * 1024) throw templateFilesRefused([TOO_LARGE]);
  // As a request's JSON body is: counted before it is parsed (a megabyte of keys would hold the event loop).
  const shape = jsonTextProblem(Buffer.from(posted));
  if (shape) throw templateFilesRefused([{ field: "files", message: shape.message }]);
  let files: unknown;
  try {
    files = JSON.parse(posted);
  } catch {
    throw templateFilesRefused([{ field: "files", message: "could not be read" }]);
  }
  const parsed = z.record(z.string(), z.string()).safeParse(files);
  if (!parsed.success) throw templateFilesRefused([{ field: "files", message: "could not be read" }]);
  return { files: parsed.data, entry: String(formData.get("entry") ?? "") };
}

const TOO_LARGE = {
  field: "files",
  message: `must hold at most ${MAX_TEMPLATE_SOURCE_CHARS.toLocaleString("en-US")} characters of source in all`,
};

/** The editor's form read and checked: the template to save, or the state that says what is wrong. */
function readTemplateForm(
  formData: FormData,
):
  | { ok: true; template: NewTemplateSource; namesFiles: boolean; values: Record<string, string> }
  | { ok: false; state: CreateTemplateState } {
  const values = { name: String(formData.get("name") ?? ""), description: String(formData.get("description") ?? "") };
  let several: { files: TemplateFiles; entry: string } | null;
  try {
    several = readPostedFiles(formData);
  } catch (error) {
    return { ok: false, state: { status: "error", ...describeTemplateError(error, true), values } };
  }
  // The entry's source stands for the files in the checks of the form's own fields.
  const code = several
    ? Object.hasOwn(several.files, several.entry)
      ? several.files[several.entry]
      : ""
    : (formData.get("code") ?? "");
  const parsed = newTemplateSchema.safeParse({ ...values, code });
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    return { ok: false, state: { status: "error", message: "Check the highlighted fields.", fields, values } };
  }
  const { name, description } = parsed.data;
  const template = several ? { name, description, ...several } : { name, description, code: parsed.data.code };
  return { ok: true, template, namesFiles: several !== null, values };
}

export async function createTemplateAction(
  _previous: CreateTemplateState,
  formData: FormData,
): Promise<CreateTemplateState> {
  const account = await requireAccount("/dashboard/templates/new");
  const posted = readTemplateForm(formData);
  if (!posted.ok) return posted.state;
  let created: { id: string };
  try {
    // Saving compiles the code and renders it once in the sandbox: the same work as a preview, under the same limits.
    await admitSignedInPreview(account.id, clientAddress(await headers()));
    created = await createTemplateFromSource(account.id, { ...posted.template, publishedBy: SIGNED_IN });
  } catch (error) {
    return { status: "error", ...describeTemplateError(error, posted.namesFiles), values: posted.values };
  }
  revalidatePath("/dashboard/library");
  redirect(`/dashboard/library/${created.id}?created=1`);
}

/**
 * Saves the editor's files as the draft of the account's template `id` (its name and description too, which are not
 * versioned), after the same checks as a new template; sends keep using the published version until it is published.
 */
export async function saveDraftAction(
  _previous: CreateTemplateState,
  formData: FormData,
): Promise<CreateTemplateState> {
  const id = String(formData.get("id") ?? "");
  const account = await requireAccount(`/dashboard/library/${encodeURIComponent(id)}/edit`);
  const posted = readTemplateForm(formData);
  if (!posted.ok) return posted.state;
  let saved: { id: string } | null;
  try {
    await admitSignedInPreview(account.id, clientAddress(await headers()));
    saved = await replaceTemplateFromSource(account.id, id, { ...posted.template, publish: false });
  } catch (error) {
    return { status: "error", ...describeTemplateError(error, posted.namesFiles), values: posted.values };
  }
  if (!saved) return { status: "error", message: NOT_YOURS, values: posted.values };
  revalidatePath("/dashboard/library", "layout");
  redirect(`/dashboard/library/${saved.id}?draft=saved`);
}

// A template deleted meanwhile (in another tab, through the API), or a crafted request.
const NOT_YOURS = "This template is not one of yours any more: it may have been deleted.";

/** A revision or version posted by a form: plain decimal digits within PostgreSQL's integer, else null. */
function postedNumber(formData: FormData, name: string): number | null {
  const raw = String(formData.get(name) ?? "");
  const value = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : NaN;
  return value <= 2_147_483_647 ? value : null;
}

/**
 * Publishes the draft of the account's template `id` as POST /templates/{id}/publish does, at the revision the page
 * showed: a draft saved since (in another tab, through the API) is refused with the API's message rather than
 * published unseen.
 */
export async function publishDraftAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const id = String(formData.get("id") ?? "");
  const account = await requireAccount(`/dashboard/library/${encodeURIComponent(id)}`);
  const revision = postedNumber(formData, "revision");
  if (revision === null) return { status: "error", message: "Reload the page to see the draft, then publish it." };
  let version: number;
  try {
    const published = await publishDraft(account.id, id, revision, SIGNED_IN);
    if (!published) return { status: "error", message: NOT_YOURS };
    version = published.version;
  } catch (error) {
    return { status: "error", message: formMessage(error) };
  }
  revalidatePath("/dashboard/library", "layout");
  return { status: "success", message: `Published the draft as version ${version}. Sends use it from now on.` };
}

/**
 * Copies version `version` of the account's template `id` into its draft, as POST /templates/{id}/versions/{n}/restore
 * does, and with `publish` "1" publishes it at once.
 */
export async function restoreVersionAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const id = String(formData.get("id") ?? "");
  const account = await requireAccount(`/dashboard/library/${encodeURIComponent(id)}`);
  const version = postedNumber(formData, "version");
  if (version === null) return { status: "error", message: "Choose a version of the template to restore." };
  const publish = formData.get("publish") === "1";
  let message: string;
  try {
    const restored = await restoreVersion(account.id, id, version, publish, SIGNED_IN);
    if (!restored) return { status: "error", message: NOT_YOURS };
    message = restored.version
      ? `Restored version ${version} and published it as version ${restored.version.version}.`
      : `Restored version ${version} into the draft. Publish it to send it.`;
  } catch (error) {
    return { status: "error", message: formMessage(error) };
  }
  revalidatePath("/dashboard/library", "layout");
  return { status: "success", message };
}

/**
 * Deletes the account's template `id` as DELETE /templates/{id} does (its versions, draft and alias with it), and goes
 * to the library, which says what was deleted.
 */
export async function deleteTemplateAction(formData: FormData): Promise<ActionState> {
  const id = String(formData.get("id") ?? "");
  const account = await requireAccount(`/dashboard/library/${encodeURIComponent(id)}`);
  try {
    await deleteTemplateOrThrow(account.id, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "TEMPLATE_NOT_FOUND")
      return { status: "error", message: NOT_YOURS };
    return { status: "error", message: formMessage(error) };
  }
  revalidatePath("/dashboard", "layout");
  redirect("/dashboard/library?deleted=1");
}

export type VersionFiles = { ok: true; files: TemplateFiles } | { ok: false; message: string };

/** The files of version `version` of the account's template: what the versions panel diffs, in the browser. */
export async function versionFilesAction(templateId: string, version: number): Promise<VersionFiles> {
  const account = await requireAccount(`/dashboard/library/${encodeURIComponent(String(templateId))}`);
  try {
    const found = await getTemplateVersionOrThrow(account.id, String(templateId), String(version));
    return { ok: true, files: found.version.files };
  } catch (error) {
    return { ok: false, message: formMessage(error) };
  }
}

/**
 * What the editor shows for a failed save: a refused source (a compile error with its position, a refused file or
 * path) and its file when `namesFiles` (the editor posted several), or formMessage's (the trial render failing, say).
 */
function describeTemplateError(error: unknown, namesFiles: boolean): SourceProblem {
  if (!(error instanceof AppError && error.options.source)) return { message: formMessage(error) };
  const { path, ...problem } = error.options.source;
  return namesFiles && path !== undefined ? { ...problem, path } : problem;
}

// ---------- Emails ----------

/**
 * Cancels a scheduled email as POST /emails/{id}/cancel does (at Resend too when it holds the email). A refusal (it
 * was sent or canceled meanwhile, or the provider did not answer) comes back with the API's message.
 */
export async function cancelEmailAction(formData: FormData): Promise<ActionState> {
  const account = await requireAccount("/dashboard/emails");
  let outcome: ActionState = { status: "success" };
  try {
    await cancelEmailOrThrow(account.id, String(formData.get("id") ?? ""));
  } catch (error) {
    outcome = { status: "error", message: formMessage(error) };
  }
  // A refused cancel refreshes too: the page then shows the status that made it refused. A cancel gives its email
  // back to the month's count, which the overview and Usage show.
  revalidatePath("/dashboard", "layout");
  return outcome;
}

/** Lets the account send to a suppressed address again, as DELETE /suppressions/{email} does. */
export async function removeSuppressionAction(formData: FormData): Promise<void> {
  const account = await requireAccount("/dashboard/emails/suppressions");
  try {
    await removeSuppressionOrThrow(account.id, String(formData.get("email") ?? ""));
  } catch (error) {
    // Removed meanwhile (another tab, the API): the address is not suppressed, which is what was asked.
    if (!(error instanceof AppError && error.code === "SUPPRESSION_NOT_FOUND")) throw error;
  }
  revalidatePath("/dashboard/emails/suppressions");
}

export type SendTestState = ActionState & { emailId?: string };

/** What the template page's "Send test email" sends: the form's fields and the variables the preview shows. */
export type TestSendRequest = {
  templateId: string;
  to: string;
  subject: string;
  /** Empty: the default sender. */
  from: string;
  variables: Record<string, unknown>;
};

/**
 * The template page's "Send test email": POST /send's body, sent as a test key's send is (lib/send/caller.ts): kept in
 * the outbox whatever the provider, marked test, counted against the day's test sends and not the month's emails, and
 * not an API call. Answers the email's id, for a link to its page.
 */
export async function sendTestEmailAction(request: TestSendRequest): Promise<SendTestState> {
  // A Server Action's argument is whatever the request holds: sendEmail checks each field as POST /send checks its body.
  const { templateId, to, subject, from, variables } = (request ?? {}) as Partial<TestSendRequest>;
  const account = await requireAccount(`/dashboard/library/${encodeURIComponent(String(templateId))}`);
  try {
    // Not an API call, yet a render in the sandbox: limited as the dashboard's previews are, before any work.
    await admitSignedInPreview(account.id, clientAddress(await headers()));
    const { body } = await sendEmail(
      { accountId: account.id, plan: account.plan, apiKey: null, test: true },
      { template_id: templateId, to, subject, variables, ...(from ? { from } : {}) },
      null,
    );
    return { status: "success", message: `Test sent to ${body.data.to.join(", ")}.`, emailId: body.data.id };
  } catch (error) {
    // Refused fields (`to`, `variables.<name>`) each on a line of their own, as the API's details list them.
    const details = error instanceof AppError && Array.isArray(error.options.details) ? error.options.details : [];
    const lines = details.map((detail: { field: string; message: string }) => `• ${detail.field}: ${detail.message}`);
    return { status: "error", message: [formMessage(error), ...lines].join("\n") };
  }
}

// ---------- Domains ----------

const domainSchema = z.object({
  domain: z.string().trim().min(1, "Enter a domain, such as mail.example.com"),
  defaultSender: z.string().trim().max(320).optional(),
});

export async function addDomainAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const account = await requireAccount("/dashboard/domains");
  const values = {
    domain: String(formData.get("domain") ?? ""),
    defaultSender: String(formData.get("defaultSender") ?? ""),
  };
  const parsed = domainSchema.safeParse({ domain: values.domain, defaultSender: values.defaultSender || undefined });
  if (!parsed.success)
    return {
      status: "error",
      message: parsed.error.issues[0].message,
      fields: { domain: parsed.error.issues[0].message },
      values,
    };
  if (await findSendingDomain(account.id, parsed.data.domain)) {
    return {
      status: "error",
      message: `${parsed.data.domain} is already on your list.`,
      fields: { domain: "Already added" },
      values,
    };
  }
  try {
    const outcome = await registerSendingDomain(account.id, parsed.data);
    revalidatePath("/dashboard/domains");
    return {
      status: "success",
      message:
        outcome.mode === "resend"
          ? outcome.message
          : `Added ${outcome.domain.domain}. Mark it verified to send from it.`,
    };
  } catch (error) {
    const message = formMessage(error);
    return { status: "error", message, ...(error instanceof AppError ? { fields: { domain: message } } : {}), values };
  }
}

/**
 * Verification: with Resend configured, asks Resend to check the DNS records again. In the embedded default there is
 * no DNS, and "mark as verified" stands in for it.
 */
export async function verifyDomainAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const account = await requireAccount("/dashboard/domains");
  const id = String(formData.get("id") ?? "");
  try {
    let message: string;
    if (getConfig().resend) {
      message = (await verifySendingDomain(account.id, id)).message;
    } else {
      const domain = String(formData.get("domain") ?? "");
      const current = await findSendingDomain(account.id, domain);
      if (!current) return { status: "error", message: "That domain is no longer on your list." };
      const outcome = await registerSendingDomain(account.id, { domain: current.domain, markVerified: true });
      message = `${outcome.domain.domain} is verified. You can send from it now.`;
    }
    revalidatePath("/dashboard/domains");
    revalidatePath("/dashboard");
    return { status: "success", message };
  } catch (error) {
    return { status: "error", message: formMessage(error) };
  }
}

export async function updateDefaultSenderAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const account = await requireAccount("/dashboard/domains");
  const domain = String(formData.get("domain") ?? "");
  const sender = String(formData.get("defaultSender") ?? "").trim();
  const current = await findSendingDomain(account.id, domain);
  if (!current) return { status: "error", message: "That domain is no longer on your list." };
  if (!z.email().safeParse(sender).success)
    return { status: "error", message: "Enter an email address", fields: { defaultSender: "Enter an email address" } };
  try {
    await registerSendingDomain(account.id, { domain: current.domain, defaultSender: sender });
  } catch (error) {
    const message = formMessage(error);
    return { status: "error", message, ...(error instanceof AppError ? { fields: { defaultSender: message } } : {}) };
  }
  revalidatePath("/dashboard/domains");
  return { status: "success", message: "Saved." };
}

// ---------- Plan ----------

export async function changePlanAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const account = await requireAccount("/dashboard/billing");
  const plan = formData.get("plan");
  const processor = getPaymentProcessor();
  if (!processor) return { status: "error", message: "Plan changes are not available on this deployment yet." };
  if (!isPlanName(plan) || plan === account.plan) return { status: "idle" };
  let outcome;
  try {
    outcome = await processor.startPlanChange({
      accountId: account.id,
      plan,
      returnUrl: `${getConfig().siteUrl}/dashboard/billing`,
    });
  } catch (error) {
    return { status: "error", message: formMessage(error) };
  }
  if (!outcome.completed) redirect(outcome.redirectUrl);
  revalidatePath("/dashboard", "layout");
  return { status: "success", message: `You're on the ${outcome.plan} plan now.` };
}

export async function openCustomerPortalAction(): Promise<void> {
  const account = await requireAccount("/dashboard/billing");
  const processor = getPaymentProcessor();
  const url = await processor
    ?.customerPortalUrl?.({ accountId: account.id, returnUrl: `${getConfig().siteUrl}/dashboard/billing` })
    .catch(() => null);
  redirect(url ?? "/dashboard/billing?portal=unavailable");
}
