import "server-only";
import type { z } from "zod";
import type { ApiKeyGrant } from "@/lib/api-keys";
import { createHash, randomUUID } from "node:crypto";
import { errors, zodDetails, type ValidationDetail } from "@/lib/api/errors";
import { throttledInBackground } from "@/lib/background";
import { getConfig } from "@/lib/config";
import { isVerifiedForSending, type SendingDomain } from "@/lib/db/domains";
import { applyHeldEmailEvents } from "@/lib/db/emails/events";
import { claimOrphanedEmails, failExpiredOrphanedEmails, type OrphanedEmail } from "@/lib/db/emails/orphans";
import {
  findEmailReceipt,
  markEmailAccepted,
  markEmailsAccepted,
  markEmailFailed,
  recordCountedEmail,
  type RecordedEmail,
} from "@/lib/db/emails/records";
import { dispatchDueScheduledEmails } from "@/lib/db/emails/scheduled";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  completeStaleIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  releaseIdempotencyKey,
} from "@/lib/db/idempotency";
import { findSendContext } from "@/lib/db/templates";
import { describeEmailUsage } from "@/lib/db/usage";
import { IDEMPOTENCY_WAIT_MS } from "@/lib/limits";
import { describeProviderFailure, getMailer, MailerError, type Mailer, type OutgoingEmail } from "@/lib/mail";
import { outboxMailer } from "@/lib/mail/outbox";
import { outboxDeliveryEvent } from "@/lib/mail/outbox-delivery";
import { reportOverageEmail } from "@/lib/payments";
import { billingPeriod, PLANS, TEST_EMAILS_PER_DAY, testSendDay, type PlanName } from "@/lib/plans";
import { checkVariables, renderTemplate, type RenderedEmail } from "@/lib/render";
import { recipientsOf, suppressedRecipientDetails } from "@/lib/suppressions";
import type { RenderWarning } from "@/lib/render/warnings";
import {
  decodedBase64Length,
  formatMailbox,
  idempotencyKeySchema,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  parseFromAddress,
  sendRequestSchema,
  type SendRequest,
} from "@/lib/schemas/send";

export const NOT_IN_LIBRARY_MESSAGE = "This template is not in your library. Add or purchase it first.";

export type SendCaller = { accountId: string; plan: PlanName; apiKey: ApiKeyGrant | null };
export type SendOutcome = { body: Record<string, unknown>; replayed: boolean };

/**
 * POST /send: validate → (claim the Idempotency-Key)
 * → render → count and record atomically → hand to the mailer → answer. Nothing is counted before the message is
 * recorded, and a message the provider refuses is kept as failed and its count given back.
 */
export async function sendEmail(
  caller: SendCaller,
  rawBody: Record<string, unknown>,
  idempotencyKey: string | null,
): Promise<SendOutcome> {
  scheduleDispatch();
  checkIdempotencyKey(idempotencyKey, rawBody, sendRequestSchema);
  if (idempotencyKey === null) return performSend(caller, parseRequest(rawBody, sendRequestSchema), null);

  // The key is claimed before the body is validated against the clock (scheduled_at "in the future"), so a repeat of
  // a successful request still replays after its scheduled time has passed.
  const { scope, namespace } = idempotencyNamespace(caller, "send");
  const providerKey = providerIdempotencyKey(caller.accountId, `${namespace}${idempotencyKey}`);
  return withIdempotencyKey(scope, caller.accountId, idempotencyKey, providerKey, rawBody, () =>
    performSend(caller, parseRequest(rawBody, sendRequestSchema), providerKey),
  );
}

/** The caller sends with a test key (lp_test_): its emails stay in the outbox and count against its day, not the month. */
export function isTestSend(caller: SendCaller): boolean {
  return caller.apiKey?.kind === "test";
}

/** A test key's sends never reach a provider: the embedded outbox keeps them, whatever provider is configured. */
export function mailerFor(caller: SendCaller): Mailer {
  return isTestSend(caller) ? outboxMailer : getMailer();
}

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

/**
 * The 429 of a test send past its day's limit (TEST_EMAILS_PER_DAY per account, whatever the plan): the email limit's
 * body, with Retry-After until the next UTC midnight. A batch's says how many were left (`used` today) and it held.
 */
export function testLimitReached(batch: { used: number; size: number } | null = null) {
  const { reset } = testSendDay();
  const which = batch
    ? `; ${Math.max(0, TEST_EMAILS_PER_DAY - batch.used)} are left today and this batch holds ${batch.size}`
    : " and today's have all been sent";
  return errors.emailLimitReached(
    `Test keys send at most ${TEST_EMAILS_PER_DAY} emails a day per account${which}. Nothing was sent. ` +
      `Test sends resume at ${reset.toISOString()}; live keys are not affected.`,
    reset,
  );
}

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

export function parseRequest<S extends z.ZodType>(rawBody: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(rawBody);
  if (!parsed.success) throw errors.validation(zodDetails(parsed.error));
  return parsed.data;
}

async function performSend(caller: SendCaller, request: SendRequest, providerKey: string | null): Promise<SendOutcome> {
  const { domains, template, suppressed } = await findSendContext(
    caller.accountId,
    request.template_id,
    recipientsOf(request),
  );
  const from = resolveSender(request.from, domains, getConfig().sharedSendingDomain, caller.apiKey?.domain ?? null);
  if (!template) throw errors.templateNotFound(NOT_IN_LIBRARY_MESSAGE);
  const suppressedDetails = suppressedRecipientDetails(request, suppressed);
  if (suppressedDetails.length > 0) throw errors.recipientSuppressed(suppressedDetails);

  // Rendering can fail (400 variables.<name>, 422): before anything is counted or recorded.
  const rendered = await renderTemplate(template, checkVariables(template, request.variables), {
    accountId: caller.accountId,
    plainText: request.text === undefined,
  });
  const mailer = mailerFor(caller);
  const message = outgoingMessage(request, from, rendered);
  const { scheduledAt } = message;

  const plan = PLANS[caller.plan];
  const { start, reset } = billingPeriod();
  const test = isTestSend(caller);
  const counted = await recordCountedEmail(
    {
      ...message,
      accountId: caller.accountId,
      templateId: template.id,
      status: mailer.deliversOnRecord ? (scheduledAt ? "scheduled" : "sent") : "pending",
      provider: mailer.provider,
      providerIdempotencyKey: providerKey,
      // Recorded as sent is sent: the outbox reports what became of it, as a provider would.
      deliveryEvent:
        mailer.deliversOnRecord && !scheduledAt
          ? outboxDeliveryEvent([...message.to, ...message.cc, ...message.bcc])
          : null,
    },
    {
      periodStart: start,
      limit: plan.emailsPerMonth,
      overage: plan.emailOverage,
      testDailyLimit: test ? TEST_EMAILS_PER_DAY : null,
    },
  );
  if (!counted.allowed && test) throw testLimitReached();
  if (!counted.allowed) {
    throw errors.emailLimitReached(
      `Your ${caller.plan} plan includes ${plan.emailsPerMonth} emails per month and they have all been sent. ` +
        `Sending resumes at ${reset.toISOString()}; upgrade to a paid plan to keep sending now.`,
      reset,
    );
  }

  if (counted.existing) {
    // The request's first attempt recorded and counted this email, then died before answering (its key's claim went
    // stale). Sent: answered as a replay of it. Still pending: the dispatcher hands it over; the caller retries.
    if (counted.existing.status === "pending") throw errors.idempotencyInProgress();
    return {
      body: sendAnswer(caller.plan, counted.existing, counted.used, counted.billingUsageReported, rendered.warnings),
      replayed: true,
    };
  }

  let id = counted.id;
  if (!mailer.deliversOnRecord) {
    const outgoing: OutgoingEmail = { id: counted.id, ...message };
    try {
      ({ id } = await mailer.send(outgoing, { idempotencyKey: emailHandoffKey(counted.id, providerKey) }));
    } catch (error) {
      const reason = describeProviderFailure(error);
      await markEmailFailed(counted.id, `${mailer.provider}: ${reason}`);
      throw errors.emailProviderError(
        `The email provider did not accept the message (${reason}). It was not sent and does not count toward your quota; you can retry.`,
      );
    }
    await markEmailAccepted(counted.id, id);
  }
  // Overage is billed through the payment processor: true only once it acknowledged this email's usage record. The
  // wait is bounded; if it runs out the email stays in the ledger and is reported by the cron job or the next send.
  // A scheduled email is reported when its time comes (it may be canceled until then).
  const billingUsageReported =
    counted.isOverage && !scheduledAt
      ? counted.billingUsageReported || (await reportOverageEmail(counted.id))
      : counted.billingUsageReported;

  const email = { ...message, id: counted.id, providerMessageId: id, createdAt: counted.createdAt };
  return {
    body: sendAnswer(caller.plan, email, counted.used, billingUsageReported, rendered.warnings),
    replayed: false,
  };
}

/** The message a send request describes, rendered: what is recorded and handed to the provider. */
export function outgoingMessage(request: SendRequest, from: string, rendered: RenderedEmail) {
  const list = (value: string | string[] | undefined) =>
    value === undefined ? [] : Array.isArray(value) ? value : [value];
  const attachments = (request.attachments ?? []).map((a) => ({
    filename: a.filename,
    ...(a.content !== undefined
      ? { content: a.content.replace(/\s+/g, ""), size: decodedBase64Length(a.content) }
      : {}),
    ...(a.path !== undefined ? { path: a.path } : {}),
    ...(a.content_type !== undefined ? { content_type: a.content_type } : {}),
  }));
  return {
    from,
    to: list(request.to),
    cc: list(request.cc),
    bcc: list(request.bcc),
    replyTo: list(request.reply_to),
    subject: request.subject,
    html: rendered.html,
    text: request.text ?? rendered.text ?? null,
    headers: request.headers ?? {},
    attachments,
    tags: request.tags ?? [],
    scheduledAt: request.scheduled_at ? new Date(request.scheduled_at) : null,
  };
}

/** POST /send's answer for a recorded email: its provider's message id (the outbox's: its own) and the usage. */
function sendAnswer(
  plan: PlanName,
  email: AnsweredEmail,
  used: number,
  billingUsageReported: boolean,
  warnings: RenderWarning[] | undefined,
): Record<string, unknown> {
  return {
    success: true,
    data: sentEmailRecord(email),
    meta: { email_usage: emailUsageMeta(plan, used, billingUsageReported) },
    ...(warnings ? { warnings } : {}),
  };
}

type AnsweredEmail = Pick<
  RecordedEmail,
  "id" | "providerMessageId" | "from" | "to" | "subject" | "createdAt" | "scheduledAt"
>;

/** A sent email as POST /send (and each item of POST /send/batch) answers with it. */
export function sentEmailRecord(email: AnsweredEmail) {
  return {
    id: email.providerMessageId ?? email.id,
    from: email.from,
    to: email.to,
    subject: email.subject,
    sent_at: email.createdAt.toISOString(),
    ...(email.scheduledAt ? { scheduled_at: email.scheduledAt.toISOString() } : {}),
  };
}

export function emailUsageMeta(plan: PlanName, used: number, billingUsageReported: boolean) {
  return { ...describeEmailUsage(plan, used), plan_type: plan, billing_usage_reported: billingUsageReported };
}

/**
 * `from` must be on one of the caller's verified domains or the operator's shared sending domain. Omitted: the
 * default sender of the caller's first verified domain. Otherwise 400 with field `from`.
 */
export function resolveSender(
  from: string | undefined,
  domains: SendingDomain[],
  sharedDomain: string | undefined,
  // An API key bound to one of the account's domains sends from it only (not from the shared domain either).
  keyDomain: string | null = null,
): string {
  const verified = domains.filter(
    (d) => isVerifiedForSending(d) && (keyDomain === null || d.domain.toLowerCase() === keyDomain),
  );
  const boundProblem = (what: string) =>
    errors.validation([
      {
        field: "from",
        message: `This API key sends only from ${keyDomain}${verified.length === 0 ? ", which is not verified for sending" : ""}: ${what}`,
      },
    ]);
  if (from === undefined) {
    const domain = verified.find((d) => d.default_sender);
    if (domain?.default_sender) return domain.default_sender;
    if (keyDomain !== null) throw boundProblem(`from is required (${keyDomain} has no default sender)`);
    throw errors.validation([
      {
        field: "from",
        message: sharedDomain
          ? `from is required: you have no verified sending domain. Verify a domain, or send from an address @${sharedDomain}.`
          : "from is required: you have no verified sending domain. Add and verify a domain first.",
      },
    ]);
  }
  const parsed = parseFromAddress(from);
  const domain = parsed?.address.slice(parsed.address.lastIndexOf("@") + 1).toLowerCase();
  const allowed = new Set(verified.map((d) => d.domain.toLowerCase()));
  if (sharedDomain && keyDomain === null) allowed.add(sharedDomain.toLowerCase());
  if (keyDomain !== null && (!parsed || !allowed.has(domain ?? ""))) {
    throw boundProblem(`from must be an address @${keyDomain}`);
  }
  if (!parsed || !domain || !allowed.has(domain)) {
    throw errors.validation([
      {
        field: "from",
        message:
          allowed.size > 0
            ? `from must be an address on one of your verified sending domains: ${[...allowed].join(", ")}`
            : "from must be an address on a verified sending domain, and you have none. Add and verify a domain first.",
      },
    ]);
  }
  // Re-serialised, so a display name holding specials (`,` `:` `;` …) reaches the provider quoted: one mailbox.
  return formatMailbox(parsed);
}

// ---------------------------------------------------------------------------------------------------------------
// Idempotency-Key. The key is claimed with a unique row before anything happens (claim_idempotency_key). Only a
// success is stored and replayed: a request that failed (validation, 404, 429, 502, 500) sent and counted nothing,
// so it releases the key and a retry with the same key runs afresh. A request that finds the key held by an
// identical request still running waits for it (polling) and replays its answer; if that takes longer than
// IDEMPOTENCY_WAIT_MS it answers 409 IDEMPOTENCY_IN_PROGRESS. A different body under a held key answers 409
// IDEMPOTENCY_CONFLICT. A request that takes over the stale claim of one that died finds the email that one recorded
// (record_counted_email: one email per provider key) and answers with it rather than sending and counting it again.

export async function withIdempotencyKey(
  scope: IdempotencyScope,
  accountId: string,
  key: string,
  providerKey: string,
  rawBody: Record<string, unknown>,
  run: () => Promise<SendOutcome>,
): Promise<SendOutcome> {
  const requestHash = hashRequest(rawBody);
  const claim = { accountId, scope, key, token: randomUUID() };
  const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
  let delay = 10;
  for (;;) {
    const held = await claimIdempotencyKey({ ...claim, requestHash });
    if (held.claimed) break;
    if (held.requestHash !== requestHash) throw errors.idempotencyConflict();
    if (held.status === "completed" && held.responseBody) return { body: held.responseBody, replayed: true };
    if (Date.now() >= deadline) throw errors.idempotencyInProgress();
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 200);
  }

  let outcome: SendOutcome;
  try {
    outcome = await run();
  } catch (error) {
    await releaseIdempotencyKey(claim).catch((releaseError) =>
      logError("releasing an idempotency key failed", releaseError),
    );
    throw error;
  }
  // The email went out: a failure to store the response must not turn into an error (the client would retry and
  // the key, left in flight, becomes claimable again only after it goes stale).
  await completeIdempotencyKey(claim, { status: 200, body: outcome.body }, providerKey).catch((storeError) =>
    logError("storing an idempotent response failed", storeError),
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

// ---------------------------------------------------------------------------------------------------------------
// The dispatch step: delivers due scheduled messages of the embedded outbox, recovers orphaned hand-offs, drops
// expired idempotency keys. The cron route calls it (Vercel Cron), and every send request triggers it in the
// background at most once per DISPATCH_INTERVAL_MS per process, which catches up between the cron's runs. (A
// long-running server also has the outbox send its due scheduled emails on time: deliverScheduledOutboxEmails.)

const DISPATCH_INTERVAL_MS = 30_000;
export const scheduleDispatch = throttledInBackground(
  "dispatching scheduled emails",
  DISPATCH_INTERVAL_MS,
  dispatchScheduled,
);

export async function dispatchScheduled(): Promise<{
  dispatched: number;
  recoveredEmails: number;
  failedEmails: number;
  expiredIdempotencyKeys: number;
  heldEventsApplied: number;
}> {
  const dispatched = await dispatchDueScheduledEmails();
  const { recovered: recoveredEmails, failed: failedEmails } = await recoverOrphanedEmails();
  const expiredIdempotencyKeys = await deleteExpiredIdempotencyKeys();
  const heldEventsApplied = await applyHeldEmailEvents("resend");
  return { dispatched, recoveredEmails, failedEmails, expiredIdempotencyKeys, heldEventsApplied };
}

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
          await answerDeadRequest(accountId, first.id, providerKey, rules.now).catch((storeError) =>
            logError("storing the answer of a recovered email failed", storeError),
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
async function answerDeadRequest(accountId: string, emailId: string, providerKey: string, now: Date): Promise<void> {
  const receipt = await findEmailReceipt(emailId);
  if (!receipt) return;
  // The dead request's warnings are not kept: its replay answers without them.
  const body = sendAnswer(receipt.plan, receipt.email, receipt.used, receipt.billingUsageReported, undefined);
  const isProviderKeyOf = (key: string) => providerIdempotencyKey(accountId, key) === providerKey;
  await completeStaleIdempotencyKey(
    { accountId, scope: "send", providerKey, isProviderKeyOf, now },
    { status: 200, body },
  );
}

/** The provider answered and refused the message itself (not a timeout, rate limit or concurrent-request conflict). */
function isDefinitiveRefusal(error: unknown): boolean {
  return (
    error instanceof MailerError &&
    error.statusCode !== null &&
    error.statusCode >= 400 &&
    error.statusCode < 500 &&
    ![408, 409, 429].includes(error.statusCode)
  );
}

function logError(message: string, error: unknown): void {
  console.error(
    JSON.stringify({ level: "error", message, error: error instanceof Error ? error.message : String(error) }),
  );
}
