import { COMPATIBILITY_CHECK, GMAIL_CLIP_BYTES } from "@/lib/core/limits";

/**
 * What a warning is about, in the order a body lists them: the variables (the commonest slip, and the one a caller can
 * fix at once), a save's messages missing from a locale (lib/templates/messages.ts), the HTML's size, then its email
 * client support (the longest list, and the least urgent).
 */
export const WARNING_KINDS = ["variables", "messages", "size", "compatibility"] as const;
export type WarningKind = (typeof WARNING_KINDS)[number];

/**
 * A `warnings` entry of a render, send or save: `field` is a dotted path (`variables.customer_name`) or `html`, `kind`
 * what it is about.
 */
export type RenderWarning = { field: string; message: string; kind: WarningKind };

/** The warnings in WARNING_KINDS order, each kind's in the order given. */
export function inKindOrder(warnings: readonly RenderWarning[]): RenderWarning[] {
  return [...warnings].sort((a, b) => WARNING_KINDS.indexOf(a.kind) - WARNING_KINDS.indexOf(b.kind));
}

/** The warning for HTML of `htmlBytes` bytes, when Gmail would clip it. */
export function gmailClipWarning(htmlBytes: number): RenderWarning | null {
  if (htmlBytes <= GMAIL_CLIP_BYTES) return null;
  return {
    field: "html",
    kind: "size",
    message: `The HTML is ${Math.ceil(htmlBytes / 1024).toLocaleString("en-US")} KB; Gmail clips messages past ${GMAIL_CLIP_BYTES / 1024} KB and shows a "View entire message" link instead of the rest`,
  };
}

/** The warnings with the HTML's, when there are any: `warnings` is left out of a body when empty. */
export function withHtmlWarning(warnings: readonly RenderWarning[], htmlBytes: number): RenderWarning[] | undefined {
  const clip = gmailClipWarning(htmlBytes);
  const all = clip ? [...warnings, clip] : warnings;
  return all.length > 0 ? inKindOrder(all) : undefined;
}

/**
 * The clients email client support is checked for, by caniemail's `family.platform` key, with the names answers use, in
 * the order they list them (lib/render/analysis/compatibility.ts checks; the dashboard's panel lists them).
 */
export const EMAIL_CLIENTS = {
  "gmail.desktop-webmail": "Gmail (web)",
  "gmail.android": "Gmail (Android)",
  "gmail.ios": "Gmail (iOS)",
  "outlook.windows": "Outlook (Windows)",
  "outlook.macos": "Outlook (macOS)",
  "outlook.outlook-com": "Outlook.com",
  "apple-mail.macos": "Apple Mail (macOS)",
  "apple-mail.ios": "Apple Mail (iOS)",
  "yahoo.desktop-webmail": "Yahoo Mail",
} as const;

/** What GET /templates/{id} answers per feature the document uses that some client does not fully support. */
export type CompatibilityEntry = { feature: string; unsupported: string[]; partial: string[] };
/** The same with where it was found (each element's tag and style) and its caniemail page, made by compatibility.ts. */
export type CompatibilityFinding = CompatibilityEntry & { elements: string[]; url: string };

/** At most this many `warnings` entries of email client support, one per feature. */
export const MAX_COMPATIBILITY_WARNINGS = 20;

/** The `warnings` entry of a render whose email client check ran past its deadline (lib/core/limits.ts). */
export const COMPATIBILITY_SKIPPED: RenderWarning = {
  field: "html",
  kind: "compatibility",
  message: `The email client check was skipped: this HTML took longer than its ${COMPATIBILITY_CHECK.deadlineMs} ms to check, so features some clients do not support may go unlisted`,
};

/**
 * The `warnings` entries of the features some client does not support, at most MAX_COMPATIBILITY_WARNINGS; for a check
 * that was skipped (null), the entry that says so.
 */
export function compatibilityWarnings(findings: readonly CompatibilityFinding[] | null): RenderWarning[] {
  if (findings === null) return [COMPATIBILITY_SKIPPED];
  return findings
    .filter((finding) => finding.unsupported.length > 0)
    .slice(0, MAX_COMPATIBILITY_WARNINGS)
    .map(({ feature, unsupported, partial }) => ({
      field: "html",
      kind: "compatibility" as const,
      message:
        `${feature} is not supported by ${unsupported.join(", ")}` +
        (partial.length > 0 ? `, partially by ${partial.join(", ")}` : ""),
    }));
}

/** The findings as GET /templates/{id} answers them. */
export function compatibilityEntries(findings: readonly CompatibilityFinding[]): CompatibilityEntry[] {
  return findings.map(({ feature, unsupported, partial }) => ({ feature, unsupported, partial }));
}
