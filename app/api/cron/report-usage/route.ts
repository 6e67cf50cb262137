import { createHash, timingSafeEqual } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { errors } from "@/lib/api/errors";
import { methodNotAllowed, withErrorHandling } from "@/lib/api/with-api-auth";
import { getConfig } from "@/lib/config";
import { runBillingMaintenance } from "@/lib/payments/stripe";

// GET /api/cron/report-usage – Vercel Cron: report unreported overage emails to Stripe's billing meter (retrying
// earlier failures whose delay has passed), and return accounts whose cancelled or unpaid subscription's paid period
// has ended to the free plan. Without Stripe configured there is nothing to do.
const run = withErrorHandling(async (request: NextRequest) => {
  if (!isCronRequest(request.headers.get("authorization"))) throw errors.unauthorized();
  if (!getConfig().stripe) return NextResponse.json({ success: true, configured: false, reported: 0, failed: 0, downgraded: 0 });
  const { reported, failed, downgraded } = await runBillingMaintenance();
  return NextResponse.json({ success: true, configured: true, reported, failed, downgraded });
});

export const GET = run;
export const POST = run;

const otherMethods = methodNotAllowed(["GET", "POST"]);
export { otherMethods as PUT, otherMethods as PATCH, otherMethods as DELETE };

// `Authorization: Bearer ${CRON_SECRET}`, compared in constant time. Without CRON_SECRET nothing is accepted.
function isCronRequest(authorization: string | null): boolean {
  const secret = getConfig().cronSecret;
  if (!secret || !authorization) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(authorization), digest(`Bearer ${secret}`));
}
