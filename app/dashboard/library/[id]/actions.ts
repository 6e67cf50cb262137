"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { clientAddress } from "@/lib/api/client-address";
import { removeCatalogueTemplate } from "@/lib/catalogue/library";
import { admitSignedInPreview } from "@/lib/dashboard/preview";
import { AppError } from "@/lib/core/errors";
import { sendEmail } from "@/lib/sending/pipeline";
import { type TemplateFiles } from "@/lib/templates/files";
import {
  getTemplateVersionOrThrow,
  parseVersionNumber,
  publishTemplateOrThrow,
  restoreTemplateVersionOrThrow,
} from "@/lib/templates/versions";
import { deleteTemplateOrThrow } from "@/lib/templates/user-templates";
import { field, formAction, formMessage, refuse, runAction, type ActionState } from "../../_lib/action";
import { NOT_YOURS, SIGNED_IN, templatePage } from "../../_lib/template-form";

/** The message for a template gone meanwhile (TEMPLATE_NOT_FOUND), else formMessage's. */
function templateRefused(error: unknown): ActionState {
  if (error instanceof AppError && error.code === "TEMPLATE_NOT_FOUND") return { status: "error", message: NOT_YOURS };
  return { status: "error", message: formMessage(error) };
}

/** A revision or version posted by a form, as a path's version number is read; null when it is not one. */
function readPostedNumber(form: FormData, name: string): number | null {
  try {
    return parseVersionNumber(field(form, name));
  } catch {
    return null;
  }
}

/**
 * Takes a catalogue template out of the account's library as DELETE /library/{id} does, and goes to the library,
 * which says what was removed.
 */
export async function removeFromLibraryAction(formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: templatePage,
    input: (form) => field(form, "id"),
    run: (account, id) => removeCatalogueTemplate(account.id, id),
    refused: (error) =>
      // Removed meanwhile (in another tab, through the API), or a crafted request.
      error instanceof AppError && error.code === "TEMPLATE_NOT_FOUND"
        ? { status: "error", message: "This template is not in your library any more: it may have been removed." }
        : { status: "error", message: formMessage(error) },
    revalidate: [["/dashboard", "layout"]],
    done: () => redirect("/dashboard/library?removed=1"),
  });
}

/**
 * Publishes the draft of the account's template `id` as POST /templates/{id}/publish does, at the revision the page
 * showed: a draft saved since (in another tab, through the API) is refused with the API's message rather than
 * published unseen.
 */
export async function publishDraftAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: templatePage,
    input: (form) => {
      const revision = readPostedNumber(form, "revision");
      if (revision === null)
        return refuse<ActionState>({ status: "error", message: "Reload the page to see the draft, then publish it." });
      return { id: field(form, "id"), revision };
    },
    run: (account, { id, revision }) => publishTemplateOrThrow(account.id, id, revision, SIGNED_IN),
    refused: templateRefused,
    revalidate: [["/dashboard/library", "layout"]],
    done: ({ version }) => ({
      status: "success",
      message: `Published the draft as version ${version.version}. Sends use it from now on.`,
    }),
  });
}

/**
 * Copies version `version` of the account's template `id` into its draft, as POST /templates/{id}/versions/{n}/restore
 * does, and with `publish` "1" publishes it at once.
 */
export async function restoreVersionAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: templatePage,
    input: (form) => {
      const version = readPostedNumber(form, "version");
      if (version === null)
        return refuse<ActionState>({ status: "error", message: "Choose a version of the template to restore." });
      return { id: field(form, "id"), version, publish: form.get("publish") === "1" };
    },
    run: (account, { id, version, publish }) =>
      restoreTemplateVersionOrThrow(account.id, id, String(version), publish, SIGNED_IN),
    refused: templateRefused,
    revalidate: [["/dashboard/library", "layout"]],
    done: (restored, { version }) => ({
      status: "success",
      message: restored.version
        ? `Restored version ${version} and published it as version ${restored.version.version}.`
        : `Restored version ${version} into the draft. Publish it to send it.`,
    }),
  });
}

/**
 * Deletes the account's template `id` as DELETE /templates/{id} does (its versions, draft and alias with it), and goes
 * to the library, which says what was deleted.
 */
export async function deleteTemplateAction(formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: templatePage,
    input: (form) => field(form, "id"),
    run: (account, id) => deleteTemplateOrThrow(account.id, id),
    refused: templateRefused,
    revalidate: [["/dashboard", "layout"]],
    done: () => redirect("/dashboard/library?deleted=1"),
  });
}

export type VersionFiles = { ok: true; files: TemplateFiles } | { ok: false; message: string };

/** The files of version `version` of the account's template: what the versions panel diffs, in the browser. */
export async function versionFilesAction(templateId: string, version: number): Promise<VersionFiles> {
  return runAction(
    { templateId: String(templateId), version: String(version) },
    {
      page: ({ templateId }) => `/dashboard/library/${encodeURIComponent(templateId)}`,
      input: (submitted) => submitted,
      run: (account, { templateId, version }) => getTemplateVersionOrThrow(account.id, templateId, version),
      refused: (error): VersionFiles => ({ ok: false, message: formMessage(error) }),
      done: (found): VersionFiles => ({ ok: true, files: found.version.files }),
    },
  );
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
  /** A template with messages: the locale the page previews (resolved as a send's `locale`). */
  locale?: string;
};

/**
 * The template page's "Send test email": POST /send's body, sent as a test key's send is (lib/sending/caller.ts): kept
 * in the outbox whatever the provider, marked test, counted against the day's test sends and not the month's emails,
 * and not an API call. Answers the email's id, for a link to its page.
 */
export async function sendTestEmailAction(request: TestSendRequest): Promise<SendTestState> {
  // A Server Action's argument is whatever the request holds: sendEmail checks each field as POST /send checks its body.
  return runAction((request ?? {}) as Partial<TestSendRequest>, {
    page: ({ templateId }) => `/dashboard/library/${encodeURIComponent(String(templateId))}`,
    input: (submitted) => submitted,
    run: async (account, { templateId, to, subject, from, variables, locale }) => {
      // Not an API call, yet a render in the sandbox: limited as the dashboard's previews are, before any work.
      await admitSignedInPreview(account.id, clientAddress(await headers()));
      const { body } = await sendEmail(
        { accountId: account.id, plan: account.plan, apiKey: null, test: true },
        { template_id: templateId, to, subject, variables, ...(from ? { from } : {}), ...(locale ? { locale } : {}) },
        null,
      );
      return body.data;
    },
    refused: (error): SendTestState => {
      // Refused fields (`to`, `variables.<name>`) each on a line of their own, as the API's details list them.
      const details = error instanceof AppError && Array.isArray(error.options.details) ? error.options.details : [];
      const lines = details.map((detail: { field: string; message: string }) => `• ${detail.field}: ${detail.message}`);
      return { status: "error", message: [formMessage(error), ...lines].join("\n") };
    },
    done: (email): SendTestState => ({
      status: "success",
      message: `Test sent to ${email.to.join(", ")}.`,
      emailId: email.id,
    }),
  });
}
