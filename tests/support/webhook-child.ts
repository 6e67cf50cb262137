// A server process reduced to its webhook runner, for tests/webhooks/delivery.test.ts: it runs deliverDueWebhooks on
// DATABASE_URL with the real sender (attemptWebhook; the test's receiver is on 127.0.0.1, so the test sets
// WEBHOOKS_ALLOW_PRIVATE_URLS=1), and prints one JSON line per run. With WEBHOOK_NOW (ISO) it claims at that instant, once; else it waits for "go" on stdin and
// claims at the real time until RUNS_EMPTY runs in a row found nothing. The test may SIGKILL it in the middle.
import { createInterface } from "node:readline";
import { closeDb, getDb } from "@/lib/db/client";
import { deliverDueWebhooks } from "@/lib/webhooks/delivery";

const fixedNow = process.env.WEBHOOK_NOW ? new Date(process.env.WEBHOOK_NOW) : undefined;
if (fixedNow) {
  console.log(JSON.stringify(await deliverDueWebhooks({ now: fixedNow, jitter: () => 0 })));
} else {
  // Connected before "ready", so that neither process of a test spends its first claims opening a connection while
  // the other takes every slot.
  await getDb()`select 1`;
  console.log("ready");
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once("line", () => resolve()));
  const runsEmpty = Number(process.env.RUNS_EMPTY ?? 5);
  let empty = 0;
  let attempted = 0;
  while (empty < runsEmpty) {
    const run = await deliverDueWebhooks({ jitter: () => 0 });
    attempted += run.attempted;
    empty = run.attempted === 0 ? empty + 1 : 0;
    if (run.attempted === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  console.log(JSON.stringify({ attempted }));
}
await closeDb();
process.exit(0);
