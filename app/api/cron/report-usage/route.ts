import { NextResponse } from "next/server";
import { cronRoute } from "@/lib/api/cron";
import { getConfig } from "@/lib/core/config";
import { runBillingMaintenance } from "@/lib/billing/payments/stripe";

// GET /api/cron/report-usage – Vercel Cron: report unreported overage emails to Stripe's billing meter (retrying
// earlier failures whose delay has passed), and return accounts whose cancelled or unpaid subscription's paid period
// has ended to the free plan. Without Stripe configured there is nothing to do.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = cronRoute(async () => {
  if (!getConfig().stripe)
    return NextResponse.json({ success: true, configured: false, reported: 0, failed: 0, downgraded: 0 });
  const { reported, failed, downgraded } = await runBillingMaintenance();
  return NextResponse.json({ success: true, configured: true, reported, failed, downgraded });
});
