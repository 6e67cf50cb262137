import { compile } from "html-to-text";

// `toPlainText` from @react-email/render calls html-to-text's `convert(html, options)`, which compiles the options
// (selectors, formatters, parser settings) again on every call: more than half of its ~1 ms. The same options,
// compiled once, give the same text (tests/render/render.test.ts compares the two on every catalogue template).
// Keep in step with `plainTextSelectors` in @react-email/render.
const plainTextSelectors = [
  { selector: "img", format: "skip" },
  { selector: "[data-skip-in-text=true]", format: "skip" },
  { selector: "a", options: { linkBrackets: false, hideLinkHrefIfSameAsText: true } },
  { selector: '[data-text-format="dataTable"]', format: "dataTable" },
  ...["td", "th"].map((selector) => ({
    selector,
    format: "block",
    options: { leadingLineBreaks: 1, trailingLineBreaks: 1 },
  })),
];

let converter: ((html: string) => string) | undefined;

/** The plain-text version of rendered email HTML, identical to @react-email/render's `toPlainText(html)`. */
export function toPlainText(html: string): string {
  converter ??= compile({ wordwrap: false, selectors: plainTextSelectors });
  return converter(html);
}
