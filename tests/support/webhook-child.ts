// A server process reduced to its webhook runner, for tests/webhooks/delivery.test.ts: it runs deliverDueWebhooks on
// DATABASE_URL, sending each attempt to its endpoint's URL over HTTP (the test's receiver on 127.0.0.1), and prints one
// JSON line per run. With WEBHOOK_NOW (ISO) it claims at that instant, once; else it waits for "go" on stdin and
// claims at the real time until RUNS_EMPTY runs in a row found nothing. The test may SIGKILL it in the middle.
import http from "node:http";
import { createInterface } from "node:readline";
import { closeDb } from "@/lib/db/client";
import { deliverDueWebhooks, type WebhookSend } from "@/lib/webhooks/delivery";

const send: WebhookSend = ({ url, headers, body }) =>
  new Promise((resolve) => {
    const started = Date.now();
    const request = http.request(url, { method: "POST", headers: { ...headers, "content-type": "application/json" } });
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => {
        const status = response.statusCode ?? 0;
        resolve({ status, durationMs: Date.now() - started, excerpt: text, succeeded: status >= 200 && status < 300 });
      });
    });
    request.on("error", (error) =>
      resolve({ status: null, durationMs: Date.now() - started, error: error.message, excerpt: "", succeeded: false }),
    );
    request.end(body);
  });

const fixedNow = process.env.WEBHOOK_NOW ? new Date(process.env.WEBHOOK_NOW) : undefined;
if (fixedNow) {
  console.log(JSON.stringify(await deliverDueWebhooks({ now: fixedNow, send, jitter: () => 0 })));
} else {
  console.log("ready");
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once("line", () => resolve()));
  const runsEmpty = Number(process.env.RUNS_EMPTY ?? 5);
  let empty = 0;
  let attempted = 0;
  while (empty < runsEmpty) {
    const run = await deliverDueWebhooks({ send, jitter: () => 0 });
    attempted += run.attempted;
    empty = run.attempted === 0 ? empty + 1 : 0;
    if (run.attempted === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  console.log(JSON.stringify({ attempted }));
}
await closeDb();
process.exit(0);
