import { z } from "zod";
import { MAX_ADDRESS_LENGTH } from "@/lib/core/limits";
import { CONTROL, LINE_BREAK } from "@/lib/mail-transport/header-text";

// Mailboxes (RFC 5322): one address, with or without a display name, read and written.

const emailAddress = z.email({ error: "must be a valid email address" });

/** The length is checked first: zod's email pattern is linear in time but overflows the stack on megabytes of `a.`. */
export function isEmailAddress(value: string): boolean {
  return value.length <= MAX_ADDRESS_LENGTH && emailAddress.safeParse(value).success;
}

export type Mailbox = { name: string | null; address: string };

/**
 * `addr`, `Name <addr>` or `"Quoted, Name" <addr>` (`\"` and `\\` escape inside the quotes), read in one pass:
 * the pattern this replaces backtracked in cubic time on a run of spaces. Null when the value is none of these, is
 * longer than MAX_ADDRESS_LENGTH, holds a control character, or its address is not valid.
 */
export function parseFromAddress(value: string): Mailbox | null {
  if (value.length > MAX_ADDRESS_LENGTH || CONTROL.test(value) || LINE_BREAK.test(value)) return null;
  const text = value.trim();
  let name = "";
  let angle: string;
  if (text.startsWith('"')) {
    let i = 1;
    for (; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === "\\") i++;
      if (i === text.length) return null;
      name += text[i];
    }
    if (i === text.length) return null;
    angle = text.slice(i + 1).trimStart();
  } else {
    const open = text.indexOf("<");
    if (open === -1) return isEmailAddress(text) ? { name: null, address: text } : null;
    name = text.slice(0, open);
    if (name.includes('"') || name.includes(">")) return null;
    angle = text.slice(open);
  }
  if (!angle.startsWith("<") || !angle.endsWith(">")) return null;
  const address = angle.slice(1, -1);
  if (!isEmailAddress(address)) return null;
  name = name.trim();
  return { name: name || null, address };
}

// RFC 5322 atext and spaces (RFC 6532 adds non-ASCII): a display name of only these needs no quotes.
const PLAIN_DISPLAY_NAME = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ \u00a0-\uffff]+$/;

/** One well-formed mailbox: a display name holding specials (`,` `:` `;` `"` `<` `@` `.` …) is quoted and escaped. */
export function formatMailbox({ name, address }: Mailbox): string {
  if (name === null) return address;
  const phrase = PLAIN_DISPLAY_NAME.test(name) ? name : `"${name.replace(/[\\"]/g, "\\$&")}"`;
  return `${phrase} <${address}>`;
}
