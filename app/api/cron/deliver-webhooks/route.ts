import { NextResponse } from "next/server";
import { cronRoute } from "@/lib/api/cron";
import { deliverWebhooksDue } from "@/lib/webhooks/delivery";

// GET /api/cron/deliver-webhooks – Vercel Cron: make the webhook attempts that are due (retries, and first attempts
// whose request's after() did not run), claimed in PostgreSQL so several instances make each once, and delete webhook
// events past their 30 days
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = cronRoute(async () => {
  const { attempted, succeeded, retrying, failed, disabled, expiredEvents } = await deliverWebhooksDue();
  return NextResponse.json({
    success: true,
    attempted,
    succeeded,
    retrying,
    failed,
    disabled_endpoints: disabled,
    expired_events: expiredEvents,
  });
});
