import "server-only";
import { mapConcurrently } from "@/lib/core/concurrency";
import { AppError, errors, type ValidationDetail } from "@/lib/core/errors";
import { getConfig } from "@/lib/core/config";
import {
  applyOutboxEngagement,
  markEmailsAccepted,
  markEmailsFailed,
  recordCountedEmails,
} from "@/lib/sent-emails/delivery";
import { findSendContext, type SendContext } from "@/lib/sending/data/send-context";
import { getEmailsSent, getTestEmailsSentToday } from "@/lib/usage/service";
import { BATCH_RENDER_BUDGET_MS, MAX_BATCH_RENDERED_BYTES } from "@/lib/core/limits";
import { describeProviderFailure } from "@/lib/mail-transport";
import { outboxDeliveryEvent } from "@/lib/mail-transport/outbox-delivery";
import { reportOverageEmail } from "@/lib/billing/payments";
import { billingPeriod, PLANS, TEST_EMAILS_PER_DAY } from "@/lib/core/plans";
import { checkVariables, renderTemplate } from "@/lib/render";
import type { RenderWarning } from "@/lib/render/analysis/warnings";
import { sendBatchRequestSchema, type SendBatchResponse, type SendRequest } from "@/lib/sending/schemas";
import { emailUsageMeta, sentEmailRecord } from "@/lib/sending/response";
import { isTestSend, mailerFor, testLimitReached, type SendCaller } from "@/lib/sending/caller";
import { scheduleDispatch } from "@/lib/sending/dispatch";
import { deliverWebhookSoon } from "@/lib/webhooks/delivery";
import {
  batchHandoffKey,
  checkIdempotencyKey,
  idempotencyNamespace,
  providerIdempotencyKey,
  withIdempotencyKey,
  type SendOutcome,
} from "@/lib/sending/idempotency";
import {
  checkDraftSend,
  checkSubject,
  notInLibraryMessage,
  outgoingMessage,
  parseRequest,
  resolveSender,
  templateToSend,
} from "@/lib/sending/pipeline";
import { recipientsOf, suppressedRecipientDetails } from "@/lib/suppressions/service";
import { unsubscribeGroup, unsubscribeUrl, withUnsubscribeHeaders } from "@/lib/unsubscribe/service";

/** Renders of one batch run this many at a time: each is off the event loop already, this bounds one request's share. */
const BATCH_RENDER_CONCURRENCY = 4;
/** Overage emails of one batch reported to the payment processor at a time (each report's wait is bounded). */
const BATCH_REPORT_CONCURRENCY = 4;

/**
 * POST /send/batch: every item validated (400 `emails.<i>.<field>`), addressed (404, 422 suppressed) and rendered
 * before anything is counted; then all are counted and recorded in one statement (on the free plan, all or none) and
 * handed to the provider in one call. One Idempotency-Key covers the batch.
 */
export async function sendBatch(
  caller: SendCaller,
  rawBody: Record<string, unknown>,
  idempotencyKey: string | null,
  signal?: AbortSignal,
): Promise<SendOutcome<SendBatchResponse>> {
  scheduleDispatch();
  // After the response: the first attempt of the webhook events the send makes.
  deliverWebhookSoon(caller.accountId);
  checkIdempotencyKey(idempotencyKey, rawBody, sendBatchRequestSchema);
  if (idempotencyKey === null) {
    return performBatch(caller, parseRequest(rawBody, sendBatchRequestSchema).emails, null, signal);
  }
  // Namespaced apart from POST /send's keys: the same key on both endpoints names two requests.
  const { scope, namespace } = idempotencyNamespace(caller, "send_batch");
  const providerKey = providerIdempotencyKey(caller.accountId, `${namespace}batch\n${idempotencyKey}`);
  return withIdempotencyKey(scope, caller.accountId, idempotencyKey, providerKey, rawBody, () =>
    performBatch(caller, parseRequest(rawBody, sendBatchRequestSchema).emails, providerKey, signal),
  );
}

async function performBatch(
  caller: SendCaller,
  items: SendRequest[],
  providerKey: string | null,
  // A batch whose caller went away stops rendering: its renders not sent to a worker yet are dropped.
  signal: AbortSignal | undefined,
): Promise<SendOutcome<SendBatchResponse>> {
  const contexts = await findBatchContexts(caller.accountId, items);
  const sharedDomain = getConfig().sharedSendingDomain;

  // The first item whose template the account may not send is the batch's 404: its message is looked up now.
  const missing = items.find((item) => !contexts.get(contextKey(item))!.template);
  const notInLibrary = missing && (await notInLibraryMessage(caller.accountId, missing.template_id));

  const invalid: ValidationDetail[] = [];
  const suppressed: ValidationDetail[] = [];
  const prepared = items.map((item, i) => {
    const prefix = `emails.${i}.`;
    const context = contexts.get(contextKey(item))!;
    if (!context.template) {
      throw new AppError("TEMPLATE_NOT_FOUND", {
        message: notInLibrary!,
        details: [{ field: `${prefix}template_id`, message: notInLibrary! }],
      });
    }
    collectDetails(invalid, prefix, () => checkDraftSend(caller, item.version));
    const template = templateToSend(context.template, item.version, prefix);
    const from = collectDetails(invalid, prefix, () =>
      resolveSender(item.from, context.domains, sharedDomain, caller.apiKey?.domain ?? null),
    );
    const checked = collectDetails(invalid, prefix, () => {
      const variables = checkVariables(template, item.variables, item.locale);
      checkSubject(item, variables);
      return variables;
    });
    const group = item.unsubscribe ? unsubscribeGroup(item.unsubscribe) : null;
    suppressed.push(...suppressedRecipientDetails(item, context.suppressed, prefix, group));
    return { item, template, from, checked, group };
  });
  if (invalid.length > 0) throw errors.validation(invalid);
  if (suppressed.length > 0) throw errors.recipientSuppressed(suppressed);

  const plan = PLANS[caller.plan];
  const { start, reset } = billingPeriod();
  const test = isTestSend(caller);
  // Read before rendering, so a free account (or a test key's day) with too few emails left is refused cheaply; the
  // count itself is decided atomically when the batch is recorded.
  if (test) {
    const used = await getTestEmailsSentToday(caller.accountId);
    if (used + items.length > TEST_EMAILS_PER_DAY) throw testLimitReached(caller, { used, size: items.length });
  } else if (!plan.emailOverage) {
    const used = await getEmailsSent(caller.accountId, start);
    if (used + items.length > plan.emailsPerMonth) throw batchOverLimit(caller, used, items.length, reset);
  }

  // The batch ends at its first failure (a render's, or one of the bounds below): no render starts after it, and those
  // still waiting for a worker leave the queue. Those running finish, each within its deadline.
  // Each item's unsubscribe link (the schema allows `unsubscribe` with one recipient alone, whom its link names).
  const links = await Promise.all(
    prepared.map(({ item, group }) =>
      group === null ? null : unsubscribeUrl(caller.accountId, recipientsOf(item)[0], group),
    ),
  );
  const stop = new AbortController();
  const renderSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let renderedBytes = 0;
  let sandboxMs = 0;
  const rendered = await mapConcurrently(prepared, BATCH_RENDER_CONCURRENCY, async ({ item, template, checked }, i) => {
    const link = links[i];
    const email = await withItemPrefix(i, () =>
      renderTemplate(
        template,
        link === null ? checked! : { ...checked!, props: { ...checked!.props, unsubscribeUrl: link } },
        {
          accountId: caller.accountId,
          plainText: item.text === undefined,
          subject: item.subject === undefined,
          signal: renderSignal,
          onSandboxTime: (ms) => (sandboxMs += ms),
        },
      ),
    );
    if (sandboxMs > BATCH_RENDER_BUDGET_MS) {
      throw errors.batchTooLarge(
        `The batch's templates took more than ${BATCH_RENDER_BUDGET_MS / 1000} s to render in all (passed at ` +
          `emails.${i}). Nothing was sent; send fewer emails per batch, or make the templates render faster.`,
      );
    }
    renderedBytes += Buffer.byteLength(email.html) + (email.text ? Buffer.byteLength(email.text) : 0);
    if (renderedBytes > MAX_BATCH_RENDERED_BYTES) {
      throw errors.batchTooLarge(
        `The batch's emails render to more than ${MAX_BATCH_RENDERED_BYTES / 1024 / 1024} MB of HTML and text in all ` +
          `(passed at emails.${i}). Nothing was sent; send them in smaller batches.`,
      );
    }
    return email;
  }).finally(() => stop.abort(new Error("The batch stopped")));
  const messages = prepared.map(({ item, template, from, checked }, i) => ({
    ...withUnsubscribeHeaders(outgoingMessage(item, from!, rendered[i]), links[i]),
    // The template's id, whatever the item named it by.
    templateId: template.id,
    templateVersion: template.template_version,
    locale: checked!.locale ?? null,
  }));

  const mailer = mailerFor(caller);
  const counted = await recordCountedEmails(
    messages.map((message) => ({
      ...message,
      deliveryEvent: mailer.deliversOnRecord
        ? outboxDeliveryEvent([...message.to, ...message.cc, ...message.bcc])
        : null,
    })),
    {
      accountId: caller.accountId,
      status: mailer.deliversOnRecord ? "sent" : "pending",
      provider: mailer.provider,
      providerIdempotencyKey: providerKey,
    },
    {
      periodStart: start,
      limit: plan.emailsPerMonth,
      overage: plan.emailOverage,
      testDailyLimit: test ? TEST_EMAILS_PER_DAY : null,
    },
  );
  if (!counted.allowed && test) {
    throw testLimitReached(caller, { used: counted.testUsed ?? TEST_EMAILS_PER_DAY, size: items.length });
  }
  if (!counted.allowed) throw batchOverLimit(caller, counted.used, items.length, reset);

  let providerIds: (string | null)[] = counted.emails.map((email) => email.providerMessageId);
  if (counted.existing) {
    // The batch's first attempt recorded and counted these emails, then died before answering (its key's claim went
    // stale): answered as a replay of it, or, while its hand-off may still run, 409 for the caller to retry.
    if (counted.emails.some((email) => email.status === "pending")) throw errors.idempotencyInProgress();
  } else if (!mailer.deliversOnRecord) {
    const ids = counted.emails.map((email) => email.id);
    let accepted: string[];
    try {
      ({ ids: accepted } = await mailer.sendBatch(
        messages.map((message, i) => ({ ...message, id: ids[i] })),
        { idempotencyKey: batchHandoffKey(ids[0], providerKey) },
      ));
    } catch (error) {
      const reason = describeProviderFailure(error);
      await markEmailsFailed(ids, `${mailer.provider}: ${reason}`);
      throw errors.emailProviderError(
        `The email provider did not accept the batch (${reason}). Nothing was sent and nothing counts toward your quota; you can retry.`,
        error,
      );
    }
    await markEmailsAccepted(ids.map((id, i) => ({ id, providerMessageId: accepted[i] })));
    providerIds = accepted;
  } else {
    for (const [i, email] of counted.emails.entries()) {
      const recipients = [...messages[i].to, ...messages[i].cc, ...messages[i].bcc];
      if (outboxDeliveryEvent(recipients).type === "delivered")
        await applyOutboxEngagement(email.id, recipients, messages[i].html);
    }
  }

  const overage = counted.emails.filter((email) => email.isOverage);
  const reports = await mapConcurrently(overage, BATCH_REPORT_CONCURRENCY, (email) => reportOverageEmail(email.id));
  const billingUsageReported = overage.length > 0 && reports.every(Boolean);
  const warnings = rendered.flatMap((email, i) =>
    (email.warnings ?? []).map((warning: RenderWarning) => ({ ...warning, field: `emails.${i}.${warning.field}` })),
  );
  return {
    body: {
      success: true,
      data: counted.emails.map((email, i) =>
        sentEmailRecord(
          {
            ...messages[i],
            id: email.id,
            providerMessageId: providerIds[i],
            createdAt: email.createdAt,
            scheduledAt: null,
          },
          test,
        ),
      ),
      meta: { email_usage: emailUsageMeta(caller.plan, counted.used, billingUsageReported) },
      ...(warnings.length > 0 ? { warnings } : {}),
    },
    replayed: counted.existing,
  };
}

/** 429: on a plan without overage, the batch holds more emails than the month has left. Nothing was sent. */
function batchOverLimit(caller: SendCaller, used: number, count: number, reset: Date) {
  const limit = PLANS[caller.plan].emailsPerMonth;
  return errors.emailLimitReached(
    `Your ${caller.plan} plan includes ${limit} emails per month; ${Math.max(0, limit - used)} are left and this ` +
      `batch holds ${count}. Nothing was sent. Send fewer, wait until ${reset.toISOString()}, or upgrade to a paid plan.`,
    reset,
  );
}

/** A template in the version an item names: what findBatchContexts looks up once. */
const contextKey = (item: SendRequest) => `${item.template_id}:${item.version ?? ""}`;

/** Each template (in each version) the batch names, looked up once, with the suppressions among its items' recipients. */
async function findBatchContexts(accountId: string, items: SendRequest[]): Promise<Map<string, SendContext>> {
  const lookups = new Map<string, { item: SendRequest; recipients: string[] }>();
  for (const item of items) {
    const lookup = lookups.get(contextKey(item)) ?? { item, recipients: [] };
    lookup.recipients.push(...recipientsOf(item));
    lookups.set(contextKey(item), lookup);
  }
  const entries = await Promise.all(
    [...lookups].map(
      async ([key, { item, recipients }]) =>
        [key, await findSendContext(accountId, item.template_id, recipients, item.version)] as const,
    ),
  );
  return new Map(entries);
}

/** Runs `check`; a refused field it throws joins `details`, under `prefix`, and the item goes on being checked. */
function collectDetails<T>(details: ValidationDetail[], prefix: string, check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (error instanceof AppError && error.code === "VALIDATION_ERROR" && error.options.details) {
      const refused = error.options.details as ValidationDetail[];
      details.push(...refused.map((detail) => ({ ...detail, field: `${prefix}${detail.field}` })));
      return undefined;
    }
    throw error;
  }
}

/** A render's failure names the item it came from. */
async function withItemPrefix<T>(index: number, render: () => Promise<T>): Promise<T> {
  try {
    return await render();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { message, details } = error.options as { message?: string; details?: ValidationDetail[] };
    throw new AppError(error.code, {
      ...error.options,
      ...(message ? { message: `emails.${index}: ${message}` } : {}),
      ...(details
        ? { details: details.map((detail) => ({ ...detail, field: `emails.${index}.${detail.field}` })) }
        : {}),
    });
  }
}
