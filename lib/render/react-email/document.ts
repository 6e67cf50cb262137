/**
 * @react-email/render's post-processing of React's stream output (node build,
 * render() without `pretty`/`plainText`, @react-email/render 2.3): strip the
 * `<link rel="preload" as="image">` hints React 19 injects for every <img>,
 * then replace any doctype with the XHTML 1.0 Transitional one.
 */

const XHTML_DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';
const LINK_TAG_PATTERN = /<link\b[^>]*\/?>/gi;
const ATTRIBUTE_PATTERN = /([a-z][a-z0-9-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/gi;

function parseAttributes(tag: string): Record<string, string> {
  const attributeSection = tag.replace(/^<[a-z][a-z0-9-]*/i, "");
  const attributes: Record<string, string> = {};
  for (const [, name, doubleQuoted, singleQuoted, unquoted] of attributeSection.matchAll(ATTRIBUTE_PATTERN)) {
    if (name === undefined) continue;
    attributes[name.toLowerCase()] = doubleQuoted ?? singleQuoted ?? unquoted ?? "";
  }
  return attributes;
}

function stripImagePreloadLinks(html: string): string {
  return html.replace(LINK_TAG_PATTERN, (tag) => {
    const attributes = parseAttributes(tag);
    return attributes.rel === "preload" && attributes.as === "image" ? "" : tag;
  });
}

/** Exactly what @react-email/render's render(element) does to React's stream output. */
export function finalizeEmailHtml(reactHtml: string): string {
  const html = stripImagePreloadLinks(reactHtml);
  return `${XHTML_DOCTYPE}${html.replace(/<!DOCTYPE.*?>/, "")}`;
}
