// Base64 content (attachments), checked and measured without decoding it.

// A flat character class (no repeated group), so a 10 MB value is checked in linear time without deep backtracking.
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether `content` is Base64 (whitespace aside). */
export function isBase64(content: string): boolean {
  const clean = content.replace(/\s+/g, "");
  return clean.length % 4 === 0 && BASE64_CHARS.test(clean);
}

/** The number of bytes `content` (Base64) decodes to. */
export function decodedBase64Length(content: string): number {
  const clean = content.replace(/\s+/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return (clean.length / 4) * 3 - padding;
}
