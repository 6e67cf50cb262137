import { NextResponse, type NextRequest } from "next/server";
import { errors } from "@/lib/core/errors";
import { routeHandlers } from "@/lib/api/route";
import { withErrorHandling } from "@/lib/api/with-api-auth";
import { getConfig } from "@/lib/core/config";
import { readWebhookBody } from "@/lib/api/webhook-body";
import { handleResendEvent, verifyResendWebhook } from "@/lib/mail-transport/resend-events";
import { deliverWebhookSoon } from "@/lib/webhooks/delivery";
import { foldEmailMetricsSoon } from "@/lib/metrics/service";

// POST /api/webhooks/resend – Resend's signed delivery events (sent, delivered, bounced, …). The Svix signature is
// checked on the raw body before anything is read or written; each event is applied once (by its svix-id), so replays
// and retries are no-ops. Other event types and events for unknown emails are acknowledged and ignored. A failure
// answers 500 and Resend retries.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: withErrorHandling(async (request: NextRequest) => {
    if (!getConfig().resend?.webhookSecret) {
      // 503 rather than 404: Resend keeps retrying, so no event is lost while the configuration is fixed.
      throw errors.emailEventsNotConfigured();
    }
    const rawBody = await readWebhookBody(request);
    const delivery = verifyResendWebhook(rawBody, request.headers);
    const { duplicate, outcome } = await handleResendEvent(delivery);
    // The account's webhook event of what Resend reported, attempted after the answer.
    if (outcome === "applied" && !duplicate) {
      deliverWebhookSoon(null);
      foldEmailMetricsSoon();
    }
    return NextResponse.json({ received: true, duplicate, outcome });
  }),
});
