import "server-only";
import { randomUUID } from "node:crypto";
import { createUserTemplate } from "@/lib/db/library";
import { isDeclarableVariableName } from "@/lib/render";
import { compileTemplateOffThread } from "@/lib/render/sandbox/compile-pool";
import { readPreviewProps, renderInSandbox, SandboxRenderError } from "@/lib/render/sandbox";
import type { VariableDeclaration } from "@/lib/schemas/templates";

export type NewTemplateSource = {
  name: string;
  description: string;
  code: string;
  /** Declared variables; derived from the component's PreviewProps when omitted. */
  variables?: VariableDeclaration[];
};

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
  variables: VariableDeclaration[];
  previewProps: Record<string, unknown>;
};

/**
 * Compiles a user's TSX once and proves it renders: a trial render of its PreviewProps inside the sandbox, under the
 * same limits as every later render. Nothing is stored unless both succeed.
 */
export async function checkTemplateSource(
  accountId: string,
  code: string,
  declared?: VariableDeclaration[],
): Promise<CheckedTemplate> {
  const compiled = await compileTemplateOffThread(accountId, code);
  if (!compiled.ok) {
    // The position stays apart from the message (each place that shows it says where in its own way); a compile that
    // ran past its deadline has none.
    throw new TemplateSourceError(compiled.message, compiled.line ?? null, compiled.column ?? null);
  }
  // A one-off key: the trial context is never reused for another template or user.
  const cacheKey = `trial:${randomUUID()}`;
  try {
    const previewProps = (await readPreviewProps({ owner: accountId, cacheKey, compiledCode: compiled.code })) ?? {};
    await renderInSandbox({ owner: accountId, cacheKey, compiledCode: compiled.code, props: previewProps });
    return { compiledCode: compiled.code, variables: declared ?? declareFromPreviewProps(previewProps), previewProps };
  } catch (error) {
    if (error instanceof SandboxRenderError) throw new TemplateSourceError(`The trial render failed: ${error.message}`);
    throw error;
  }
}

/** Stores a user's own template (after checking it) and adds it to their library as `created`. */
export async function createTemplateFromSource(accountId: string, input: NewTemplateSource) {
  const checked = await checkTemplateSource(accountId, input.code, input.variables);
  return createUserTemplate(accountId, {
    name: input.name,
    description: input.description,
    code: input.code,
    compiledCode: checked.compiledCode,
    variables: checked.variables,
  });
}

/**
 * Each PreviewProps key that is a declarable name becomes an optional variable of that value's type, with no default
 * of its own: sample data must never leak into real emails, so an omitted variable falls back to the component's own
 * default. Other keys declare nothing; variables of those names still reach the component.
 */
export function declareFromPreviewProps(previewProps: Record<string, unknown>): VariableDeclaration[] {
  const declarable = Object.entries(previewProps).filter(([name]) => isDeclarableVariableName(name));
  return declarable.map(([name, value]) => ({
    name,
    type: Array.isArray(value)
      ? "array"
      : value !== null && typeof value === "object"
        ? "object"
        : typeof value === "number"
          ? "number"
          : typeof value === "boolean"
            ? "boolean"
            : "string",
    required: false,
  }));
}
