import { z } from "zod";
import { MAX_DETAILS } from "@/lib/core/errors";
import {
  MAX_ADDRESS_LENGTH,
  MAX_ATTACHMENTS,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_URL_LENGTH,
  MAX_BATCH_EMAILS,
  MAX_HEADERS,
  MAX_HEADER_LINE_LENGTH,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_RECIPIENTS,
  MAX_REPLY_TO,
  MAX_SCHEDULE_DAYS,
  MAX_TAGS,
  MAX_TEMPLATE_ALIAS_CHARS,
  MAX_TEXT_LENGTH,
  MAX_UNSUBSCRIBE_GROUP_LENGTH,
} from "@/lib/core/limits";
import { hostProblem } from "@/lib/core/outbound-addresses";
import { decodedBase64Length, isBase64 } from "@/lib/sending/base64";
import { headerTextProblem } from "@/lib/mail-transport/header-text";
import { isEmailAddress, parseFromAddress } from "@/lib/mail-transport/mailbox";
import { isUuid, variablesSchema } from "@/lib/core/schemas";
import { emailUsageSchema } from "@/lib/usage/schemas";
import {
  localeRequestSchema,
  TEMPLATE_ID_DESCRIPTION,
  templateVersionRequestSchema,
  warningsSchema,
} from "@/lib/templates/schemas";
import { isTemplateAlias } from "@/lib/templates/alias";
import { component } from "@/lib/core/openapi-components";

const TEMPLATE_ID_MESSAGE = "template_id must be a template id (uuid) or alias";

/** The Idempotency-Key header of POST /send, when present. */
export const idempotencyKeySchema = z.string().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH);

const ADDRESS_TOO_LONG = `an address is at most ${MAX_ADDRESS_LENGTH} characters`;
// Not an aborting max: the union reports an option's issues only when they do not abort, so `to.3` keeps its message.
const addressField = z
  .string({ error: "must be a valid email address" })
  .max(MAX_ADDRESS_LENGTH, ADDRESS_TOO_LONG)
  .refine(isEmailAddress, {
    error: "must be a valid email address",
    when: ({ value }) => typeof value === "string" && value.length <= MAX_ADDRESS_LENGTH,
  })
  .meta({ format: "email" });
// zod refuses an array longer than its maximum before it reads any item (so each list answers with one entry however
// long it is). That refusal aborts, so the union reports its own issue: worded here from the input.
function addressList(max: number) {
  return z.union([addressField, z.array(addressField).min(1, "must list at least one address").max(max)], {
    error: ({ input }) =>
      Array.isArray(input) && input.length > max
        ? `must list at most ${max} addresses`
        : "must be an email address or an array of email addresses",
  });
}

function headerText(label: string, options: { allowTab: boolean }) {
  return (value: string, ctx: z.RefinementCtx) => {
    const problem = headerTextProblem(value, options);
    if (problem) ctx.addIssue({ code: "custom", message: `${label} ${problem}` });
  };
}

const ISO_DATE_TIME = z.iso.datetime({ offset: true });

// Header field names are printable ASCII without ":" (RFC 5322), at most 256 characters; values must not break out of
// their line.
const HEADER_NAME = /^[!-9;-~]{1,256}$/;
// Headers a send may not set, lower-case; a name ending in "*" stands for every header that begins so. The message's
// own fields set the first ones: one given here could change the sender or add recipients behind the checks on from,
// to, cc and bcc (verified domain, 50 recipients, one email counted). The provider and the mail servers that carry the
// message set the others: one given here could pass off a signature, a route or an authentication result as theirs.
const SET_BY_FIELDS = "use the from, to, cc, bcc, reply_to and subject fields";
const SET_BY_MAIL_SYSTEM = "the email provider or the mail servers that carry the message set it";
const RESERVED_HEADERS: [name: string, reason: string][] = [
  ["from", SET_BY_FIELDS],
  ["sender", SET_BY_FIELDS],
  ["to", SET_BY_FIELDS],
  ["cc", SET_BY_FIELDS],
  ["bcc", SET_BY_FIELDS],
  ["reply-to", SET_BY_FIELDS],
  ["subject", SET_BY_FIELDS],
  ["date", SET_BY_MAIL_SYSTEM],
  ["message-id", SET_BY_MAIL_SYSTEM],
  ["return-path", SET_BY_MAIL_SYSTEM],
  ["mime-version", SET_BY_MAIL_SYSTEM],
  // Content-Type, -Transfer-Encoding, -Disposition, -ID…: the MIME structure the provider builds from html, text and
  // attachments.
  ["content-*", SET_BY_MAIL_SYSTEM],
  ["dkim-signature", SET_BY_MAIL_SYSTEM],
  ["domainkey-signature", SET_BY_MAIL_SYSTEM],
  ["arc-*", SET_BY_MAIL_SYSTEM],
  ["received", SET_BY_MAIL_SYSTEM],
  ["x-received", SET_BY_MAIL_SYSTEM],
  ["received-spf", SET_BY_MAIL_SYSTEM],
  // Receiving servers' spam verdicts, which a sender setting them would forge.
  ["x-spam-*", SET_BY_MAIL_SYSTEM],
  ["authentication-results", SET_BY_MAIL_SYSTEM],
  ["resent-*", SET_BY_MAIL_SYSTEM],
  ["delivered-to", SET_BY_MAIL_SYSTEM],
  ["envelope-to", SET_BY_MAIL_SYSTEM],
  ["x-original-to", SET_BY_MAIL_SYSTEM],
];

/** Why a send may not set the header (any case), or null when it may. */
function reservedHeaderReason(name: string): string | null {
  const lower = name.toLowerCase();
  for (const [reserved, reason] of RESERVED_HEADERS) {
    if (reserved.endsWith("*") ? lower.startsWith(reserved.slice(0, -1)) : lower === reserved) return reason;
  }
  return null;
}
const headersRecord = z
  .record(
    // Stated for the document; checked below, so a bad name gets its own message.
    z.string().meta({ maxLength: 256, pattern: HEADER_NAME.source }),
    z
      .string({ error: "header values must be strings" })
      .max(MAX_HEADER_LINE_LENGTH, `header values are at most ${MAX_HEADER_LINE_LENGTH} characters`),
    { error: "headers must be an object of strings" },
  )
  // Also runs when a value is not a string or too long (zod reports that one, and it stays the header's one entry), so
  // every bad name and value is listed at once.
  .superRefine(
    (headers, ctx) => {
      const refused = new Set(ctx.issues.map((issue) => issue.path?.[0]));
      for (const [name, value] of Object.entries(headers)) {
        if (refused.has(name)) continue;
        const valueProblem = headerTextProblem(value, { allowTab: true });
        const reserved = reservedHeaderReason(name);
        if (!HEADER_NAME.test(name))
          ctx.addIssue({ code: "custom", path: [name], message: "is not a valid header name" });
        else if (reserved) {
          ctx.addIssue({ code: "custom", path: [name], message: `${name} cannot be set in headers: ${reserved}` });
        } else if (valueProblem) {
          ctx.addIssue({ code: "custom", path: [name], message: `header values ${valueProblem}` });
        }
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null && !Array.isArray(payload.value) },
  )
  .meta({ maxProperties: MAX_HEADERS });
// Counted before any header is read (zod's records have no maximum of their own), so a long list answers one entry.
const headersSchema = z.preprocess((value, ctx) => {
  if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > MAX_HEADERS) {
    ctx.addIssue({ code: "custom", message: `headers must hold at most ${MAX_HEADERS} headers` });
  }
  return value;
}, headersRecord);

// A MIME type (RFC 2045): type/subtype of token characters, then parameters whose values are tokens or quoted strings
// of printable ASCII. Each repetition starts at a ";" that no token holds, so the pattern cannot backtrack.
const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
const MIME_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|"[ !#-\\[\\]-~]*"))*$`);

const attachmentSchema = z
  .object({
    filename: z
      .string({ error: "filename is required" })
      .min(1, "filename is required")
      .max(255, { error: "filename is at most 255 characters", abort: true })
      .superRefine(headerText("filename", { allowTab: false })),
    // The request body's own cap (10 MB) bounds it; the decoded total is checked against MAX_ATTACHMENT_BYTES below.
    content: z
      .string({ error: "content must be a Base64 string" })
      .max(MAX_ATTACHMENT_BYTES, { error: "content is at most 10 MB of Base64", abort: true })
      .refine(isBase64, "content must be Base64")
      .meta({
        description:
          "The file itself, Base64-encoded (standard alphabet with `=` padding; whitespace is ignored): at most 10 MB of Base64, and the attachments of one email at most 10 MB decoded in all. Give it or `path`.",
      })
      .optional(),
    content_type: z
      .string({ error: "content_type must be a string" })
      .min(1, "content_type must be 1 to 255 characters")
      .max(255, { error: "content_type must be 1 to 255 characters", abort: true })
      .refine(
        (value) => MIME_TYPE.test(value),
        'content_type must be a MIME type such as "text/csv" or "text/plain; charset=utf-8"',
      )
      .optional(),
    path: z
      .string({ error: "path must be an https:// URL" })
      .max(MAX_ATTACHMENT_URL_LENGTH, { error: `path is at most ${MAX_ATTACHMENT_URL_LENGTH} characters`, abort: true })
      .refine(
        (value) => {
          try {
            return new URL(value).protocol === "https:";
          } catch {
            return false;
          }
        },
        { error: "path must be an https:// URL; files on the server cannot be attached", abort: true },
      )
      // Names are looked up before the email is recorded (lib/sending/attachment-hosts.ts); what the text shows, here.
      .superRefine((value, ctx) => {
        const problem = hostProblem(new URL(value).hostname);
        if (problem) ctx.addIssue({ code: "custom", message: `path must be on a public host: ${problem}` });
      })
      .meta({
        description:
          "An `https://` URL to fetch the file from, instead of `content`, on a public host (never a file on the server, nor a loopback, private, link-local or other internal address, nor a name resolving to one)",
      })
      .optional(),
  })
  .superRefine((attachment, ctx) => {
    const sources = Number(attachment.content !== undefined) + Number(attachment.path !== undefined);
    if (sources !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["content"],
        message: "give exactly one of content (Base64) or path (https:// URL)",
      });
    }
  });

/** A tag's name or value: 1 to 256 characters a header can carry. */
const tagText = (field: "name" | "value") =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} must be 1 to 256 characters`)
    .max(256, { error: `${field} must be 1 to 256 characters`, abort: true })
    .superRefine(headerText(field, { allowTab: false }));

const tagSchema = z.object({ name: tagText("name"), value: tagText("value") });

const UNSUBSCRIBE_GROUP_MESSAGE = `unsubscribe.group must be 1 to ${MAX_UNSUBSCRIBE_GROUP_LENGTH} characters`;

/** A send's one-click unsubscribe: true (the unnamed list), or a group of its own; false or left out, none. */
const unsubscribeSchema = z
  .union(
    [
      z.boolean(),
      z
        .object({
          group: z
            .string({ error: UNSUBSCRIBE_GROUP_MESSAGE })
            .min(1, UNSUBSCRIBE_GROUP_MESSAGE)
            .max(MAX_UNSUBSCRIBE_GROUP_LENGTH, { error: UNSUBSCRIBE_GROUP_MESSAGE, abort: true })
            .superRefine(headerText("unsubscribe.group", { allowTab: false }))
            // Shown to the recipient: no text that reorders what the page around it says.
            .refine(
              (group) => !/[\u202a-\u202e\u2066-\u2069]/.test(group),
              "unsubscribe.group must not contain bidirectional control characters",
            ),
        })
        .strict(),
    ],
    { error: 'unsubscribe must be true or { "group": string }' },
  )
  .meta({
    description:
      'One-click unsubscribe (RFC 8058): `true`, or `{ "group": "…" }` for a list of its own. The email gets `List-Unsubscribe` and `List-Unsubscribe-Post` headers with a signed link naming its one recipient and the group, and the template the same link as its `unsubscribeUrl` prop. A POST to the link suppresses the address for that group: later sends with the same `unsubscribe` to it answer 422 RECIPIENT_SUPPRESSED; other sends are not held back.',
  });

export const sendRequestSchema = z
  .object({
    template_id: z
      .string({ error: TEMPLATE_ID_MESSAGE })
      .refine((value) => isUuid(value) || isTemplateAlias(value), TEMPLATE_ID_MESSAGE)
      .meta({ maxLength: MAX_TEMPLATE_ALIAS_CHARS, description: TEMPLATE_ID_DESCRIPTION }),
    version: templateVersionRequestSchema,
    to: addressList(MAX_RECIPIENTS),
    // Subject and sender become header lines: a line break in them would add headers of the caller's choosing.
    subject: z
      .string({ error: "subject is required" })
      .min(1, `subject must be 1 to ${MAX_HEADER_LINE_LENGTH} characters`)
      .max(MAX_HEADER_LINE_LENGTH, { error: `subject must be 1 to ${MAX_HEADER_LINE_LENGTH} characters`, abort: true })
      .superRefine(headerText("subject", { allowTab: true }))
      .optional()
      .meta({
        description:
          "The subject. It may be left out when the template's messages have a top-level `subject` in the resolved locale: that message is formatted with the variables (ICU MessageFormat) and used.",
      }),
    locale: localeRequestSchema,
    cc: addressList(MAX_RECIPIENTS).optional(),
    bcc: addressList(MAX_RECIPIENTS).optional(),
    reply_to: addressList(MAX_REPLY_TO).optional(),
    // One mailbox, display name included, within the address cap; checked for length before it is parsed.
    from: z
      .string({ error: "from must be a string" })
      .max(MAX_ADDRESS_LENGTH, { error: `from is at most ${MAX_ADDRESS_LENGTH} characters`, abort: true })
      .superRefine((value, ctx) => {
        const problem = headerTextProblem(value, { allowTab: false });
        if (problem) ctx.addIssue({ code: "custom", message: `from ${problem}` });
        else if (parseFromAddress(value) === null)
          ctx.addIssue({ code: "custom", message: 'from must be "address@domain" or "Name <address@domain>"' });
      })
      .meta({
        description:
          'The sender, `address@domain` or `Name <address@domain>` (`"Acme, Inc." <hello@mail.example.com>` quotes a name with commas), on one of your verified sending domains or the shared sending domain, when the service has one. Without `from`, your default sender on a verified domain is used.',
      })
      .optional(),
    variables: variablesSchema,
    text: z
      .string({ error: "text must be a string" })
      .max(MAX_TEXT_LENGTH, `text is at most ${MAX_TEXT_LENGTH} characters (1 MiB)`)
      .optional(),
    headers: headersSchema.optional(),
    // Each list is refused past its maximum before any item is read.
    attachments: z
      .array(attachmentSchema, { error: "attachments must be an array" })
      .max(MAX_ATTACHMENTS, `attachments must list at most ${MAX_ATTACHMENTS} files`)
      .meta({
        description: `Files to attach, each a \`filename\` and Base64 \`content\`, or an \`https://\` \`path\`: at most ${MAX_ATTACHMENTS} files, 10 MB decoded in all`,
      })
      .optional(),
    tags: z
      .array(tagSchema, { error: "tags must be an array" })
      .max(MAX_TAGS, `tags must list at most ${MAX_TAGS} tags`)
      .optional(),
    unsubscribe: unsubscribeSchema.optional(),
    scheduled_at: z
      .string({ error: "scheduled_at must be an ISO 8601 date-time" })
      .max(64, { error: "scheduled_at must be an ISO 8601 date-time", abort: true })
      .superRefine((value, ctx) => {
        // One problem, one entry: a malformed value is not also reported as "not in the future".
        if (!ISO_DATE_TIME.safeParse(value).success) {
          ctx.addIssue({
            code: "custom",
            message: "scheduled_at must be an ISO 8601 date-time with a time zone (e.g. 2030-01-01T09:00:00Z)",
          });
        } else if (Date.parse(value) <= Date.now()) {
          ctx.addIssue({ code: "custom", message: "scheduled_at must be in the future" });
        } else if (Date.parse(value) > Date.now() + MAX_SCHEDULE_DAYS * 24 * 3600 * 1000) {
          ctx.addIssue({ code: "custom", message: `scheduled_at must be at most ${MAX_SCHEDULE_DAYS} days ahead` });
        }
      })
      .meta({
        format: "date-time",
        description: `When to send it: ISO 8601 with a time zone (\`2030-01-01T09:00:00Z\`), in the future and up to ${MAX_SCHEDULE_DAYS} days ahead. The answer carries \`scheduled_at\` as well (its \`sent_at\` is when the request was accepted) and the email goes out when due; \`POST /emails/{id}/cancel\` cancels it until then.`,
      })
      .optional(),
  })
  // Runs even when other fields are invalid, so every problem is reported at once; hence the defensive reads.
  .superRefine(
    (body, ctx) => {
      const count = (list: unknown) => (Array.isArray(list) ? list.length : typeof list === "string" ? 1 : 0);
      const lists = [body.to, body.cc, body.bcc];
      const recipients = lists.reduce<number>((sum, list) => sum + count(list), 0);
      // A list over the maximum on its own has its own entry.
      if (recipients > MAX_RECIPIENTS && lists.every((list) => count(list) <= MAX_RECIPIENTS)) {
        ctx.addIssue({
          code: "custom",
          path: ["to"],
          message: `at most ${MAX_RECIPIENTS} recipients across to, cc and bcc (got ${recipients})`,
        });
      }
      const unsubscribe = body.unsubscribe as unknown;
      if (unsubscribe !== undefined && unsubscribe !== false) {
        // The link names one address: a send to several would let each unsubscribe the others.
        if (recipients !== 1) {
          ctx.addIssue({
            code: "custom",
            path: ["unsubscribe"],
            message: "unsubscribe needs one recipient in to (and none in cc or bcc): its link names one address",
          });
        }
        const headers = body.headers as unknown;
        if (typeof headers === "object" && headers !== null) {
          for (const name of Object.keys(headers)) {
            if (!["list-unsubscribe", "list-unsubscribe-post"].includes(name.toLowerCase())) continue;
            ctx.addIssue({
              code: "custom",
              path: ["headers", name],
              message: `${name} cannot be set in headers with unsubscribe, which sets it`,
            });
          }
        }
      }
      // A list over its maximum has its own entry and is not read.
      const attachments: unknown[] =
        Array.isArray(body.attachments) && body.attachments.length <= MAX_ATTACHMENTS ? body.attachments : [];
      const bytes = attachments.reduce<number>((sum, a) => {
        const content = (a as { content?: unknown } | null)?.content;
        return sum + (typeof content === "string" ? decodedBase64Length(content) : 0);
      }, 0);
      if (bytes > MAX_ATTACHMENT_BYTES) {
        ctx.addIssue({ code: "custom", path: ["attachments"], message: "attachments total at most 10 MB" });
      }
      // The message is stored before it is sent, and PostgreSQL text cannot hold a NUL character. A field refused
      // already (for a line break next to its NUL, say) keeps its one entry. One more than an answer lists is enough to
      // say that there are more.
      const refused = new Set(ctx.issues.map((issue) => (issue.path ?? []).join(".")));
      for (const path of pathsHoldingNul(body, MAX_DETAILS + 1)) {
        if (refused.has(path.join("."))) continue;
        ctx.addIssue({
          code: "custom",
          path,
          message: `${path.join(".")} must not contain the NUL character (\\u0000)`,
        });
      }
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .meta({ id: "SendRequest" })
  .apply(component);

export type SendRequest = z.output<typeof sendRequestSchema>;

/** A container being walked: its keys (null for an array, walked by index) and the position of the next child. */
type Frame = { container: Record<string, unknown> | unknown[]; keys: string[] | null; next: number };

/**
 * Where in a JSON value strings (or object keys) hold a NUL character: the first `limit` found. Iterative, keeping only
 * the containers on the way down: a path is spelled out only for a field found.
 */
function pathsHoldingNul(body: unknown, limit: number): (string | number)[][] {
  const found: (string | number)[][] = [];
  const frames: Frame[] = [];
  const path = () => frames.map(({ keys, next }) => (keys ? keys[next - 1] : next - 1));
  let value = body;
  for (;;) {
    if (typeof value === "string") {
      if (value.includes("\0") && found.push(path()) === limit) return found;
    } else if (value !== null && typeof value === "object") {
      frames.push({
        container: value as Frame["container"],
        keys: Array.isArray(value) ? null : Object.keys(value),
        next: 0,
      });
    }
    // On to the next child: a key holding a NUL is the field found, and its value is not searched.
    for (;;) {
      const frame = frames.at(-1);
      if (!frame) return found;
      if (frame.next === (frame.keys ?? frame.container).length) {
        frames.pop();
        continue;
      }
      const index = frame.next++;
      if (!frame.keys) {
        value = (frame.container as unknown[])[index];
        break;
      }
      const key = frame.keys[index];
      if (!key.includes("\0")) {
        value = (frame.container as Record<string, unknown>)[key];
        break;
      }
      if (found.push(path()) === limit) return found;
    }
  }
}

export const sendResponseSchema = z
  .object({
    success: z.literal(true),
    data: z.object({
      id: z.string(),
      from: z.string(),
      to: z.array(z.string()),
      subject: z.string(),
      locale: z.string().optional().meta({
        description:
          "The template's locale the send's `locale` resolved to, which the email records; left out for a template without messages",
      }),
      sent_at: z.iso.datetime(),
      scheduled_at: z.iso.datetime().optional(),
      test: z
        .literal(true)
        .optional()
        .meta({ description: "Sent with a test key: to the outbox, not delivered, not counted toward your emails" }),
    }),
    meta: z.object({ email_usage: emailUsageSchema }),
    warnings: warningsSchema.optional(),
  })
  .meta({ id: "SendResponse" })
  .apply(component);

export type SendResponse = z.input<typeof sendResponseSchema>;

export const emailLimitBodySchema = z
  .object({ error: z.literal("Email sending not allowed"), message: z.string(), is_overage: z.literal(false) })
  .meta({ id: "EmailLimitExceeded" })
  .apply(component);

// As Resend's batch endpoint: a batch carries neither attachments nor a delivery time (send those one at a time).
const batchItemSchema = sendRequestSchema.superRefine(
  (body, ctx) => {
    const record = body as Record<string, unknown>;
    for (const field of ["attachments", "scheduled_at"] as const) {
      if (record[field] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `${field} is not supported in a batch: send this email with POST /api/v1/send`,
        });
      }
    }
  },
  { when: (payload) => typeof payload.value === "object" && payload.value !== null },
);

export const sendBatchRequestSchema = z
  .object({
    // Refused past its maximum before any item is read.
    emails: z
      .array(batchItemSchema, { error: "emails must be an array of send requests" })
      .min(1, `emails must hold 1 to ${MAX_BATCH_EMAILS} send requests`)
      .max(MAX_BATCH_EMAILS, `emails must hold 1 to ${MAX_BATCH_EMAILS} send requests`)
      .meta({ description: "POST /send bodies, without attachments or scheduled_at (send those one at a time)" }),
  })
  .strict()
  .meta({ id: "SendBatchRequest" })
  .apply(component);

export type SendBatchRequest = z.output<typeof sendBatchRequestSchema>;

export const sendBatchResponseSchema = z
  .object({
    success: z.literal(true),
    data: z.array(sendResponseSchema.shape.data).meta({ description: "One record per email, in the request's order" }),
    meta: z.object({ email_usage: emailUsageSchema }),
    warnings: warningsSchema.optional().meta({ description: "As POST /send's, each field under emails.<i>." }),
  })
  .meta({ id: "SendBatchResponse" })
  .apply(component);

export type SendBatchResponse = z.input<typeof sendBatchResponseSchema>;
