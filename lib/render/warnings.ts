import { GMAIL_CLIP_BYTES } from "@/lib/limits";

import type { ValidationDetail } from "@/lib/errors";

/** A `warnings` entry of a render or send: `field` is a dotted path (`variables.customer_name`) or `html`. */
export type RenderWarning = ValidationDetail;

/** The warning for HTML of `htmlBytes` bytes, when Gmail would clip it. */
export function gmailClipWarning(htmlBytes: number): RenderWarning | null {
  if (htmlBytes <= GMAIL_CLIP_BYTES) return null;
  return {
    field: "html",
    message: `The HTML is ${Math.ceil(htmlBytes / 1024).toLocaleString("en-US")} KB; Gmail clips messages past ${GMAIL_CLIP_BYTES / 1024} KB and shows a "View entire message" link instead of the rest`,
  };
}

/** The warnings with the HTML's, when there are any: `warnings` is left out of a body when empty. */
export function withHtmlWarning(warnings: readonly RenderWarning[], htmlBytes: number): RenderWarning[] | undefined {
  const clip = gmailClipWarning(htmlBytes);
  const all = clip ? [...warnings, clip] : warnings;
  return all.length > 0 ? [...all] : undefined;
}
