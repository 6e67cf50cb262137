import "server-only";
import {
  applyEmailEvent,
  applyHeldEmailEvents,
  applyOutboxEngagement,
  findEmailIdByProviderMessageId,
  holdEmailEvent,
} from "@/lib/sent-emails/data/events";
import { claimOrphanedEmails, failExpiredOrphanedEmails } from "@/lib/sent-emails/data/orphans";
import {
  findEmailReceipt,
  markEmailAccepted,
  markEmailFailed,
  markEmailsAccepted,
  markEmailsFailed,
  recordCountedEmail,
  recordCountedEmails,
} from "@/lib/sent-emails/data/records";
import { dispatchDueScheduledEmails } from "@/lib/sent-emails/data/scheduled";

// What the senders (lib/sending) and the transports (lib/mail-transport) write of an email's delivery: its record,
// the provider's answer, its events, the scheduled and orphaned ones due. Passed through, and apart from service.ts,
// which cancels through the mailer: the outbox mailer imports this file, so the two domains do not import each other.
export {
  applyEmailEvent,
  applyHeldEmailEvents,
  applyOutboxEngagement,
  claimOrphanedEmails,
  dispatchDueScheduledEmails,
  failExpiredOrphanedEmails,
  findEmailIdByProviderMessageId,
  findEmailReceipt,
  holdEmailEvent,
  markEmailAccepted,
  markEmailFailed,
  markEmailsAccepted,
  markEmailsFailed,
  recordCountedEmail,
  recordCountedEmails,
};
export type { OrphanedEmail } from "@/lib/sent-emails/data/orphans";
export type { RecordedEmail } from "@/lib/sent-emails/data/records";
