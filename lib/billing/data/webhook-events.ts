import "server-only";
import { getDb, type Tx } from "@/lib/db/client";

// The processor's webhook event log: each event is handled once.

export type WebhookEventMeta = { id: string; type: string; objectId: string | null; livemode: boolean; created: Date };

/**
 * Handles one webhook event exactly once: its id is inserted first (a concurrent delivery of the same event waits on
 * it), then `apply` runs in the same transaction and its outcome is stored. A replay finds the id and runs nothing.
 * If `apply` throws, nothing is kept, and the processor's retry handles the event afresh.
 */
export async function processWebhookEventOnce(
  event: WebhookEventMeta,
  apply: (tx: Tx) => Promise<string>,
): Promise<{ duplicate: boolean; outcome: string }> {
  return getDb().begin(async (tx) => {
    const inserted = await tx`
      insert into stripe_events (id, type, object_id, livemode, created, outcome)
      values (${event.id}, ${event.type}, ${event.objectId}, ${event.livemode}, ${event.created}, 'processing')
      on conflict (id) do nothing returning id`;
    if (inserted.length === 0) {
      const [stored] = await tx<{ outcome: string }[]>`select outcome from stripe_events where id = ${event.id}`;
      return { duplicate: true, outcome: stored?.outcome ?? "processed" };
    }
    const outcome = await apply(tx);
    await tx`update stripe_events set outcome = ${outcome} where id = ${event.id}`;
    return { duplicate: false, outcome };
  });
}
