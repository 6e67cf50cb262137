import "server-only";
import { createHash, randomUUID } from "node:crypto";
import type { z } from "zod";
import { errors, zodDetails, type ValidationDetail } from "@/lib/core/errors";
import { logFailure } from "@/lib/core/background";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from "@/lib/sending/data/idempotency";
import { IDEMPOTENCY_WAIT_MS, MAX_IDEMPOTENCY_KEY_LENGTH } from "@/lib/core/limits";
import { idempotencyKeySchema } from "@/lib/sending/schemas";
import { isTestSend, type SendCaller } from "@/lib/sending/caller";

// Idempotency-Key. The key is claimed with a unique row before anything happens (claim_idempotency_key). Only a
// success is stored and replayed: a request that failed (validation, 404, 429, 502, 500) sent and counted nothing,
// so it releases the key and a retry with the same key runs afresh. A request that finds the key held by an
// identical request still running waits for it (polling) and replays its answer; if that takes longer than
// IDEMPOTENCY_WAIT_MS it answers 409 IDEMPOTENCY_IN_PROGRESS. A different body under a held key answers 409
// IDEMPOTENCY_CONFLICT. A request that takes over the stale claim of one that died finds the email that one recorded
// (record_counted_email: one email per provider key) and answers with it rather than sending and counting it again.

/** A send's answer: POST /send's or POST /send/batch's body. */
export type SendOutcome<Body> = { body: Body; replayed: boolean };

/**
 * Where an endpoint's Idempotency-Keys live. A test key's are apart from live keys' (their own scope, and their own
 * provider keys): a live send never replays, or finds the email of, a test send that used the same key.
 */
export function idempotencyNamespace(
  caller: SendCaller,
  endpoint: "send" | "send_batch",
): { scope: IdempotencyScope; namespace: string } {
  return isTestSend(caller) ? { scope: `test_${endpoint}`, namespace: "test\n" } : { scope: endpoint, namespace: "" };
}

type IdempotencyScope = "send" | "send_batch" | "test_send" | "test_send_batch";

/** A malformed Idempotency-Key is a 400 that also lists every problem of the body. */
export function checkIdempotencyKey(idempotencyKey: string | null, rawBody: unknown, schema: z.ZodType): void {
  if (idempotencyKey === null || idempotencyKeySchema.safeParse(idempotencyKey).success) return;
  const details: ValidationDetail[] = [
    { field: "Idempotency-Key", message: `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters` },
  ];
  const parsed = schema.safeParse(rawBody);
  if (!parsed.success) details.push(...zodDetails(parsed.error));
  throw errors.validation(details);
}

export async function withIdempotencyKey<Body extends Record<string, unknown>>(
  scope: IdempotencyScope,
  accountId: string,
  key: string,
  providerKey: string,
  rawBody: Record<string, unknown>,
  run: () => Promise<SendOutcome<Body>>,
): Promise<SendOutcome<Body>> {
  const requestHash = hashRequest(rawBody);
  const claim = { accountId, scope, key, token: randomUUID() };
  const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
  let delay = 10;
  for (;;) {
    const held = await claimIdempotencyKey({ ...claim, requestHash });
    if (held.claimed) break;
    if (held.requestHash !== requestHash) throw errors.idempotencyConflict();
    // What this endpoint answered under the key: stored below from `run`'s outcome.
    if (held.status === "completed" && held.responseBody) return { body: held.responseBody as Body, replayed: true };
    if (Date.now() >= deadline) throw errors.idempotencyInProgress();
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 200);
  }

  let outcome: SendOutcome<Body>;
  try {
    outcome = await run();
  } catch (error) {
    await releaseIdempotencyKey(claim).catch((releaseError) =>
      logFailure("releasing an idempotency key failed", releaseError),
    );
    throw error;
  }
  // The email went out: a failure to store the response must not turn into an error (the client would retry and
  // the key, left in flight, becomes claimable again only after it goes stale).
  await completeIdempotencyKey(claim, { status: 200, body: outcome.body }, providerKey).catch((storeError) =>
    logFailure("storing an idempotent response failed", storeError),
  );
  return outcome;
}

/** The body as sent, canonical (keys sorted at every level), hashed. */
export function hashRequest(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body)).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The key handed to the provider. Provider keys are global to the operator's provider account, so the caller's key
 * is namespaced by account (two accounts may pick the same key) and hashed to a fixed length.
 */
export function providerIdempotencyKey(accountId: string, key: string): string {
  return `lp-${createHash("sha256").update(`${accountId}\n${key}`).digest("hex")}`;
}

/**
 * The idempotency key of every hand-off of one message: the caller's (as providerIdempotencyKey), else one made from
 * the message's id. A hand-off cut off by a crash is retried under it (recoverOrphanedEmails), so the provider
 * delivers the message once even if the first attempt reached it.
 */
export function emailHandoffKey(emailId: string, providerKey: string | null): string {
  return providerKey ?? `lp-email-${emailId}`;
}

/** A batch's hand-off key, as emailHandoffKey: the caller's, else one made from the batch's id (its first email's). */
export function batchHandoffKey(batchId: string, providerKey: string | null): string {
  return providerKey ?? `lp-batch-${batchId}`;
}
