import "server-only";
import { throttledInBackground } from "@/lib/core/background";
import { foldEmailMetrics } from "@/lib/metrics/service";
import { applyHeldEmailEvents, dispatchDueScheduledEmails } from "@/lib/sent-emails/delivery";
import { deleteExpiredIdempotencyKeys } from "@/lib/sending/data/idempotency";
import { recoverOrphanedEmails } from "@/lib/sending/recovery";
import { deliverDueWebhooks } from "@/lib/webhooks/delivery";

// The dispatch step: delivers due scheduled messages of the embedded outbox, recovers orphaned hand-offs, drops
// expired idempotency keys, folds the email events counted since into GET /metrics' daily rows. The cron route calls it (Vercel Cron), and every send request triggers it in the
// background at most once per DISPATCH_INTERVAL_MS per process, which catches up between the cron's runs. (A
// long-running server also has the outbox send its due scheduled emails on time: deliverScheduledOutboxEmails.)

const DISPATCH_INTERVAL_MS = 30_000;
export const scheduleDispatch = throttledInBackground(
  "dispatching scheduled emails",
  DISPATCH_INTERVAL_MS,
  async () => {
    await dispatchScheduled();
    // The events it made are any account's, and a request's own run claims its account's alone: one run for every
    // account follows (retries and the rest of a burst too, between the cron route's runs).
    await deliverDueWebhooks();
  },
);

export async function dispatchScheduled(): Promise<{
  dispatched: number;
  recoveredEmails: number;
  failedEmails: number;
  expiredIdempotencyKeys: number;
  heldEventsApplied: number;
  foldedMetricEvents: number;
}> {
  const dispatched = await dispatchDueScheduledEmails();
  const { recovered: recoveredEmails, failed: failedEmails } = await recoverOrphanedEmails();
  const expiredIdempotencyKeys = await deleteExpiredIdempotencyKeys();
  const heldEventsApplied = await applyHeldEmailEvents("resend");
  // Last: it folds what the steps above counted too.
  const foldedMetricEvents = await foldEmailMetrics();
  return { dispatched, recoveredEmails, failedEmails, expiredIdempotencyKeys, heldEventsApplied, foldedMetricEvents };
}
