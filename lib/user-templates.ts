import "server-only";
import { createUserTemplate } from "@/lib/db/library";

export type NewTemplateSource = { name: string; description: string; code: string };

/** Stores a user's own template and adds it to their library as `created`. */
export async function createTemplateFromSource(accountId: string, input: NewTemplateSource) {
  return createUserTemplate(accountId, { ...input, compiledCode: null, variables: [] });
}
