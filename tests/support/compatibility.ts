import { render } from "@react-email/render";
import { createElement, type ComponentType } from "react";
import { getDb } from "@/lib/db/client";
import { checkCompatibility } from "@/lib/render/analysis/compatibility";
import { compatibilityEntries, compatibilityWarnings, type RenderWarning } from "@/lib/render/analysis/warnings";

/**
 * The `warnings` member of a user template render's answer for `html`: `before` (the variables' warnings, Gmail clipping), then its
 * email client support; none when both are empty, as a render leaves `warnings` out.
 */
export function renderWarnings(html: string, before: RenderWarning[] = []): { warnings?: RenderWarning[] } {
  const warnings = [...before, ...compatibilityWarnings(checkCompatibility(html))];
  return warnings.length > 0 ? { warnings } : {};
}

/** The email client support stored with a template's content when it was saved, as GET /templates/{id} answers it. */
export async function storedCompatibility(id: string): Promise<unknown> {
  const [row] = await getDb()<{ compatibility: { feature: string; unsupported: string[]; partial: string[] }[] }[]>`
    select compatibility from templates where id = ${id}`;
  return row.compatibility.map(({ feature, unsupported, partial }) => ({ feature, unsupported, partial }));
}

/** GET /templates/{id}'s `compatibility` of a component rendered with `props` (its example). */
export async function exampleCompatibility<P extends object>(component: ComponentType<P>, props: P): Promise<unknown> {
  return compatibilityEntries(checkCompatibility(await render(createElement(component, props)))!);
}
