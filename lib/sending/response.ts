import "server-only";
import type { RecordedEmail } from "@/lib/sent-emails/delivery";
import type { PlanName } from "@/lib/core/plans";
import type { RenderWarning } from "@/lib/render/analysis/warnings";
import type { SendResponse } from "@/lib/sending/schemas";
import { toEmailUsageResponse } from "@/lib/usage/service";

// What a send answers with, for POST /send, each email of POST /send/batch, and the replay of a request recovery
// finished.

/** POST /send's answer for a recorded email: its provider's message id (the outbox's: its own) and the usage. */
export function sendResponseBody(
  plan: PlanName,
  email: SendResponseEmail,
  used: number,
  billingUsageReported: boolean,
  warnings: RenderWarning[] | undefined,
  test = false,
): SendResponse {
  return {
    success: true,
    data: sentEmailRecord(email, test),
    meta: { email_usage: emailUsageMeta(plan, used, billingUsageReported) },
    ...(warnings ? { warnings } : {}),
  };
}

/** `locale`: the template's tag it was rendered in (none for a template without messages). */
type SendResponseEmail = Pick<
  RecordedEmail,
  "id" | "providerMessageId" | "from" | "to" | "subject" | "createdAt" | "scheduledAt"
> & { locale?: string | null };

/**
 * A sent email as POST /send (and each item of POST /send/batch) answers with it; `test`: sent with a test key (to the
 * outbox, not counted), which the answer says.
 */
export function sentEmailRecord(email: SendResponseEmail, test = false) {
  return {
    id: email.providerMessageId ?? email.id,
    from: email.from,
    to: email.to,
    subject: email.subject,
    ...(email.locale ? { locale: email.locale } : {}),
    sent_at: email.createdAt.toISOString(),
    ...(email.scheduledAt ? { scheduled_at: email.scheduledAt.toISOString() } : {}),
    ...(test ? { test: true as const } : {}),
  };
}

export function emailUsageMeta(plan: PlanName, used: number, billingUsageReported: boolean) {
  return { ...toEmailUsageResponse(plan, used), plan_type: plan, billing_usage_reported: billingUsageReported };
}
