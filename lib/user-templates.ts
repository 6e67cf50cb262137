import "server-only";
import { randomUUID } from "node:crypto";
import { createUserTemplate } from "@/lib/db/library";
import { compileTemplateOffThread } from "@/lib/render/sandbox/compile-pool";
import { readPreviewProps, renderInSandbox, SandboxRenderError } from "@/lib/render/sandbox";
import { compileVariablesSchema, schemaFromPreviewProps, variablesProblem } from "@/lib/render/variables";
import type { VariablesSchema } from "@/lib/schemas/variables";

export type NewTemplateSource = { name: string; description: string; code: string };
/** Why a template's source was refused; `line`/`column` (1-based) point at a compile error. */
export class TemplateSourceError extends Error {
  constructor(
    message: string,
    public readonly line: number | null = null,
    public readonly column: number | null = null,
  ) {
    super(message);
    this.name = "TemplateSourceError";
  }
}

export type CheckedTemplate = {
  compiledCode: string;
  variables: VariablesSchema;
  previewProps: Record<string, unknown> | null;
};

/**
 * Compiles a user's TSX once and proves it renders: a trial render of its PreviewProps inside the sandbox, under the
 * same limits as every later render. Nothing is stored unless both succeed.
 */
export async function checkTemplateSource(accountId: string, code: string): Promise<CheckedTemplate> {
  const compiled = await compileTemplateOffThread(accountId, code);
  if (!compiled.ok) {
    // The position stays apart from the message (each place that shows it says where in its own way); a compile that
    // ran past its deadline has none.
    throw new TemplateSourceError(compiled.message, compiled.line ?? null, compiled.column ?? null);
  }
  // A one-off key: the trial context is never reused for another template or user.
  const cacheKey = `trial:${randomUUID()}`;
  try {
    const previewProps = await readPreviewProps({ owner: accountId, cacheKey, compiledCode: compiled.code });
    // PreviewProps are the example GET /templates/{id} answers: variables a caller could send, and that pass.
    const tooBig = previewProps && variablesProblem(previewProps);
    if (tooBig) throw new TemplateSourceError(`PreviewProps ${tooBig}`);
    await renderInSandbox({ owner: accountId, cacheKey, compiledCode: compiled.code, props: previewProps ?? {} });
    // The props type says what the template takes; a template with untyped props is described by its PreviewProps.
    const variables = compiled.variables ?? schemaFromPreviewProps(previewProps);
    const mismatches = compiled.variables && previewProps ? compileVariablesSchema(variables)(previewProps) : [];
    if (mismatches.length > 0) {
      const [first] = mismatches;
      const more = mismatches.length > 1 ? ` (and ${mismatches.length - 1} more)` : "";
      throw new TemplateSourceError(
        `PreviewProps do not match the props type: ${first.field.replace(/^variables\./, "")} ${first.message}${more}`,
      );
    }
    return { compiledCode: compiled.code, variables, previewProps };
  } catch (error) {
    if (error instanceof SandboxRenderError) throw new TemplateSourceError(`The trial render failed: ${error.message}`);
    throw error;
  }
}

/** Stores a user's own template (after checking it) and adds it to their library as `created`. */
export async function createTemplateFromSource(accountId: string, input: NewTemplateSource) {
  const checked = await checkTemplateSource(accountId, input.code);
  return createUserTemplate(accountId, {
    name: input.name,
    description: input.description,
    code: input.code,
    compiledCode: checked.compiledCode,
    variables: checked.variables,
    previewProps: checked.previewProps,
  });
}
