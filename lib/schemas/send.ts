import { z } from "zod";
import { variablesSchema } from "@/lib/schemas/common";
import { emailUsageSchema } from "@/lib/schemas/usage";

export const MAX_RECIPIENTS = 50;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const MAX_SCHEDULE_DAYS = 30;

const emailAddress = z.email({ error: "must be a valid email address" });
const addressList = z.union([emailAddress, z.array(emailAddress).min(1, "must list at least one address")], {
  error: "must be an email address or an array of email addresses",
});

const LINE_BREAK = /[\r\n]/;
// `addr` or `Name <addr>`; the display name may be quoted.
const FROM_PATTERN = /^\s*(?:(?:"([^"]*)"|([^<>"]*?))\s*<([^<>\s]+)>|([^<>\s]+))\s*$/;

export function parseFromAddress(value: string): { name: string | null; address: string } | null {
  if (LINE_BREAK.test(value)) return null;
  const match = FROM_PATTERN.exec(value);
  if (!match) return null;
  const address = match[3] ?? match[4];
  if (!emailAddress.safeParse(address).success) return null;
  const name = (match[1] ?? match[2] ?? "").trim();
  return { name: name || null, address };
}

const ISO_DATE_TIME = z.iso.datetime({ offset: true });

// Header field names are printable ASCII without ":" (RFC 5322); values must not break out of their line.
const HEADER_NAME = /^[!-9;-~]{1,256}$/;
// Headers that the message's own fields or the provider set: one given here could change the sender or add recipients
// behind the checks on from, to, cc and bcc (verified domain, 50 recipients, one email counted).
const RESERVED_HEADERS = new Set(
  ["from", "sender", "to", "cc", "bcc", "reply-to", "subject", "date", "message-id", "return-path", "mime-version", "content-type", "content-transfer-encoding"],
);
const headersSchema = z
  .record(z.string(), z.string({ error: "header values must be strings" }), { error: "headers must be an object of strings" })
  // Also runs when a value is not a string (zod reports that one), so every bad name and value is listed at once.
  .superRefine(
    (headers, ctx) => {
      for (const [name, value] of Object.entries(headers)) {
        if (!HEADER_NAME.test(name)) ctx.addIssue({ code: "custom", path: [name], message: "is not a valid header name" });
        else if (RESERVED_HEADERS.has(name.toLowerCase())) {
          ctx.addIssue({ code: "custom", path: [name], message: `${name} cannot be set in headers: use the from, to, cc, bcc, reply_to and subject fields` });
        } else if (typeof value === "string" && /[\r\n\0]/.test(value)) {
          ctx.addIssue({ code: "custom", path: [name], message: "header values must not contain line breaks" });
        }
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null && !Array.isArray(payload.value) },
  );

// A flat character class (no repeated group), so a 10 MB value is checked in linear time without deep backtracking.
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;

export function isBase64(content: string): boolean {
  const clean = content.replace(/\s+/g, "");
  return clean.length % 4 === 0 && BASE64_CHARS.test(clean);
}

export function decodedBase64Length(content: string): number {
  const clean = content.replace(/\s+/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return (clean.length / 4) * 3 - padding;
}

const attachmentSchema = z
  .object({
    filename: z.string({ error: "filename is required" }).min(1, "filename is required").max(255, "filename is at most 255 characters"),
    content: z
      .string({ error: "content must be a Base64 string" })
      .refine(isBase64, "content must be Base64")
      .optional(),
    content_type: z.string().min(1).max(255).optional(),
    path: z
      .string({ error: "path must be an https:// URL" })
      .refine((value) => {
        try {
          return new URL(value).protocol === "https:";
        } catch {
          return false;
        }
      }, "path must be an https:// URL; files on the server cannot be attached")
      .optional(),
  })
  .superRefine((attachment, ctx) => {
    const sources = Number(attachment.content !== undefined) + Number(attachment.path !== undefined);
    if (sources !== 1) {
      ctx.addIssue({ code: "custom", path: ["content"], message: "give exactly one of content (Base64) or path (https:// URL)" });
    }
  });

const tagSchema = z.object({
  name: z.string({ error: "name is required" }).min(1, "name must be 1 to 256 characters").max(256, "name must be 1 to 256 characters"),
  value: z.string({ error: "value is required" }).min(1, "value must be 1 to 256 characters").max(256, "value must be 1 to 256 characters"),
});

export const sendRequestSchema = z
  .object({
    template_id: z.uuid({ error: "template_id must be a template id (uuid)" }),
    to: addressList,
    // Subject and sender become header lines: a line break in them would add headers of the caller's choosing.
    subject: z
      .string({ error: "subject is required" })
      .min(1, "subject must be 1 to 998 characters")
      .max(998, "subject must be 1 to 998 characters")
      .refine((value) => !LINE_BREAK.test(value), "subject must not contain line breaks"),
    cc: addressList.optional(),
    bcc: addressList.optional(),
    reply_to: addressList.optional(),
    from: z
      .string({ error: "from must be a string" })
      .superRefine((value, ctx) => {
        if (LINE_BREAK.test(value)) ctx.addIssue({ code: "custom", message: "from must not contain line breaks" });
        else if (parseFromAddress(value) === null) ctx.addIssue({ code: "custom", message: 'from must be "address@domain" or "Name <address@domain>"' });
      })
      .optional(),
    variables: variablesSchema,
    text: z.string({ error: "text must be a string" }).optional(),
    headers: headersSchema.optional(),
    attachments: z.array(attachmentSchema, { error: "attachments must be an array" }).optional(),
    tags: z.array(tagSchema, { error: "tags must be an array" }).optional(),
    scheduled_at: z
      .string({ error: "scheduled_at must be an ISO 8601 date-time" })
      .superRefine((value, ctx) => {
        // One problem, one entry: a malformed value is not also reported as "not in the future".
        if (!ISO_DATE_TIME.safeParse(value).success) {
          ctx.addIssue({ code: "custom", message: "scheduled_at must be an ISO 8601 date-time with a time zone (e.g. 2030-01-01T09:00:00Z)" });
        } else if (Date.parse(value) <= Date.now()) {
          ctx.addIssue({ code: "custom", message: "scheduled_at must be in the future" });
        } else if (Date.parse(value) > Date.now() + MAX_SCHEDULE_DAYS * 24 * 3600 * 1000) {
          ctx.addIssue({ code: "custom", message: `scheduled_at must be at most ${MAX_SCHEDULE_DAYS} days ahead` });
        }
      })
      .meta({ format: "date-time" })
      .optional(),
  })
  // Runs even when other fields are invalid, so every problem is reported at once; hence the defensive reads.
  .superRefine(
    (body, ctx) => {
      const count = (list: unknown) => (Array.isArray(list) ? list.length : typeof list === "string" ? 1 : 0);
      const recipients = count(body.to) + count(body.cc) + count(body.bcc);
      if (recipients > MAX_RECIPIENTS) {
        ctx.addIssue({ code: "custom", path: ["to"], message: `at most ${MAX_RECIPIENTS} recipients across to, cc and bcc (got ${recipients})` });
      }
      const attachments: unknown[] = Array.isArray(body.attachments) ? body.attachments : [];
      const bytes = attachments.reduce<number>((sum, a) => {
        const content = (a as { content?: unknown } | null)?.content;
        return sum + (typeof content === "string" ? decodedBase64Length(content) : 0);
      }, 0);
      if (bytes > MAX_ATTACHMENT_BYTES) {
        ctx.addIssue({ code: "custom", path: ["attachments"], message: "attachments total at most 10 MB" });
      }
      // The message is stored before it is sent, and PostgreSQL text cannot hold a NUL character.
      for (const path of pathsHoldingNul(body, [])) {
        ctx.addIssue({ code: "custom", path, message: `${path.join(".")} must not contain the NUL character (\\u0000)` });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .meta({ id: "SendRequest" });

export type SendRequest = z.output<typeof sendRequestSchema>;

/** Where in a JSON value a string (or an object key) holds a NUL character. */
function pathsHoldingNul(value: unknown, path: (string | number)[]): (string | number)[][] {
  if (typeof value === "string") return value.includes("\0") ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => pathsHoldingNul(item, [...path, index]));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key.includes("\0") ? [[...path, key]] : pathsHoldingNul(item, [...path, key]),
  );
}

export const sendResponseSchema = z
  .object({
    success: z.literal(true),
    data: z.object({
      id: z.string(),
      from: z.string(),
      to: z.array(z.string()),
      subject: z.string(),
      sent_at: z.iso.datetime(),
      scheduled_at: z.iso.datetime().optional(),
    }),
    meta: z.object({ email_usage: emailUsageSchema }),
  })
  .meta({ id: "SendResponse" });

export const emailLimitBodySchema = z
  .object({ error: z.literal("Email sending not allowed"), message: z.string(), is_overage: z.literal(false) })
  .meta({ id: "EmailLimitExceeded" });
