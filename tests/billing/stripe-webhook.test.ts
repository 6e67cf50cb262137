import { describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { POST as postLibrary } from "@/app/api/v1/library/route";
import { GET as webhookGet, POST as webhook } from "@/app/api/webhooks/stripe/route";
import { getAccountByIdOrThrow } from "@/lib/auth/data/accounts";
import { applyLapsedSubscriptions } from "@/lib/billing/data/subscriptions";
import { saveCustomerId } from "@/lib/billing/data/customers";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/core/errors";
import { stripeProcessor, verifyWebhook } from "@/lib/billing/payments/stripe";
import { MAX_WEBHOOK_BODY_BYTES } from "@/lib/core/limits";
import type { PlanName } from "@/lib/core/plans";
import { auth, call, catalogueId, createUser, type TestUser } from "../support/api";
import { setTestEnv } from "../support/env";
import { signedEvent, stripeEvent, useStripeStandIn, WITHOUT_STRIPE } from "../support/stripe";

vi.mock("stripe", () => import("../support/stripe-sdk"));
const standIn = useStripeStandIn();
const SITE = "http://localhost:3000";
const randomAccountId = () => crypto.randomUUID();
const DAY = 86_400;

function deliver(event: Record<string, unknown>, signature?: string) {
  const signed = signedEvent(event);
  return call(webhook, "/api/webhooks/stripe", {
    method: "POST",
    headers: { "stripe-signature": signature ?? signed.signature },
    body: signed.payload,
  });
}

function deliverWithHeaders(event: Record<string, unknown>, headers: Record<string, string>) {
  const signed = signedEvent(event);
  return call(webhook, "/api/webhooks/stripe", {
    method: "POST",
    headers: { "stripe-signature": signed.signature, ...headers },
    body: signed.payload,
  });
}

async function purchases(user: TestUser) {
  return getDb()<{ id: string; status: string; processor_ref: string | null; completed_at: Date | null }[]>`
    select id, status, processor_ref, completed_at from purchases where account_id = ${user.accountId} order by created_at, id`;
}

async function library(user: TestUser) {
  return getDb()<
    { template_id: string; added_via: string }[]
  >`select template_id, added_via from library_entries where account_id = ${user.accountId}`;
}

async function storedEvent(id: string) {
  const [row] = await getDb()<
    { id: string; type: string; outcome: string }[]
  >`select id, type, outcome from stripe_events where id = ${id}`;
  return row ?? null;
}

/** Starts a purchase through the processor (stand-in checkout) and returns the Checkout Session as Stripe would send it. */
async function startPurchase(user: TestUser, slug = "receipt") {
  const templateId = await catalogueId(slug);
  const outcome = await stripeProcessor.startTemplatePurchase({
    accountId: user.accountId,
    templateId,
    returnUrl: `${SITE}/dashboard/library/${templateId}`,
  });
  expect(outcome.completed).toBe(false);
  const [purchase] = (await purchases(user)).filter((p) => p.status === "pending");
  const session = {
    id: purchase.processor_ref!,
    object: "checkout.session",
    mode: "payment",
    status: "complete",
    payment_status: "paid",
    amount_total: 1900,
    currency: "usd",
    customer: standIn.id("cus", 1),
    client_reference_id: purchase.id,
    metadata: {
      kind: "template_purchase",
      account_id: user.accountId,
      template_id: templateId,
      purchase_id: purchase.id,
    },
  };
  return { templateId, purchase, session };
}

describe("POST /api/webhooks/stripe: signatures", () => {
  it("answers 400 to a bad or missing signature and touches nothing", async () => {
    const user = await createUser("free");
    const { purchase, session } = await startPurchase(user);
    const event = stripeEvent("checkout.session.completed", session);

    const forged = signedEvent(event, "whsec_someone_else_entirely");
    const bad = await deliver(event, forged.signature);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: "Invalid webhook signature", code: "INVALID_SIGNATURE", success: false });

    // A valid signature over a different body (the payload was tampered with).
    const other = signedEvent({ ...event, id: "evt_other" });
    expect((await deliver(event, other.signature)).status).toBe(400);

    // Correctly signed, but an hour old: outside the SDK's tolerance (a captured delivery replayed later).
    const old = signedEvent(event, undefined, Math.floor(Date.now() / 1000) - 3600);
    expect((await deliver(event, old.signature)).status).toBe(400);

    const missing = await call(webhook, "/api/webhooks/stripe", { method: "POST", body: JSON.stringify(event) });
    expect(missing.status).toBe(400);

    expect(await storedEvent(event.id)).toBeNull();
    expect((await purchases(user))[0]).toMatchObject({ id: purchase.id, status: "pending" });
    expect(await library(user)).toEqual([]);
  });

  it("is refused by verifyWebhook itself with the INVALID_SIGNATURE AppError the route answers", () => {
    const forged = signedEvent(stripeEvent("customer.created", {}), "whsec_someone_else_entirely");
    const refusal = (signature: string | null) => {
      try {
        verifyWebhook(forged.payload, signature);
      } catch (error) {
        return error instanceof AppError ? { code: error.code, message: error.message } : error;
      }
    };
    expect(refusal(forged.signature)).toEqual({ code: "INVALID_SIGNATURE", message: expect.any(String) });
    expect(refusal(null)).toEqual({ code: "INVALID_SIGNATURE", message: "Missing Stripe-Signature header" });
  });

  it("answers 503 while Stripe is not configured (Stripe retries later), and 405 to other methods", async () => {
    setTestEnv(WITHOUT_STRIPE);
    const result = await deliver(stripeEvent("customer.created", { id: "cus_x", object: "customer" }));
    expect(result.status).toBe(503);
    expect(result.body).toMatchObject({ code: "PAYMENTS_NOT_CONFIGURED" });
    const get = await call(webhookGet, "/api/webhooks/stripe");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("acknowledges unknown event types and ignores them", async () => {
    const event = stripeEvent("invoice.finalized", { id: "in_123", object: "invoice" });
    const result = await deliver(event);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ received: true, duplicate: false, outcome: "ignored" });
    expect(await storedEvent(event.id)).toEqual({ id: event.id, type: "invoice.finalized", outcome: "ignored" });
  });
});

describe("POST /api/webhooks/stripe: body size", () => {
  const tooLarge = { error: "Request body too large", code: "PAYLOAD_TOO_LARGE", success: false };

  /** A chunked body (no Content-Length) of `total` bytes in 64 KB chunks; `pulled` counts what the server read. */
  function chunkedBody(total: number, signature: string) {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const counter = { pulled: 0 };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (counter.pulled >= total) return controller.close();
        counter.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const request = new NextRequest("http://localhost:3000/api/webhooks/stripe", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body,
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    return { request, counter };
  }

  it("refuses a chunked body past 1 MB with 413 as soon as the running count passes the cap, before buffering the rest", async () => {
    const signed = signedEvent(stripeEvent("invoice.finalized", { id: "in_big", object: "invoice" }));
    const { request, counter } = chunkedBody(64 * 1024 * 1024, signed.signature);
    const response = await webhook(request);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(tooLarge);
    // Read up to the cap (1 MB) and at most a chunk or two past it, not the 64 MB offered.
    expect(counter.pulled).toBeGreaterThan(MAX_WEBHOOK_BODY_BYTES);
    expect(counter.pulled).toBeLessThanOrEqual(MAX_WEBHOOK_BODY_BYTES + 2 * 64 * 1024);
  });

  it("refuses a declared Content-Length past 1 MB without reading the body; a chunked event under the cap is applied", async () => {
    const event = stripeEvent("invoice.finalized", { id: "in_declared", object: "invoice" });
    const declared = await deliverWithHeaders(event, { "content-length": String(MAX_WEBHOOK_BODY_BYTES + 1) });
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual(tooLarge);
    expect(await storedEvent(event.id)).toBeNull();

    const signed = signedEvent(event);
    const chunked = await call(webhook, "/api/webhooks/stripe", {
      method: "POST",
      headers: { "stripe-signature": signed.signature },
      body: signed.payload,
      chunked: true,
    });
    expect(chunked.status).toBe(200);
    expect(chunked.body).toEqual({ received: true, duplicate: false, outcome: "ignored" });
  });
});

describe("POST /api/webhooks/stripe: template purchases", () => {
  it("checkout.session.completed completes the pending purchase and adds the template as purchased, once", async () => {
    const user = await createUser("free");
    const { templateId, purchase, session } = await startPurchase(user);
    const event = stripeEvent("checkout.session.completed", session);

    const first = await deliver(event);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, duplicate: false, outcome: "completed" });
    expect(await library(user)).toEqual([{ template_id: templateId, added_via: "purchased" }]);
    const [completed] = await purchases(user);
    expect(completed).toMatchObject({ id: purchase.id, status: "completed", processor_ref: session.id });
    expect(completed.completed_at).toBeInstanceOf(Date);

    // A replay of the same event (same id) is a no-op.
    const replay = await deliver(event);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true, outcome: "completed" });

    // Another event about the same paid session (async_payment_succeeded, or a re-sent event) changes nothing twice.
    const again = await deliver(stripeEvent("checkout.session.async_payment_succeeded", session));
    expect(again.body).toMatchObject({ duplicate: false, outcome: "already_completed" });
    // A late "expired" for the same session does not undo it.
    const expired = await deliver(
      stripeEvent("checkout.session.expired", { ...session, status: "expired", payment_status: "unpaid" }),
    );
    expect(expired.body).toMatchObject({ outcome: "unchanged" });

    expect(await library(user)).toHaveLength(1);
    expect((await purchases(user)).map((p) => p.status)).toEqual(["completed"]);
    const [{ n }] = await getDb()<
      { n: number }[]
    >`select count(*)::int as n from stripe_events where object_id = ${session.id}`;
    expect(n).toBe(3);
  });

  it("concurrent deliveries of the same event apply it once", async () => {
    const user = await createUser("monthly");
    const { session } = await startPurchase(user);
    const event = stripeEvent("checkout.session.completed", session);
    const results = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    expect(await library(user)).toHaveLength(1);
  });

  it("an expired checkout expires the purchase and gives the free plan's monthly purchase back", async () => {
    const user = await createUser("free");
    const { session } = await startPurchase(user, "receipt");
    await expect(
      stripeProcessor.startTemplatePurchase({ accountId: user.accountId, templateId: "newsletter", returnUrl: SITE }),
    ).rejects.toMatchObject({
      code: "PURCHASE_LIMIT_REACHED",
    });

    const result = await deliver(
      stripeEvent("checkout.session.expired", { ...session, status: "expired", payment_status: "unpaid" }),
    );
    expect(result.body).toMatchObject({ outcome: "expired" });
    expect((await purchases(user)).map((p) => p.status)).toEqual(["expired"]);
    expect(await library(user)).toEqual([]);

    const again = await stripeProcessor.startTemplatePurchase({
      accountId: user.accountId,
      templateId: "newsletter",
      returnUrl: SITE,
    });
    expect(again.completed).toBe(false);
  });

  it("a delayed payment waits for async_payment_succeeded; a failed one marks the purchase failed", async () => {
    const paying = await createUser("monthly");
    const { templateId, session } = await startPurchase(paying);
    const unpaid = await deliver(stripeEvent("checkout.session.completed", { ...session, payment_status: "unpaid" }));
    expect(unpaid.body).toMatchObject({ outcome: "awaiting_payment" });
    expect((await purchases(paying)).map((p) => p.status)).toEqual(["pending"]);
    const paid = await deliver(stripeEvent("checkout.session.async_payment_succeeded", session));
    expect(paid.body).toMatchObject({ outcome: "completed" });
    expect(await library(paying)).toEqual([{ template_id: templateId, added_via: "purchased" }]);

    const failing = await createUser("monthly");
    const failed = await startPurchase(failing);
    const result = await deliver(
      stripeEvent("checkout.session.async_payment_failed", { ...failed.session, payment_status: "unpaid" }),
    );
    expect(result.body).toMatchObject({ outcome: "failed" });
    expect((await purchases(failing)).map((p) => p.status)).toEqual(["failed"]);
    // Failed stays failed: a replayed or late failure event changes nothing.
    const late = await deliver(
      stripeEvent("checkout.session.expired", { ...failed.session, status: "expired", payment_status: "unpaid" }),
    );
    expect(late.body).toMatchObject({ outcome: "unchanged" });
    expect(await library(failing)).toEqual([]);
  });

  it("a paid checkout whose purchase row is missing is recorded from its metadata; foreign checkouts are ignored", async () => {
    const user = await createUser("monthly");
    const templateId = await catalogueId("order-shipped");
    const session = {
      id: `cs_lost_${user.accountId.slice(0, 8)}`,
      object: "checkout.session",
      mode: "payment",
      payment_status: "paid",
      amount_total: 900,
      currency: "usd",
      metadata: {
        kind: "template_purchase",
        account_id: user.accountId,
        template_id: templateId,
        purchase_id: "00000000-0000-4000-8000-000000000000",
      },
    };
    const result = await deliver(stripeEvent("checkout.session.completed", session));
    expect(result.body).toMatchObject({ outcome: "completed" });
    expect(await library(user)).toEqual([{ template_id: templateId, added_via: "purchased" }]);
    const [row] =
      await getDb()`select status, amount::text, processor, processor_ref from purchases where account_id = ${user.accountId}`;
    expect(row).toEqual({ status: "completed", amount: "9.00", processor: "stripe", processor_ref: session.id });

    const foreign = await deliver(
      stripeEvent("checkout.session.completed", {
        id: "cs_someone_elses",
        object: "checkout.session",
        mode: "payment",
        payment_status: "paid",
        metadata: {},
      }),
    );
    expect(foreign.status).toBe(200);
    expect(foreign.body).toMatchObject({ outcome: "unmatched" });
  });
});

describe("POST /api/webhooks/stripe: refunds and disputes revoke the purchase", () => {
  async function revocations(user: TestUser) {
    return getDb()<
      {
        status: string;
        payment_intent: string | null;
        revoked_because: string | null;
        revoked_by_event: string | null;
      }[]
    >`select status, payment_intent, revoked_because, revoked_by_event from purchases
      where account_id = ${user.accountId} order by created_at, id`;
  }

  /** A completed purchase of `slug`, paid by the PaymentIntent `pi_…` (the charge `ch_…`). */
  async function bought(user: TestUser, slug = "receipt") {
    const { templateId, purchase, session } = await startPurchase(user, slug);
    const paymentIntent = `pi_${purchase.id.replace(/-/g, "")}`;
    const completed = await deliver(
      stripeEvent("checkout.session.completed", { ...session, payment_intent: paymentIntent }),
    );
    expect(completed.body).toEqual({ received: true, duplicate: false, outcome: "completed" });
    expect(await library(user)).toEqual([{ template_id: templateId, added_via: "purchased" }]);
    const charge = {
      id: `ch_${purchase.id.replace(/-/g, "")}`,
      object: "charge",
      amount: 1900,
      amount_refunded: 1900,
      refunded: true,
      currency: "usd",
      payment_intent: paymentIntent,
      metadata: {},
    };
    return { templateId, purchase, session, paymentIntent, charge };
  }

  const addBack = (user: TestUser, slug = "receipt") =>
    call(postLibrary, "/api/v1/library", { method: "POST", body: { template_id: slug }, headers: auth(user) });

  /** POST /library's 402 for the template: a new checkout, at the new pending purchase's URL. */
  async function expectPurchaseRequired(user: TestUser, result: Awaited<ReturnType<typeof addBack>>) {
    const [pending] = await getDb()<{ checkout_url: string }[]>`
      select checkout_url from purchases where account_id = ${user.accountId} and status = 'pending'`;
    expect([result.status, result.body]).toEqual([
      402,
      {
        error: "Purchase required",
        code: "PURCHASE_REQUIRED",
        success: false,
        message: '"Order receipt" costs $19.00. Buy it at checkout_url; it is in your library once paid.',
        checkout_url: pending.checkout_url,
      },
    ]);
    expect(pending.checkout_url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
  }

  it("a full refund takes the template out of the library, records it, and adding it back needs a new purchase", async () => {
    const user = await createUser("monthly");
    const { paymentIntent, charge } = await bought(user);
    const event = stripeEvent("charge.refunded", charge);

    const result = await deliver(event);
    expect([result.status, result.body]).toEqual([200, { received: true, duplicate: false, outcome: "revoked" }]);
    expect(await library(user)).toEqual([]);
    expect(await revocations(user)).toEqual([
      { status: "revoked", payment_intent: paymentIntent, revoked_because: "refund", revoked_by_event: event.id },
    ]);
    const [{ revoked_at }] = await getDb()<{ revoked_at: Date }[]>`
      select revoked_at from purchases where account_id = ${user.accountId}`;
    expect(revoked_at).toBeInstanceOf(Date);

    // The same event again is a no-op; another event about the same charge finds it revoked already.
    const replay = await deliver(event);
    expect([replay.status, replay.body]).toEqual([200, { received: true, duplicate: true, outcome: "revoked" }]);
    const again = await deliver(stripeEvent("charge.refunded", charge));
    expect([again.status, again.body]).toEqual([200, { received: true, duplicate: false, outcome: "already_revoked" }]);
    expect(await storedEvent(event.id)).toEqual({ id: event.id, type: "charge.refunded", outcome: "revoked" });

    await expectPurchaseRequired(user, await addBack(user));
    expect(await library(user)).toEqual([]);
  });

  it("a template removed from the library before its refund cannot be put back for free either", async () => {
    const user = await createUser("monthly");
    const { templateId, charge } = await bought(user);
    await getDb()`delete from library_entries where account_id = ${user.accountId} and template_id = ${templateId}`;
    expect((await deliver(stripeEvent("charge.refunded", charge))).body).toEqual({
      received: true,
      duplicate: false,
      outcome: "revoked",
    });
    await expectPurchaseRequired(user, await addBack(user));
    expect(await library(user)).toEqual([]);
  });

  it("a partial refund leaves the purchase and the library as they are; the refund that completes it revokes", async () => {
    const user = await createUser("monthly");
    const { templateId, paymentIntent, charge } = await bought(user);
    const partial = await deliver(stripeEvent("charge.refunded", { ...charge, amount_refunded: 500, refunded: false }));
    expect([partial.status, partial.body]).toEqual([
      200,
      { received: true, duplicate: false, outcome: "partial_refund" },
    ]);
    expect(await library(user)).toEqual([{ template_id: templateId, added_via: "purchased" }]);
    expect(await revocations(user)).toEqual([
      { status: "completed", payment_intent: paymentIntent, revoked_because: null, revoked_by_event: null },
    ]);

    const rest = stripeEvent("charge.refunded", charge);
    expect((await deliver(rest)).body).toEqual({ received: true, duplicate: false, outcome: "revoked" });
    expect(await library(user)).toEqual([]);
  });

  it("a dispute revokes at once; a refund after it finds the purchase revoked", async () => {
    const user = await createUser("monthly");
    const { paymentIntent, charge } = await bought(user);
    const dispute = stripeEvent("charge.dispute.created", {
      id: `dp_${charge.id.slice(3)}`,
      object: "dispute",
      amount: 1900,
      currency: "usd",
      charge: charge.id,
      payment_intent: paymentIntent,
      reason: "fraudulent",
      status: "needs_response",
      metadata: {},
    });
    const result = await deliver(dispute);
    expect([result.status, result.body]).toEqual([200, { received: true, duplicate: false, outcome: "revoked" }]);
    expect(await library(user)).toEqual([]);
    expect(await revocations(user)).toEqual([
      { status: "revoked", payment_intent: paymentIntent, revoked_because: "dispute", revoked_by_event: dispute.id },
    ]);
    const refund = await deliver(stripeEvent("charge.refunded", charge));
    expect(refund.body).toEqual({ received: true, duplicate: false, outcome: "already_revoked" });
    expect((await revocations(user))[0]).toMatchObject({ revoked_because: "dispute", revoked_by_event: dispute.id });
    await expectPurchaseRequired(user, await addBack(user));
  });

  it("a refund delivered before its checkout's completion revokes the pending purchase, and the completion adds nothing", async () => {
    const user = await createUser("monthly");
    const { purchase, session } = await startPurchase(user);
    const refund = stripeEvent("charge.refunded", {
      id: "ch_early",
      object: "charge",
      amount: 1900,
      amount_refunded: 1900,
      refunded: true,
      payment_intent: `pi_early_${purchase.id.slice(0, 8)}`,
      metadata: session.metadata,
    });
    expect((await deliver(refund)).body).toEqual({ received: true, duplicate: false, outcome: "revoked" });
    const completed = await deliver(
      stripeEvent("checkout.session.completed", { ...session, payment_intent: `pi_early_${purchase.id.slice(0, 8)}` }),
    );
    expect([completed.status, completed.body]).toEqual([200, { received: true, duplicate: false, outcome: "revoked" }]);
    expect(await library(user)).toEqual([]);
    expect((await revocations(user)).map((p) => p.status)).toEqual(["revoked"]);
  });

  it("a purchase completed before payment intents were kept is found through the charge's metadata", async () => {
    const user = await createUser("monthly");
    const { purchase, session, charge } = await bought(user);
    await getDb()`update purchases set payment_intent = null where id = ${purchase.id}`;
    const result = await deliver(
      stripeEvent("charge.refunded", { ...charge, payment_intent: "pi_unknown_to_us", metadata: session.metadata }),
    );
    expect(result.body).toEqual({ received: true, duplicate: false, outcome: "revoked" });
    expect(await library(user)).toEqual([]);
  });

  it("acknowledges a refund or dispute of a payment that is no purchase of ours, changing nothing", async () => {
    const user = await createUser("monthly");
    const { templateId, purchase } = await bought(user);
    const foreignRefund = await deliver(
      stripeEvent("charge.refunded", {
        id: "ch_foreign",
        object: "charge",
        amount: 500,
        amount_refunded: 500,
        refunded: true,
        payment_intent: "pi_someone_elses",
        // Another account's purchase id in the metadata does not reach this one.
        metadata: { kind: "template_purchase", purchase_id: purchase.id, account_id: randomAccountId() },
      }),
    );
    expect([foreignRefund.status, foreignRefund.body]).toEqual([
      200,
      { received: true, duplicate: false, outcome: "unmatched" },
    ]);
    const foreignDispute = await deliver(
      stripeEvent("charge.dispute.created", {
        id: "dp_foreign",
        object: "dispute",
        charge: "ch_foreign",
        payment_intent: null,
      }),
    );
    expect(foreignDispute.body).toEqual({ received: true, duplicate: false, outcome: "unmatched" });
    expect(await library(user)).toEqual([{ template_id: templateId, added_via: "purchased" }]);
    expect((await revocations(user)).map((p) => p.status)).toEqual(["completed"]);
  });
});

describe("POST /api/webhooks/stripe: subscriptions set the plan", () => {
  let n = 0;
  async function subscriber(plan: PlanName = "free") {
    const user = await createUser(plan);
    const customer = await saveCustomerId(user.accountId, `cus_wh_${user.accountId.slice(0, 8)}`);
    return { ...user, customer, subscriptionId: `sub_wh_${user.accountId.slice(0, 8)}_${++n}` };
  }

  function subscription(
    user: { customer: string; subscriptionId: string; accountId: string },
    fields: {
      status: string;
      plan?: "monthly" | "annual" | "other";
      periodEnd?: number;
      cancelAtPeriodEnd?: boolean;
      metadataOnly?: boolean;
    },
  ) {
    const price =
      fields.plan === "annual"
        ? "price_annual_test"
        : fields.plan === "other"
          ? "price_something_else"
          : "price_monthly_test";
    const now = Math.floor(Date.now() / 1000);
    return {
      id: user.subscriptionId,
      object: "subscription",
      customer: user.customer,
      status: fields.status,
      cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
      cancel_at: fields.cancelAtPeriodEnd ? (fields.periodEnd ?? now + 30 * DAY) : null,
      ended_at: fields.status === "canceled" ? now : null,
      metadata: { kind: "plan", account_id: user.accountId },
      items: {
        object: "list",
        data: [
          {
            id: `si_plan_${user.subscriptionId}`,
            object: "subscription_item",
            price: { id: price, object: "price" },
            current_period_start: now - DAY,
            current_period_end: fields.periodEnd ?? now + 30 * DAY,
          },
          {
            id: `si_over_${user.subscriptionId}`,
            object: "subscription_item",
            price: { id: "price_overage_test", object: "price" },
            current_period_start: now - DAY,
            current_period_end: fields.periodEnd ?? now + 30 * DAY,
          },
        ],
      },
    };
  }

  const plan = async (user: TestUser) => (await getAccountByIdOrThrow(user.accountId)).plan;

  it("created → monthly, updated → annual, deleted at period end → free", async () => {
    const user = await subscriber();
    const t = Math.floor(Date.now() / 1000);
    const created = await deliver(
      stripeEvent("customer.subscription.created", subscription(user, { status: "active", plan: "monthly" }), t),
    );
    expect(created.body).toMatchObject({ outcome: "applied:monthly" });
    expect(await plan(user)).toBe("monthly");

    await deliver(
      stripeEvent("customer.subscription.updated", subscription(user, { status: "active", plan: "annual" }), t + 10),
    );
    expect(await plan(user)).toBe("annual");
    expect(await stripeProcessor.getSubscription!(user.accountId)).toMatchObject({
      plan: "annual",
      status: "active",
      cancelAtPeriodEnd: false,
    });

    // Cancelled at period end: the plan stays until Stripe ends the subscription.
    const periodEnd = t + 5 * DAY;
    await deliver(
      stripeEvent(
        "customer.subscription.updated",
        subscription(user, { status: "active", plan: "annual", cancelAtPeriodEnd: true, periodEnd }),
        t + 20,
      ),
    );
    expect(await plan(user)).toBe("annual");
    expect(await stripeProcessor.getSubscription!(user.accountId)).toMatchObject({
      cancelAtPeriodEnd: true,
      currentPeriodEnd: new Date(periodEnd * 1000),
    });

    // At the end of the period Stripe deletes it; the period it carries is over.
    const deleted = await deliver(
      stripeEvent(
        "customer.subscription.deleted",
        subscription(user, { status: "canceled", plan: "annual", periodEnd: t - 1 }),
        t + 30,
      ),
    );
    expect(deleted.body).toMatchObject({ outcome: "applied:free" });
    expect(await plan(user)).toBe("free");
  });

  it("out-of-order delivery: an older event arriving late does not overwrite a newer state", async () => {
    const user = await subscriber();
    const t = Math.floor(Date.now() / 1000);
    const createdEvent = stripeEvent(
      "customer.subscription.created",
      subscription(user, { status: "incomplete", plan: "monthly" }),
      t,
    );
    const activated = stripeEvent(
      "customer.subscription.updated",
      subscription(user, { status: "active", plan: "monthly" }),
      t + 5,
    );
    const upgraded = stripeEvent(
      "customer.subscription.updated",
      subscription(user, { status: "active", plan: "annual" }),
      t + 60,
    );

    expect((await deliver(upgraded)).body).toMatchObject({ outcome: "applied:annual" });
    expect((await deliver(createdEvent)).body).toMatchObject({ outcome: "stale" });
    expect((await deliver(activated)).body).toMatchObject({ outcome: "stale" });
    expect(await plan(user)).toBe("annual");

    // Same second: the status further along wins (active over incomplete), whatever the delivery order.
    const other = await subscriber();
    await deliver(
      stripeEvent("customer.subscription.updated", subscription(other, { status: "active", plan: "monthly" }), t),
    );
    expect(
      (
        await deliver(
          stripeEvent(
            "customer.subscription.created",
            subscription(other, { status: "incomplete", plan: "monthly" }),
            t,
          ),
        )
      ).body,
    ).toMatchObject({
      outcome: "stale",
    });
    expect(await plan(other)).toBe("monthly");
  });

  it("a deleted subscription is never revived by a late update", async () => {
    const user = await subscriber("monthly");
    const t = Math.floor(Date.now() / 1000);
    await deliver(
      stripeEvent(
        "customer.subscription.deleted",
        subscription(user, { status: "canceled", plan: "monthly", periodEnd: t - 1 }),
        t,
      ),
    );
    expect(await plan(user)).toBe("free");
    // An update stamped later (clock skew between Stripe's services) but about the live subscription.
    const late = await deliver(
      stripeEvent("customer.subscription.updated", subscription(user, { status: "active", plan: "monthly" }), t + 1),
    );
    expect(late.body).toMatchObject({ outcome: "stale" });
    expect(await plan(user)).toBe("free");
  });

  it("cancelled or unpaid mid-period: the plan lasts until the end of the paid period, then returns to free", async () => {
    const user = await subscriber();
    const t = Math.floor(Date.now() / 1000);
    await deliver(
      stripeEvent("customer.subscription.created", subscription(user, { status: "active", plan: "monthly" }), t),
    );
    const periodEnd = t + 3 * DAY;
    await deliver(
      stripeEvent(
        "customer.subscription.updated",
        subscription(user, { status: "unpaid", plan: "monthly", periodEnd }),
        t + 10,
      ),
    );
    expect(await plan(user)).toBe("monthly");

    // The cron job's sweep: nothing lapses before the period ends, then the account returns to free.
    expect(await applyLapsedSubscriptions(new Date())).not.toContain(user.accountId);
    expect(await plan(user)).toBe("monthly");
    expect(await applyLapsedSubscriptions(new Date((periodEnd + 1) * 1000))).toContain(user.accountId);
    expect(await plan(user)).toBe("free");

    const cancelled = await subscriber();
    await deliver(
      stripeEvent("customer.subscription.created", subscription(cancelled, { status: "active", plan: "annual" }), t),
    );
    await deliver(
      stripeEvent(
        "customer.subscription.deleted",
        subscription(cancelled, { status: "canceled", plan: "annual", periodEnd }),
        t + 10,
      ),
    );
    expect(await plan(cancelled)).toBe("annual");
    await applyLapsedSubscriptions(new Date((periodEnd + 1) * 1000));
    expect(await plan(cancelled)).toBe("free");
  });

  it("past_due keeps the plan while Stripe retries; incomplete and unknown prices grant nothing", async () => {
    const user = await subscriber();
    const t = Math.floor(Date.now() / 1000);
    await deliver(
      stripeEvent("customer.subscription.created", subscription(user, { status: "incomplete", plan: "monthly" }), t),
    );
    expect(await plan(user)).toBe("free");
    await deliver(
      stripeEvent("customer.subscription.updated", subscription(user, { status: "active", plan: "monthly" }), t + 1),
    );
    await deliver(
      stripeEvent("customer.subscription.updated", subscription(user, { status: "past_due", plan: "monthly" }), t + 2),
    );
    expect(await plan(user)).toBe("monthly");

    const other = await subscriber();
    const result = await deliver(
      stripeEvent("customer.subscription.created", subscription(other, { status: "active", plan: "other" }), t),
    );
    expect(result.body).toMatchObject({ outcome: "applied:free" });
    expect(await plan(other)).toBe("free");
  });

  it("links a new customer through the subscription's metadata; an unknown customer is acknowledged", async () => {
    const user = await createUser("free");
    const fresh = {
      accountId: user.accountId,
      customer: `cus_new_${user.accountId.slice(0, 8)}`,
      subscriptionId: `sub_new_${user.accountId.slice(0, 8)}`,
    };
    const result = await deliver(
      stripeEvent("customer.subscription.created", subscription(fresh, { status: "active", plan: "annual" })),
    );
    expect(result.body).toMatchObject({ outcome: "applied:annual" });
    expect((await getAccountByIdOrThrow(user.accountId)).plan).toBe("annual");
    const [linked] = await getDb()`select customer_id from billing_customers where account_id = ${user.accountId}`;
    expect(linked.customer_id).toBe(fresh.customer);

    const nobody = { accountId: "not-a-uuid", customer: "cus_nobody", subscriptionId: "sub_nobody" };
    const unknown = await deliver(
      stripeEvent("customer.subscription.created", subscription(nobody, { status: "active", plan: "monthly" })),
    );
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ outcome: "unmatched" });
  });

  it("a completed subscription checkout links the customer to the account", async () => {
    const user = await createUser("free");
    const customer = `cus_co_${user.accountId.slice(0, 8)}`;
    const result = await deliver(
      stripeEvent("checkout.session.completed", {
        id: `cs_sub_${user.accountId.slice(0, 8)}`,
        object: "checkout.session",
        mode: "subscription",
        payment_status: "paid",
        customer,
        subscription: "sub_from_checkout",
        metadata: { kind: "plan", account_id: user.accountId, plan: "monthly" },
      }),
    );
    expect(result.body).toMatchObject({ outcome: "subscription_checkout" });
    const [linked] = await getDb()`select customer_id from billing_customers where account_id = ${user.accountId}`;
    expect(linked.customer_id).toBe(customer);
    // The plan itself waits for customer.subscription.*.
    expect((await getAccountByIdOrThrow(user.accountId)).plan).toBe("free");
  });
});
