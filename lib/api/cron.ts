import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import type { NextRequest } from "next/server";
import { errors } from "@/lib/core/errors";
import { routeHandlers } from "@/lib/api/route";
import { withErrorHandling } from "@/lib/api/with-api-auth";
import { getConfig } from "@/lib/core/config";

/**
 * A Vercel Cron route: `Authorization: Bearer ${CRON_SECRET}`, compared in constant time; without CRON_SECRET nothing
 * is accepted. Vercel calls GET; POST is accepted for manual runs; other methods answer 405.
 */
export function cronRoute(job: (request: NextRequest) => Promise<Response>) {
  const run = withErrorHandling(async (request: NextRequest) => {
    if (!isCronRequest(request.headers.get("authorization"))) throw errors.unauthorized();
    return job(request);
  });
  return routeHandlers({ GET: run, POST: run });
}

function isCronRequest(authorization: string | null): boolean {
  const secret = getConfig().cronSecret;
  if (!secret || !authorization) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(authorization), digest(`Bearer ${secret}`));
}
