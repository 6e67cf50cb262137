"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { clientAddress } from "@/lib/api/client-address";
import { createComponentBodySchema, COMPONENT_NAME_PATTERN, type CreateComponentBody } from "@/lib/components/schemas";
import { createComponent, deleteComponent, updateComponent } from "@/lib/components/service";
import { AppError, type ValidationDetail } from "@/lib/core/errors";
import { MAX_TEMPLATE_DESCRIPTION_CHARS } from "@/lib/core/limits";
import { holdsNul } from "@/lib/core/schemas";
import { admitSignedInPreview } from "@/lib/dashboard/preview";
import { templateFilesRefused } from "@/lib/templates/user-templates";
import {
  field,
  fieldMessages,
  formAction,
  formMessage,
  isRefusal,
  NUL_MESSAGE,
  refuse,
  type ActionState,
  type Refusal,
} from "../_lib/action";
import { describeTemplateError, readPostedFiles, SIGNED_IN, type CreateTemplateState } from "../_lib/template-form";

// The Components pages' actions: a component added, saved as its next version (every published template importing it
// checked and published again with it, or none when one breaks), deleted unless a template imports it. Members may:
// they write the templates that import them.

const LIST = "/dashboard/components";
const componentPage = (name: string) => `${LIST}/${encodeURIComponent(name)}`;

/** A template an answer names (a detail's `templates.<id>`), with what it says of it; the cap's last entry names none. */
export type NamedTemplate = { template_id: string | null; message: string };

/**
 * The component editor's form: a refused save's compile error (its file, line and column), each template a refused
 * update breaks, or a saved update's templates published again with the new version.
 */
export type ComponentEditorState = CreateTemplateState & {
  broken?: NamedTemplate[];
  republished?: { template_id: string; version: number }[];
};

/** A refused delete: the templates that import the component. */
export type DeleteComponentState = ActionState & { importers?: NamedTemplate[] };

const formFields = z.object({
  name: z
    .string()
    .trim()
    .regex(COMPONENT_NAME_PATTERN, "Use 1 to 64 of a-z, 0-9 and -, starting with a letter: footer, brand-header"),
  description: z
    .string()
    .trim()
    .max(MAX_TEMPLATE_DESCRIPTION_CHARS, `Use at most ${MAX_TEMPLATE_DESCRIPTION_CHARS} characters`)
    .refine((description) => !holdsNul(description), NUL_MESSAGE),
});

type PostedComponent = { body: CreateComponentBody; values: Record<string, string> };

/**
 * The editor's form read and checked as the API checks a body (the files' count, paths and entry): the component to
 * save, or the state that says what is wrong. The editor always posts its files as JSON, one file too.
 */
function readComponentForm(form: FormData): PostedComponent | Refusal<ComponentEditorState> {
  const values = { name: field(form, "name"), description: field(form, "description") };
  const named = formFields.safeParse(values);
  if (!named.success) {
    const fields = fieldMessages(named.error.issues);
    return refuse<ComponentEditorState>({ status: "error", message: "Check the highlighted fields.", fields, values });
  }
  let posted: ReturnType<typeof readPostedFiles>;
  try {
    posted = readPostedFiles(form);
  } catch (error) {
    return refuse<ComponentEditorState>({ status: "error", ...describeTemplateError(error, true), values });
  }
  const body = createComponentBodySchema.safeParse({
    ...named.data,
    files: posted?.files ?? {},
    entry: posted?.entry,
  });
  if (!body.success) {
    // Each issue's path is the problem's whole field (`files.<path>`, `files`, `entry`).
    const problems = body.error.issues.map(({ path: [at], message }) => {
      const where = String(at);
      return { field: where, message, ...(where.startsWith("files.") ? { path: where.slice("files.".length) } : {}) };
    });
    const refused = templateFilesRefused(problems);
    return refuse<ComponentEditorState>({ status: "error", ...describeTemplateError(refused, true), values });
  }
  return { body: body.data, values };
}

function namedTemplates(error: AppError): NamedTemplate[] {
  return ((error.options.details ?? []) as ValidationDetail[]).map(({ field: named, message }) => ({
    template_id: named.startsWith("templates.") ? named.slice("templates.".length) : null,
    message,
  }));
}

const isCode = (error: unknown, code: AppError["code"]): error is AppError =>
  error instanceof AppError && error.code === code;

export async function createComponentAction(
  _previous: ComponentEditorState,
  formData: FormData,
): Promise<ComponentEditorState> {
  return formAction(formData, {
    page: `${LIST}/new`,
    input: readComponentForm,
    run: async (account, { body }) => {
      // Saving compiles every file: the same work as a template save's, under the dashboard's preview limits.
      await admitSignedInPreview(account.id, clientAddress(await headers()));
      return createComponent(account.id, body);
    },
    refused: (error, { body, values }): ComponentEditorState =>
      isCode(error, "COMPONENT_EXISTS")
        ? {
            status: "error",
            message: "Check the highlighted fields.",
            fields: { name: `You have a component named “${body.name}” already: open it to save a new version.` },
            values,
          }
        : { status: "error", ...describeTemplateError(error, true), values },
    revalidate: [LIST],
    done: (created) => redirect(`${componentPage(created.name)}?created=1`),
  });
}

/**
 * Saves the editor's files as the component's next version (`version`: the one the editor opened, to tell a save that
 * changed nothing): every template whose published version imports it is compiled and trial-rendered with it, then
 * published again; when one fails, nothing is saved and the form names each one that failed, with its error.
 */
export async function updateComponentAction(
  _previous: ComponentEditorState,
  formData: FormData,
): Promise<ComponentEditorState> {
  const name = field(formData, "name");
  return formAction(formData, {
    page: componentPage(name),
    input: (form) => {
      const posted = readComponentForm(form);
      return isRefusal(posted) ? posted : { ...posted, version: Number(field(form, "version")) };
    },
    run: async (account, { body: { files, entry, description } }) => {
      await admitSignedInPreview(account.id, clientAddress(await headers()));
      return updateComponent(account.id, name, { files, entry, description }, SIGNED_IN);
    },
    refused: (error, { values }): ComponentEditorState =>
      isCode(error, "COMPONENT_BREAKS_TEMPLATES")
        ? { status: "error", message: error.message, broken: namedTemplates(error), values }
        : { status: "error", ...describeTemplateError(error, true), values },
    // The templates published again: their pages, and the library's list.
    revalidate: [
      [LIST, "layout"],
      ["/dashboard/library", "layout"],
    ],
    done: ({ component, republished }, { version }): ComponentEditorState => ({
      status: "success",
      message:
        component.version === version
          ? `Saved. The files are as they were, so it is still version ${version}.`
          : `Saved as version ${component.version}.${republishedText(republished.length)}`,
      republished,
    }),
  });
}

function republishedText(count: number): string {
  if (count === 0) return "";
  return count === 1
    ? " The template that imports it is published again with it:"
    : ` The ${count} templates that import it are published again with it:`;
}

/** Delete, after the confirmation its button asks for; refused while a template imports it, naming them. */
export async function deleteComponentAction(formData: FormData): Promise<DeleteComponentState> {
  const name = field(formData, "name");
  return formAction(formData, {
    page: componentPage(name),
    input: () => ({}),
    run: (account) => deleteComponent(account.id, name),
    refused: (error): DeleteComponentState =>
      isCode(error, "COMPONENT_IN_USE")
        ? { status: "error", message: error.message, importers: namedTemplates(error) }
        : { status: "error", message: formMessage(error) },
    revalidate: [LIST],
    done: () => redirect(`${LIST}?deleted=1`),
  });
}
