import { NextResponse } from "next/server";
import { cronRoute } from "@/lib/api/cron";
import { dispatchScheduled } from "@/lib/sending/dispatch";

// GET /api/cron/dispatch-scheduled – Vercel Cron: deliver due scheduled outbox emails, hand interrupted sends to the
// provider again or give them up with their count given back, drop expired idempotency keys, apply provider events
// held until their email's hand-off was recorded, fold the email events counted since into GET /metrics' daily rows
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = cronRoute(async () => {
  const { dispatched, recoveredEmails, failedEmails, expiredIdempotencyKeys, heldEventsApplied, foldedMetricEvents } =
    await dispatchScheduled();
  return NextResponse.json({
    success: true,
    dispatched,
    recovered_emails: recoveredEmails,
    failed_emails: failedEmails,
    expired_idempotency_keys: expiredIdempotencyKeys,
    held_events_applied: heldEventsApplied,
    folded_metric_events: foldedMetricEvents,
  });
});
