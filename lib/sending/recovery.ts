import "server-only";
import { logFailure } from "@/lib/core/background";
import {
  claimOrphanedEmails,
  failExpiredOrphanedEmails,
  findEmailReceipt,
  markEmailAccepted,
  markEmailFailed,
  markEmailsAccepted,
  type OrphanedEmail,
} from "@/lib/sent-emails/delivery";
import { completeStaleIdempotencyKey } from "@/lib/sending/data/idempotency";
import { AppError } from "@/lib/core/errors";
import { describeProviderFailure, getMailer } from "@/lib/mail-transport";
import { sendResponseBody } from "@/lib/sending/response";
import { batchHandoffKey, emailHandoffKey, providerIdempotencyKey } from "@/lib/sending/idempotency";

export const orphanRecovery = {
  /** A request's own hand-off ends within the provider timeout (10 s); a row pending this long has lost it. */
  graceMs: 2 * 60_000,
  /** Resend dedupes an Idempotency-Key for 24 hours: past this a retry might deliver twice, so the email is given up. */
  windowMs: 23 * 3600_000,
  maxAttempts: 5,
  batchSize: 50,
};

/**
 * Emails counted and recorded `pending` whose hand-off was cut off (the process died in between): each is handed to
 * the provider again under the first attempt's idempotency key, so it is delivered once; or, past the provider's
 * idempotency window, after `maxAttempts` unanswered retries, or when the provider refuses it, it is marked failed and
 * its count given back. One handed over under the caller's key completes that key with the answer.
 */
export async function recoverOrphanedEmails(
  options: { now?: Date; accountId?: string } = {},
): Promise<{ recovered: number; failed: number }> {
  const { graceMs, windowMs, maxAttempts } = orphanRecovery;
  const rules = { now: options.now ?? new Date(), graceMs, windowMs, maxAttempts, accountId: options.accountId };
  let failed = await failExpiredOrphanedEmails(rules);
  const mailer = getMailer();
  if (mailer.deliversOnRecord) return { recovered: 0, failed };
  let recovered = 0;
  const claimed = await claimOrphanedEmails(mailer.provider, { ...rules, limit: orphanRecovery.batchSize });
  for (const handoff of groupByHandoff(claimed)) {
    const [first] = handoff;
    try {
      if (first.batchId === null) {
        const { accountId, providerIdempotencyKey: providerKey } = first;
        const { id } = await mailer.send(first, { idempotencyKey: emailHandoffKey(first.id, providerKey) });
        await markEmailAccepted(first.id, id);
        if (providerKey !== null) {
          await storeDeadRequestResponse(accountId, first.id, providerKey, rules.now).catch((storeError) =>
            logFailure("storing the answer of a recovered email failed", storeError),
          );
        }
      } else {
        // The same messages, in the same order, under the same key: the provider answers a batch it accepted already
        // with the ids it gave them, and delivers nothing twice.
        const key = first.providerIdempotencyKey?.endsWith("-0") ? first.providerIdempotencyKey.slice(0, -2) : null;
        const { ids } = await mailer.sendBatch(handoff, { idempotencyKey: batchHandoffKey(first.batchId, key) });
        await markEmailsAccepted(handoff.map((email, i) => ({ id: email.id, providerMessageId: ids[i] })));
      }
      recovered += handoff.length;
    } catch (error) {
      const reason = describeProviderFailure(error);
      if (isDefinitiveRefusal(error)) {
        for (const email of handoff) if (await markEmailFailed(email.id, `${mailer.provider}: ${reason}`)) failed += 1;
      } else {
        // Left pending: the next run retries it under the same key, until it runs out of attempts or time.
        console.warn(
          JSON.stringify({
            level: "warn",
            message: "retrying an interrupted hand-off failed; will retry",
            emailIds: handoff.map((email) => email.id),
            reason,
          }),
        );
      }
    }
  }
  return { recovered, failed };
}

/** Each email on its own, except a batch's, which go together in their request's order. */
function groupByHandoff(emails: OrphanedEmail[]): OrphanedEmail[][] {
  const batches = new Map<string, OrphanedEmail[]>();
  const handoffs: OrphanedEmail[][] = [];
  for (const email of emails) {
    if (email.batchId === null) {
      handoffs.push([email]);
      continue;
    }
    const batch = batches.get(email.batchId);
    if (batch) batch.push(email);
    else {
      const started = [email];
      batches.set(email.batchId, started);
      handoffs.push(started);
    }
  }
  for (const batch of batches.values()) batch.sort((a, b) => (a.batchIndex ?? 0) - (b.batchIndex ?? 0));
  return handoffs;
}

/**
 * The request that recorded a recovered email died holding its Idempotency-Key: the key is completed with the answer
 * that request would have given, so the caller's retry replays it instead of sending again.
 */
async function storeDeadRequestResponse(
  accountId: string,
  emailId: string,
  providerKey: string,
  now: Date,
): Promise<void> {
  const receipt = await findEmailReceipt(emailId);
  if (!receipt) return;
  // The dead request's warnings are not kept: its replay answers without them.
  const body = sendResponseBody(receipt.plan, receipt.email, receipt.used, receipt.billingUsageReported, undefined);
  const isProviderKeyOf = (key: string) => providerIdempotencyKey(accountId, key) === providerKey;
  await completeStaleIdempotencyKey(
    { accountId, scope: "send", providerKey, isProviderKeyOf, now },
    { status: 200, body },
  );
}

/** The provider answered and refused the message itself (not a timeout, rate limit or concurrent-request conflict). */
function isDefinitiveRefusal(error: unknown): boolean {
  if (!(error instanceof AppError && error.code === "EMAIL_PROVIDER_ERROR")) return false;
  const status = error.options.provider?.status ?? null;
  return status !== null && status >= 400 && status < 500 && ![408, 409, 429].includes(status);
}
