import { NextResponse, type NextRequest } from "next/server";
import { errors } from "@/lib/core/errors";
import { routeHandlers } from "@/lib/api/route";
import { withErrorHandling } from "@/lib/api/with-api-auth";
import { getConfig } from "@/lib/core/config";
import { handleStripeEvent, verifyWebhook } from "@/lib/billing/payments/stripe";
import { readWebhookBody } from "@/lib/api/webhook-body";

// POST /api/webhooks/stripe – Stripe's signed event deliveries. The signature is checked on the raw body before
// anything is read or written; each event is applied once (stored by id in the same transaction), so replays and
// retries are no-ops. Unknown event types are acknowledged and ignored. A failure answers 500 and Stripe retries.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: withErrorHandling(async (request: NextRequest) => {
    if (!getConfig().stripe) {
      // 503 rather than 404: Stripe keeps retrying for days, so no event is lost while the configuration is fixed.
      throw errors.paymentsNotConfigured();
    }
    const rawBody = await readWebhookBody(request);
    const event = verifyWebhook(rawBody, request.headers.get("stripe-signature"));
    const { duplicate, outcome } = await handleStripeEvent(event);
    return NextResponse.json({ received: true, duplicate, outcome });
  }),
});
