import { createHash, timingSafeEqual } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { errors } from "@/lib/api/errors";
import { methodNotAllowed, withErrorHandling } from "@/lib/api/with-api-auth";
import { getConfig } from "@/lib/config";
import { dispatchScheduled } from "@/lib/send";

// GET /api/cron/dispatch-scheduled – Vercel Cron: deliver due scheduled outbox emails, drop expired idempotency keys
const dispatch = withErrorHandling(async (request: NextRequest) => {
  if (!isCronRequest(request.headers.get("authorization"))) throw errors.unauthorized();
  const { dispatched, expiredIdempotencyKeys } = await dispatchScheduled();
  return NextResponse.json({ success: true, dispatched, expired_idempotency_keys: expiredIdempotencyKeys });
});

export const GET = dispatch;
export const POST = dispatch;

const otherMethods = methodNotAllowed(["GET", "POST"]);
export { otherMethods as PUT, otherMethods as PATCH, otherMethods as DELETE };

// `Authorization: Bearer ${CRON_SECRET}`, compared in constant time. Without CRON_SECRET nothing is accepted.
function isCronRequest(authorization: string | null): boolean {
  const secret = getConfig().cronSecret;
  if (!secret || !authorization) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(authorization), digest(`Bearer ${secret}`));
}
