import "server-only";
import { errors } from "@/lib/api/errors";
import { findEmailWithEvents, listEmails, type EmailEvent, type EmailResource } from "@/lib/db/emails";
import type { DeliveryStatus } from "@/lib/schemas/emails";

/** GET /emails: a page of the account's emails, newest first, as the API describes them (events left out). */
export async function listEmailsPage(
  accountId: string,
  { limit, offset, status }: { limit: number; offset: number; status?: DeliveryStatus },
) {
  const { emails, total } = await listEmails(accountId, { limit, offset, status: status ?? null });
  return { emails: emails.map(describeEmail), pagination: { limit, offset, total } };
}

/** GET /emails/{id}: the account's email with its events; any other id is 404 EMAIL_NOT_FOUND. */
export async function getEmailOrThrow(accountId: string, id: string) {
  const email = await findEmailWithEvents(accountId, id);
  if (!email) throw errors.emailNotFound();
  return { ...describeEmail(email), events: email.events.map(describeEvent) };
}

/**
 * The dashboard's email page: the email as GET /emails/{id} describes it, with the message as recorded (its preview);
 * undefined when the account has no such email.
 */
export async function findEmailWithMessage(accountId: string, id: string) {
  const email = await findEmailWithEvents(accountId, id, { withMessage: true });
  if (!email) return undefined;
  return { ...describeEmail(email), events: email.events.map(describeEvent), message: email.message };
}

function describeEmail(email: EmailResource) {
  return {
    id: email.id,
    from: email.from,
    to: email.to,
    cc: email.cc,
    bcc: email.bcc,
    reply_to: email.reply_to,
    subject: email.subject,
    template_id: email.template_id,
    tags: email.tags,
    status: email.status,
    created_at: email.created_at.toISOString(),
    sent_at: email.sent_at?.toISOString() ?? null,
    scheduled_at: email.scheduled_at?.toISOString() ?? null,
    // Test sends (lp_test_ keys) come with API keys' test mode; until then every email is a live one.
    test: false,
  };
}

function describeEvent(event: EmailEvent) {
  return { type: event.type, at: event.at.toISOString(), ...(event.detail === null ? {} : { detail: event.detail }) };
}
