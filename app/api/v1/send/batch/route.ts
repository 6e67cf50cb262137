import { NextResponse } from "next/server";
import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { sendBatch } from "@/lib/sending/batch";

// POST /api/v1/send/batch – send 1 to 100 emails in one call, each rendered from a template in the caller's library
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: implement(contract.sendBatch, async ({ request, caller, body }) => {
    const { body: response, replayed } = await sendBatch(
      caller,
      body,
      request.headers.get("idempotency-key"),
      request.signal,
    );
    return replayed ? NextResponse.json(response, { headers: { "Idempotent-Replayed": "true" } }) : response;
  }),
});
