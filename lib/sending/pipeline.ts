import "server-only";
import type { z } from "zod";
import { AppError, errors, zodDetails } from "@/lib/core/errors";
import { getConfig } from "@/lib/core/config";
import { isVerifiedForSending, type SendingDomain } from "@/lib/sending-domains/service";
import {
  applyOutboxEngagement,
  markEmailAccepted,
  markEmailFailed,
  recordCountedEmail,
} from "@/lib/sent-emails/delivery";
import { findSendContext, type RenderableTemplate } from "@/lib/sending/data/send-context";
import { templateNameSuggestion, type VersionChoice } from "@/lib/templates/service";
import { describeProviderFailure, type OutgoingEmail } from "@/lib/mail-transport";
import { outboxDeliveryEvent } from "@/lib/mail-transport/outbox-delivery";
import { reportOverageEmail } from "@/lib/billing/payments";
import { billingPeriod, PLANS, TEST_EMAILS_PER_DAY } from "@/lib/core/plans";
import { checkVariables, renderTemplate, type CheckedVariables, type RenderedLocalizedEmail } from "@/lib/render";
import { headerTextProblem } from "@/lib/mail-transport/header-text";
import { MAX_HEADER_LINE_LENGTH } from "@/lib/core/limits";
import { decodedBase64Length } from "@/lib/sending/base64";
import { formatMailbox, parseFromAddress } from "@/lib/mail-transport/mailbox";
import { sendRequestSchema, type SendRequest, type SendResponse } from "@/lib/sending/schemas";
import { sendResponseBody } from "@/lib/sending/response";
import { checkAttachmentHosts } from "@/lib/sending/attachment-hosts";
import { isTestSend, mailerFor, testLimitReached, type SendCaller } from "@/lib/sending/caller";
import { scheduleDispatch } from "@/lib/sending/dispatch";
import { deliverWebhookSoon } from "@/lib/webhooks/delivery";
import {
  checkIdempotencyKey,
  emailHandoffKey,
  idempotencyNamespace,
  providerIdempotencyKey,
  withIdempotencyKey,
  type SendOutcome,
} from "@/lib/sending/idempotency";
import { recipientsOf, suppressedRecipientDetails } from "@/lib/suppressions/service";
import { unsubscribeGroup, unsubscribeUrl, withUnsubscribeHeaders } from "@/lib/unsubscribe/service";

// What a send hands rendering (lib/render), in the version chosen.
export type { RenderableTemplate };

const NOT_IN_LIBRARY_MESSAGE = "This template is not in your library. Add or purchase it first.";

/** The 404 of a `template_id` the account may not send: add it first, or the name it was a slip of. */
export async function notInLibraryMessage(accountId: string, templateId: string): Promise<string> {
  const suggestion = await templateNameSuggestion(accountId, templateId);
  return suggestion ? `${NOT_IN_LIBRARY_MESSAGE} Did you mean ${suggestion}?` : NOT_IN_LIBRARY_MESSAGE;
}

/**
 * A draft is sent only with a test key (its emails stay in the outbox): how a preview deployment tries a template
 * end to end while live sends keep the published version. Else 400 naming `field`.
 */
export function checkDraftSend(caller: SendCaller, version: VersionChoice, field = "version"): void {
  if (version === "draft" && !isTestSend(caller)) {
    throw errors.validation([
      { field, message: 'version "draft" may be sent only with a test key (lp_test_…); publish the draft to send it' },
    ]);
  }
}

/**
 * The template as send_context found it in the version asked for: 404 VERSION_NOT_FOUND when it has no such version,
 * and 409 TEMPLATE_NOT_PUBLISHED when none was named and it has only a draft. A batch names its item (`prefix`,
 * `emails.<i>.`) in the answer's details.
 */
export function templateToSend(
  template: RenderableTemplate,
  version: VersionChoice,
  prefix?: string,
): RenderableTemplate & { template_version: string } {
  const { template_version: rendered } = template;
  const refused = (error: AppError, field: string) =>
    prefix === undefined
      ? error
      : new AppError(error.code, {
          ...error.options,
          details: [{ field: `${prefix}${field}`, message: error.message }],
        });
  if (rendered === null) throw refused(errors.versionNotFound(version!), "version");
  if (version === undefined && rendered === "draft") throw refused(errors.templateNotPublished(), "template_id");
  return { ...template, template_version: rendered };
}

/**
 * POST /send: validate → (claim the Idempotency-Key)
 * → render → count and record atomically → hand to the mailer → answer. Nothing is counted before the message is
 * recorded, and a message the provider refuses is kept as failed and its count given back.
 */
export async function sendEmail(
  caller: SendCaller,
  rawBody: Record<string, unknown>,
  idempotencyKey: string | null,
): Promise<SendOutcome<SendResponse>> {
  scheduleDispatch();
  // After the response: the first attempt of the webhook events the send makes.
  deliverWebhookSoon(caller.accountId);
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

export function parseRequest<S extends z.ZodType>(rawBody: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(rawBody);
  if (!parsed.success) throw errors.validation(zodDetails(parsed.error));
  return parsed.data;
}

async function performSend(
  caller: SendCaller,
  request: SendRequest,
  providerKey: string | null,
): Promise<SendOutcome<SendResponse>> {
  checkDraftSend(caller, request.version);
  await checkAttachmentHosts(request.attachments);
  const context = await findSendContext(caller.accountId, request.template_id, recipientsOf(request), request.version);
  const { domains, suppressed } = context;
  const from = resolveSender(request.from, domains, getConfig().sharedSendingDomain, caller.apiKey?.domain ?? null);
  if (!context.template)
    throw errors.templateNotFound(await notInLibraryMessage(caller.accountId, request.template_id));
  const template = templateToSend(context.template, request.version);
  const group = request.unsubscribe ? unsubscribeGroup(request.unsubscribe) : null;
  const suppressedDetails = suppressedRecipientDetails(request, suppressed, "", group);
  if (suppressedDetails.length > 0) throw errors.recipientSuppressed(suppressedDetails);

  // Rendering can fail (400 variables.<name>, locale or subject, 422): before anything is counted or recorded.
  const checked = checkVariables(template, request.variables, request.locale);
  checkSubject(request, checked);
  // The schema allows `unsubscribe` with one recipient alone, whom its link names.
  const unsubscribe = group === null ? null : await unsubscribeUrl(caller.accountId, recipientsOf(request)[0], group);
  const rendered = await renderTemplate(
    template,
    unsubscribe === null ? checked : { ...checked, props: { ...checked.props, unsubscribeUrl: unsubscribe } },
    { accountId: caller.accountId, plainText: request.text === undefined, subject: request.subject === undefined },
  );
  const mailer = mailerFor(caller);
  const message = {
    ...withUnsubscribeHeaders(outgoingMessage(request, from, rendered), unsubscribe),
    locale: checked.locale ?? null,
  };
  const { scheduledAt } = message;
  const recipients = [...message.to, ...message.cc, ...message.bcc];
  // Recorded as sent is sent: the outbox reports what became of it, as a provider would.
  const outboxDelivery = mailer.deliversOnRecord && !scheduledAt ? outboxDeliveryEvent(recipients) : null;

  const plan = PLANS[caller.plan];
  const { start, reset } = billingPeriod();
  const test = isTestSend(caller);
  const counted = await recordCountedEmail(
    {
      ...message,
      accountId: caller.accountId,
      templateId: template.id,
      templateVersion: template.template_version,
      status: mailer.deliversOnRecord ? (scheduledAt ? "scheduled" : "sent") : "pending",
      provider: mailer.provider,
      providerIdempotencyKey: providerKey,
      deliveryEvent: outboxDelivery,
    },
    {
      periodStart: start,
      limit: plan.emailsPerMonth,
      overage: plan.emailOverage,
      testDailyLimit: test ? TEST_EMAILS_PER_DAY : null,
    },
  );
  if (!counted.allowed && test) throw testLimitReached(caller);
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
      body: sendResponseBody(
        caller.plan,
        counted.existing,
        counted.used,
        counted.billingUsageReported,
        rendered.warnings,
        test,
      ),
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
        error,
      );
    }
    await markEmailAccepted(counted.id, id);
  } else if (!scheduledAt && outboxDelivery?.type === "delivered") {
    await applyOutboxEngagement(counted.id, recipients, message.html);
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
    body: sendResponseBody(caller.plan, email, counted.used, billingUsageReported, rendered.warnings, test),
    replayed: false,
  };
}

/**
 * A send names its subject, or leaves it to the template's messages (a top-level `subject` in the resolved locale);
 * neither: 400 with field `subject`, before anything renders.
 */
export function checkSubject(request: Pick<SendRequest, "subject">, checked: CheckedVariables): void {
  if (request.subject === undefined && checked.subjectMessage === undefined)
    throw errors.validation([{ field: "subject", message: "subject is required" }]);
}

/**
 * The subject: the request's, else the one the sandbox formatted from the locale's `subject` message, which must be a
 * header line as the request's would (else 422 RENDER_ERROR: the template's messages are at fault, not the request).
 */
function emailSubject(request: SendRequest, rendered: RenderedLocalizedEmail): string {
  if (request.subject !== undefined) return request.subject;
  const { subject } = rendered;
  if (subject === undefined) throw errors.renderFailed("The template's subject message gave no subject");
  const problem =
    subject.length === 0 || subject.length > MAX_HEADER_LINE_LENGTH
      ? `must be 1 to ${MAX_HEADER_LINE_LENGTH} characters`
      : headerTextProblem(subject, { allowTab: true });
  if (problem) throw errors.renderFailed(`The subject the template's subject message formats to ${problem}`);
  return subject;
}

/** The message a send request describes, rendered: what is recorded and handed to the provider. */
export function outgoingMessage(request: SendRequest, from: string, rendered: RenderedLocalizedEmail) {
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
    subject: emailSubject(request, rendered),
    html: rendered.html,
    text: request.text ?? rendered.text ?? null,
    headers: request.headers ?? {},
    attachments,
    tags: request.tags ?? [],
    scheduledAt: request.scheduled_at ? new Date(request.scheduled_at) : null,
  };
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
