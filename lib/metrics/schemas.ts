import { z } from "zod";
import { MAX_METRICS_DAYS, MAX_METRICS_KEYS } from "@/lib/core/limits";
import { CONTROL, LINE_BREAK } from "@/lib/mail-transport/header-text";
import { component } from "@/lib/core/openapi-components";

export const METRICS_GROUPS = ["day", "template", "tag", "domain"] as const;
export type MetricsGroup = (typeof METRICS_GROUPS)[number];

/** The days a range asks for when `from` or `to` is left out. */
export const DEFAULT_METRICS_DAYS = 30;

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a time, in UTC. */
export const utcDay = (time: number): string => new Date(time).toISOString().slice(0, 10);

/** The first day a range may name: no email was sent before it, and PostgreSQL has no year 0. */
const FIRST_DAY = "1970-01-01";

/** A `YYYY-MM-DD` that names a day of the calendar from FIRST_DAY. */
function isDay(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && utcDay(time) === value && value >= FIRST_DAY;
}

/** A tag's `name:value`: each 1 to 256 characters, as a send's tags are. */
const MAX_TAG_KEY_LENGTH = 256 + 1 + 256;
const TAG_MESSAGE = `tag must be name:value, at most ${MAX_TAG_KEY_LENGTH} characters without control characters`;

/** `name:value`: a `:` with something on each side, and no line break or control character (a send's tags have none). */
function isTagKey(value: string): boolean {
  return value.slice(1, -1).includes(":") && !CONTROL.test(value) && !LINE_BREAK.test(value);
}

const DATE_MESSAGE = (field: string) => `${field} must be a date from ${FIRST_DAY}, YYYY-MM-DD (UTC)`;

/** A calendar day written `YYYY-MM-DD` that exists (not 2026-02-30). */
const day = (field: "from" | "to") =>
  z
    .string({ error: DATE_MESSAGE(field) })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: DATE_MESSAGE(field), abort: true })
    .refine(isDay, DATE_MESSAGE(field))
    .optional();

/** The days from `from` to `to`, both counted. */
export const daysIn = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;

/** The range a query names: its own days, or the last DEFAULT_METRICS_DAYS days to today (UTC) for those left out. */
export function metricsRange(query: { from?: string; to?: string }, now = Date.now()): { from: string; to: string } {
  const to = query.to ?? (query.from === undefined ? utcDay(now) : utcDay(Math.max(Date.parse(query.from), now)));
  const from =
    query.from ?? utcDay(Math.max(Date.parse(FIRST_DAY), Date.parse(to) - (DEFAULT_METRICS_DAYS - 1) * DAY_MS));
  return { from, to };
}

export const metricsQuerySchema = z
  .object({
    from: day("from").meta({
      description: `The first UTC day counted; by default ${DEFAULT_METRICS_DAYS - 1} days before \`to\``,
    }),
    to: day("to").meta({ description: "The last UTC day counted; by default today" }),
    group_by: z
      .enum(METRICS_GROUPS, { error: `group_by must be one of ${METRICS_GROUPS.join(", ")}` })
      .default("day")
      .meta({
        description: `What each entry of metrics counts: a UTC day (every day of the range), or a template, a tag or a sending domain (the ${MAX_METRICS_KEYS} most sent)`,
      }),
    template_id: z.uuid({ error: "template_id must be a template's id (a UUID)" }).optional().meta({
      description: "Only the emails sent with this template",
    }),
    tag: z
      .string({ error: TAG_MESSAGE })
      .max(MAX_TAG_KEY_LENGTH, { error: TAG_MESSAGE, abort: true })
      .refine(isTagKey, TAG_MESSAGE)
      .optional()
      .meta({
        description:
          "Only the emails with this tag, `name:value` as the tag's key in metrics (a name holding `:` is matched as written)",
      }),
    test: z
      .enum(["true", "false"], { error: "test must be true or false" })
      .default("false")
      .transform((value) => value === "true")
      .meta({ description: "true: test sends are counted too" }),
  })
  .strict()
  .superRefine((query, ctx) => {
    // Each day's own problem is reported by its field; the range is checked once both are days.
    if (query.from === undefined && query.to === undefined) return;
    if ((query.from !== undefined && !isDay(query.from)) || (query.to !== undefined && !isDay(query.to))) return;
    const { from, to } = metricsRange(query);
    if (from > to) ctx.addIssue({ code: "custom", path: ["to"], message: "to must not be before from" });
    else if (daysIn(from, to) > MAX_METRICS_DAYS) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `from and to must be at most ${MAX_METRICS_DAYS} days apart (both counted)`,
      });
    }
  });

const rate = (description: string) =>
  z
    .number()
    .min(0)
    .meta({ description: `${description}; 4 decimals, at most 1, 0 when it is of none` });

export const metricsCountsSchema = z.object({
  sent: z.int().meta({ description: "Emails handed to the provider" }),
  delivered: z.int(),
  bounced: z.int(),
  complained: z.int(),
  failed: z.int().meta({ description: "Emails whose hand-off to the provider failed" }),
  opened: z.int().meta({ description: "Emails opened (an email's first open)" }),
  clicked: z.int().meta({ description: "Links clicked (each link's first click in an email)" }),
  delivery_rate: rate("delivered of sent"),
  bounce_rate: rate("bounced of sent"),
  complaint_rate: rate("complained of delivered"),
  open_rate: rate("opened of delivered"),
  click_rate: rate("emails with a click of delivered"),
});
export type MetricsCounts = z.infer<typeof metricsCountsSchema>;

export const metricsEntrySchema = metricsCountsSchema
  .extend({
    key: z.string().nullable().meta({
      description:
        "The UTC day (YYYY-MM-DD), the template's id (null for emails whose template was deleted), the tag as name:value, or the sending domain",
    }),
  })
  .meta({ id: "MetricsEntry" })
  .apply(component);

export const metricsResponseSchema = z
  .object({
    success: z.literal(true),
    from: z.iso.date().meta({ description: "The first UTC day counted" }),
    to: z.iso.date().meta({ description: "The last UTC day counted" }),
    metrics: z.array(metricsEntrySchema),
    totals: metricsCountsSchema.meta({ description: "The whole range's (an email with two tags counted once)" }),
  })
  .meta({ id: "MetricsResponse" })
  .apply(component);
