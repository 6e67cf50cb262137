// A server process reduced to one request, for the crash test (tests/sending/send-crash.test.ts): it runs POST
// /api/v1/send through the real route on DATABASE_URL and Resend at RESEND_BASE_URL, with the API key and body it is
// given, and prints the answer. The test kills it (SIGKILL) while Resend is holding the hand-off.
import { NextRequest } from "next/server";
import { POST as send } from "@/app/api/v1/send/route";

const { LETTERPRESS_API_KEY: key, SEND_BODY: body, SEND_IDEMPOTENCY_KEY: idempotencyKey } = process.env;
if (!key || !body) throw new Error("LETTERPRESS_API_KEY and SEND_BODY are required");
const response = await send(
  new NextRequest("http://localhost:3000/api/v1/send", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": key,
      ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
    },
    body,
  }),
  { params: Promise.resolve({}) },
);
console.log(JSON.stringify({ status: response.status, body: await response.json() }));
process.exit(0);
