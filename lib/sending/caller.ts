import "server-only";
import type { ApiKeyGrant } from "@/lib/api-keys/service";
import { errors } from "@/lib/core/errors";
import { getMailer, type Mailer } from "@/lib/mail-transport";
import { outboxMailer } from "@/lib/mail-transport/outbox";
import { TEST_EMAILS_PER_DAY, testSendDay, type PlanName } from "@/lib/core/plans";

// Who sends, and what a test send changes for POST /send, POST /send/batch and the dashboard's "Send test email": the
// mailer and the quota.

/**
 * `apiKey`: the key's grant, null for a signed-in session. `test`: the dashboard's "Send test email", signed in, which
 * sends as a test key does.
 */
export type SendCaller = { accountId: string; plan: PlanName; apiKey: ApiKeyGrant | null; test?: boolean };

/**
 * A test send: with a test key (lp_test_) or from the dashboard's "Send test email". Its emails stay in the outbox and
 * count against the day's test sends, not the month.
 */
export function isTestSend(caller: SendCaller): boolean {
  return caller.test === true || caller.apiKey?.kind === "test";
}

/** Test sends never reach a provider: the embedded outbox keeps them, whatever provider is configured. */
export function mailerFor(caller: SendCaller): Mailer {
  return isTestSend(caller) ? outboxMailer : getMailer();
}

/**
 * The 429 of a test send past its day's limit (TEST_EMAILS_PER_DAY per account, whatever the plan): the email limit's
 * body, with Retry-After until the next UTC midnight. A batch's says how many were left (`used` today) and it held.
 * Worded for who sent it: a test key, or the dashboard's "Send test email" (`apiKey` null).
 */
export function testLimitReached(caller: SendCaller, batch: { used: number; size: number } | null = null) {
  const { reset } = testSendDay();
  const which = batch
    ? `; ${Math.max(0, TEST_EMAILS_PER_DAY - batch.used)} are left today and this batch holds ${batch.size}`
    : " and today's have all been sent";
  const [who, unaffected] = caller.apiKey
    ? ["Test keys send", "live keys are not affected"]
    : ["Test sends, from the dashboard and with test keys, are", "sends with live keys are not affected"];
  return errors.emailLimitReached(
    `${who} at most ${TEST_EMAILS_PER_DAY} emails a day per account${which}. Nothing was sent. ` +
      `Test sends resume at ${reset.toISOString()}; ${unaffected}.`,
    reset,
  );
}
