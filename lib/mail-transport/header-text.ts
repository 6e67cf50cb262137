// Header-bound text: what may go into one line of a message's header. Line breaks: CR, LF, vertical tab, form feed, NEL and the Unicode line and paragraph separators
// (some mail software ends a line at each). Controls: C0, DEL and C1; in a field's own check NUL is left to the
// request-wide NUL check, which names it. Flat character classes, one pass per value.
export const LINE_BREAK = /[\n\v\f\r\u0085\u2028\u2029]/;
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_BUT_NUL = /[\u0001-\u001f\u007f-\u009f]/;
const CONTROL_BUT_NUL_AND_TAB = /[\u0001-\u0008\u000a-\u001f\u007f-\u009f]/;

/**
 * Why `value` cannot go into a header, or null. A tab is folding whitespace in an unstructured header (subject,
 * header values), so `allowTab` lets it through there; names, addresses, filenames, types and tags refuse it.
 */
export function headerTextProblem(value: string, { allowTab }: { allowTab: boolean }): string | null {
  if (LINE_BREAK.test(value)) return "must not contain line breaks";
  if ((allowTab ? CONTROL_BUT_NUL_AND_TAB : CONTROL_BUT_NUL).test(value))
    return "must not contain control characters (U+0000 to U+001F, U+007F to U+009F)";
  return null;
}
