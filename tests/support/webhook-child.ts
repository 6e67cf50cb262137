// A server process reduced to its webhook runner, for tests/webhooks/delivery.test.ts: it runs deliverDueWebhooks on
// DATABASE_URL with the real sender (attemptWebhook; the test's receiver is on 127.0.0.1, so the test sets
// WEBHOOKS_ALLOW_PRIVATE_URLS=1), and prints one JSON line. With WEBHOOK_NOW (ISO) it claims at that instant, once.
// Else it waits for "go" on stdin and then, as a long-running server does (deliverWebhooksContinually), starts a run
// every 50 ms at the real time without waiting for the last run's attempts, until nothing is in flight and RUNS_EMPTY
// runs in a row found nothing. The test may SIGKILL it in the middle.
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { closeDb, getDb } from "@/lib/db/client";
import { deliverDueWebhooks } from "@/lib/webhooks/delivery";

const fixedNow = process.env.WEBHOOK_NOW ? new Date(process.env.WEBHOOK_NOW) : undefined;
if (fixedNow) {
  console.log(JSON.stringify(await deliverDueWebhooks({ now: fixedNow, jitter: () => 0 })));
} else {
  // Connected before "ready", so that neither process of a test spends its first runs opening a connection.
  await getDb()`select 1`;
  console.log("ready");
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once("line", () => resolve()));
  const runsEmpty = Number(process.env.RUNS_EMPTY ?? 5);
  let empty = 0;
  let attempted = 0;
  let failure: unknown;
  const running = new Set<Promise<void>>();
  while (failure === undefined && (running.size > 0 || empty < runsEmpty)) {
    const run = deliverDueWebhooks({ jitter: () => 0 }).then(
      (done) => {
        attempted += done.attempted;
        empty = done.attempted === 0 ? empty + 1 : 0;
      },
      (error: unknown) => void (failure = error),
    );
    running.add(run);
    void run.finally(() => running.delete(run));
    await sleep(50);
  }
  if (failure !== undefined) throw failure;
  console.log(JSON.stringify({ attempted }));
}
await closeDb();
process.exit(0);
