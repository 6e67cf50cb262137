import { checkCompatibility } from "@/lib/render/compatibility";
import { compatibilityWarnings, type RenderWarning } from "@/lib/render/warnings";

/**
 * The `warnings` member of a render's answer for `html`: `before` (the variables' warnings, Gmail clipping), then its
 * email client support; none when both are empty, as a render leaves `warnings` out.
 */
export function renderWarnings(html: string, before: RenderWarning[] = []): { warnings?: RenderWarning[] } {
  const warnings = [...before, ...compatibilityWarnings(checkCompatibility(html))];
  return warnings.length > 0 ? { warnings } : {};
}
