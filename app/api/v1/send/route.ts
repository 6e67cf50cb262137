import { NextResponse } from "next/server";
import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { sendEmail } from "@/lib/sending/pipeline";

// POST /api/v1/send – send (or schedule) an email rendered from a template in the caller's library
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: implement(contract.sendEmail, async ({ request, caller, body }) => {
    const { body: response, replayed } = await sendEmail(caller, body, request.headers.get("idempotency-key"));
    return replayed ? NextResponse.json(response, { headers: { "Idempotent-Replayed": "true" } }) : response;
  }),
});
