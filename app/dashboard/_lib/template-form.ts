import "server-only";
import { z } from "zod";
import { jsonTextProblem } from "@/lib/api/json-body";
import { AppError, type SourceProblem } from "@/lib/core/errors";
import { MAX_TEMPLATE_DESCRIPTION_CHARS, MAX_TEMPLATE_NAME_CHARS, MAX_TEMPLATE_SOURCE_CHARS } from "@/lib/core/limits";
import { holdsNul } from "@/lib/core/schemas";
import { type TemplateFiles } from "@/lib/templates/files";
import { publishedByCaller } from "@/lib/templates/versions";
import { templateFilesRefused, type NewTemplateSource } from "@/lib/templates/user-templates";
import { field, fieldMessages, formMessage, NUL_MESSAGE, refuse, type ActionState, type Refusal } from "./action";

// What the template pages' actions share (and the component pages', whose editor posts files the same way): the
// editor's form read and checked, and how a refused save is shown.

/** What the versions the dashboard publishes record of who published them: the signed-in session. */
export const SIGNED_IN = publishedByCaller({ apiKey: null });

// A template deleted meanwhile (in another tab, through the API), or a crafted request.
export const NOT_YOURS = "This template is not one of yours any more: it may have been deleted.";

/** The page of the template a form names (`id`): where sign-in comes back to. */
export const templatePage = (form: FormData) => `/dashboard/library/${encodeURIComponent(field(form, "id"))}`;

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
export function readPostedFiles(
  formData: FormData,
): { files: TemplateFiles; entry: string; default_locale?: string } | null {
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
  // A template with messages: its default locale, when the editor names one (checked by checkTemplate).
  const defaultLocale = formData.get("default_locale");
  return {
    files: parsed.data,
    entry: String(formData.get("entry") ?? ""),
    ...(typeof defaultLocale === "string" && defaultLocale !== "" ? { default_locale: defaultLocale } : {}),
  };
}

const TOO_LARGE = {
  field: "files",
  message: `must hold at most ${MAX_TEMPLATE_SOURCE_CHARS.toLocaleString("en-US")} characters of source in all`,
};

/** A save's template, whether the editor posted several files, and the form's fields to give back on an error. */
export type PostedTemplate = { template: NewTemplateSource; namesFiles: boolean; values: Record<string, string> };

/** The editor's form read and checked: the template to save, or the state that says what is wrong. */
export function readTemplateForm(formData: FormData): PostedTemplate | Refusal<CreateTemplateState> {
  const values = { name: String(formData.get("name") ?? ""), description: String(formData.get("description") ?? "") };
  let several: ReturnType<typeof readPostedFiles>;
  try {
    several = readPostedFiles(formData);
  } catch (error) {
    return refuse<CreateTemplateState>({ status: "error", ...describeTemplateError(error, true), values });
  }
  // The entry's source stands for the files in the checks of the form's own fields.
  const code = several
    ? Object.hasOwn(several.files, several.entry)
      ? several.files[several.entry]
      : ""
    : (formData.get("code") ?? "");
  const parsed = newTemplateSchema.safeParse({ ...values, code });
  if (!parsed.success) {
    const fields = fieldMessages(parsed.error.issues);
    return refuse<CreateTemplateState>({ status: "error", message: "Check the highlighted fields.", fields, values });
  }
  const { name, description } = parsed.data;
  const template = several ? { name, description, ...several } : { name, description, code: parsed.data.code };
  return { template, namesFiles: several !== null, values };
}

/** What the editor shows for a save that threw, with the fields it gives back. */
export const saveRefused = (error: unknown, posted: PostedTemplate): CreateTemplateState => ({
  status: "error",
  ...describeTemplateError(error, posted.namesFiles),
  values: posted.values,
});

/**
 * What the editor shows for a failed save: a refused source (a compile error with its position, a refused file or
 * path) and its file when `namesFiles` (the editor posted several), or formMessage's (the trial render failing, say).
 */
export function describeTemplateError(error: unknown, namesFiles: boolean): SourceProblem {
  if (!(error instanceof AppError && error.options.source)) return { message: formMessage(error) };
  const { path, ...problem } = error.options.source;
  return namesFiles && path !== undefined ? { ...problem, path } : problem;
}
