import { NextResponse } from "next/server";
import { z } from "zod";
import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { sendContextPreload, sendEmail } from "@/lib/send";

// Any JSON object: lib/send.ts validates it together with the Idempotency-Key header, so one 400 lists every problem.
const jsonObject = z.record(z.string(), z.unknown());

// POST /api/v1/send – send (or schedule) an email rendered from a template in the caller's library
export const POST = withApiAuth(
  { metered: true, body: jsonObject, preload: ({ body }) => sendContextPreload(body), preloadReadsBody: true },
  async ({ request, caller, body, preloaded }) => {
    const { body: response, replayed } = await sendEmail(caller, body, request.headers.get("idempotency-key"), preloaded);
    return replayed ? NextResponse.json(response, { headers: { "Idempotent-Replayed": "true" } }) : response;
  },
);

const otherMethods = methodNotAllowed(["POST"]);
export { otherMethods as GET, otherMethods as PUT, otherMethods as PATCH, otherMethods as DELETE, otherMethods as OPTIONS };
