import "server-only";
import { AppError, errors } from "@/lib/core/errors";
import {
  countEmailsByStatus,
  findEmailHandle,
  findEmailWithEvents,
  listEmails,
  type EmailEvent,
  type EmailHandle,
  type EmailResource,
} from "@/lib/sent-emails/data/resources";
import { cancelScheduledEmail, dispatchDueScheduledEmails } from "@/lib/sent-emails/data/scheduled";
import { findEmailTemplateVersion } from "@/lib/sent-emails/data/template-version";
import { describeProviderFailure, getMailer } from "@/lib/mail-transport";
import type { DeliveryStatus } from "@/lib/sent-emails/schemas";
import { deliverWebhookSoon } from "@/lib/webhooks/delivery";

// The dashboard's emails pages: the counts by status, and the template (and version) an email was rendered from.
export { countEmailsByStatus, findEmailTemplateVersion };

/** GET /emails: a page of the account's emails, newest first, as the API describes them (events left out). */
export async function listEmailsPage(
  accountId: string,
  { limit, offset, status }: { limit: number; offset: number; status?: DeliveryStatus },
) {
  const { emails, total } = await listEmails(accountId, { limit, offset, status: status ?? null });
  return { emails: emails.map(toEmailResponse), pagination: { limit, offset, total } };
}

/** GET /emails/{id}: the account's email with its events; any other id is 404 EMAIL_NOT_FOUND. */
export async function getEmailOrThrow(accountId: string, id: string) {
  const email = await findEmailWithEvents(accountId, id);
  if (!email) throw errors.emailNotFound();
  return { ...toEmailResponse(email), events: email.events.map(toEmailEventResponse) };
}

/**
 * POST /emails/{id}/cancel: a scheduled email is canceled (first at its provider, which holds it) and stops counting;
 * any other status is 409 EMAIL_NOT_CANCELABLE. Answers with the email as GET /emails/{id} would.
 */
export async function cancelEmailOrThrow(accountId: string, id: string) {
  // A due outbox email is past canceling, whether or not the dispatcher has run yet: it is delivered first.
  await dispatchDueScheduledEmails({ accountId });
  const email = await findEmailHandle(accountId, id);
  if (!email) throw errors.emailNotFound();
  if (email.status !== "scheduled") throw errors.emailNotCancelable(email.status);
  if (email.provider !== "outbox") await cancelAtProvider(email);
  const { canceled, status } = await cancelScheduledEmail(accountId, email.internalId);
  if (!canceled) throw errors.emailNotCancelable(status ?? email.status);
  deliverWebhookSoon(accountId); // its email.canceled event
  return getEmailOrThrow(accountId, id);
}

async function cancelAtProvider(email: EmailHandle): Promise<void> {
  const mailer = getMailer();
  if (mailer.provider !== email.provider || email.providerMessageId === null) {
    throw errors.emailProviderError(
      `This email was handed to ${email.provider}, which is not configured now, so it cannot be canceled there. It was not canceled.`,
    );
  }
  try {
    await mailer.cancel(email.providerMessageId);
  } catch (error) {
    if (!(error instanceof AppError && error.code === "EMAIL_PROVIDER_ERROR")) throw error;
    throw errors.emailProviderError(
      `The email provider did not cancel the email (${describeProviderFailure(error)}). It was not canceled; you can retry.`,
      error,
    );
  }
}

/**
 * The dashboard's email page: the email as GET /emails/{id} describes it, with the message as recorded (its preview);
 * undefined when the account has no such email.
 */
export async function findEmailWithMessage(accountId: string, id: string) {
  const email = await findEmailWithEvents(accountId, id, { withMessage: true });
  if (!email) return undefined;
  return { ...toEmailResponse(email), events: email.events.map(toEmailEventResponse), message: email.message };
}

/** The resource's fields, in the order GET /emails/{id} gives them (a row may hold its events and message too). */
const EMAIL_FIELDS = [
  "id",
  "from",
  "to",
  "cc",
  "bcc",
  "reply_to",
  "subject",
  "template_id",
  "template_version",
  "tags",
  "status",
  "created_at",
  "sent_at",
  "scheduled_at",
  "test",
] as const satisfies readonly (keyof EmailResource)[];

/** The resource's fields alone, its times in ISO 8601. */
function toEmailResponse(email: EmailResource) {
  const fields = Object.fromEntries(EMAIL_FIELDS.map((key) => [key, email[key]])) as Pick<
    EmailResource,
    (typeof EMAIL_FIELDS)[number]
  >;
  const version = email.template_version;
  return {
    ...fields,
    template_version: version === "draft" ? ("draft" as const) : version === null ? null : Number(version),
    // Left out for a template without messages, as a render's answer leaves it out.
    ...(email.locale === null ? {} : { locale: email.locale }),
    created_at: email.created_at.toISOString(),
    sent_at: email.sent_at?.toISOString() ?? null,
    scheduled_at: email.scheduled_at?.toISOString() ?? null,
  };
}

function toEmailEventResponse(event: EmailEvent) {
  return { type: event.type, at: event.at.toISOString(), ...(event.detail === null ? {} : { detail: event.detail }) };
}
