import { z } from "zod";
import { planSchema } from "@/lib/core/schemas";
import { component } from "@/lib/core/openapi-components";

export const emailUsageSchema = z
  .object({
    monthly_limit: z.int(),
    current_usage: z.int(),
    remaining: z.int().min(0),
    plan_type: planSchema,
    is_overage: z.boolean(),
    overage_emails: z.int(),
    billing_usage_reported: z.boolean(),
  })
  .meta({ id: "EmailUsage" })
  .apply(component);

export const usageResponseSchema = z
  .object({
    success: z.literal(true),
    usage: z.object({
      limit: z.int().nullable().meta({ description: "API calls per month; null on an unlimited plan" }),
      remaining: z.int().nullable(),
      reset: z.iso.datetime(),
      plan: planSchema,
    }),
    emails: emailUsageSchema.omit({ plan_type: true, billing_usage_reported: true }),
    test_emails: z
      .object({
        daily_limit: z.int(),
        sent_today: z.int(),
        remaining: z.int().min(0),
        reset: z.iso.datetime().meta({ description: "The next UTC midnight, when the day's test sends start over" }),
      })
      .meta({ description: "Test keys' sends today (UTC): kept in the outbox, never counted in emails" }),
  })
  .meta({ id: "UsageResponse" })
  .apply(component);
