import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as reportUsageCron, PUT as reportUsagePut } from "@/app/api/cron/report-usage/route";
import { POST as cancelEmail } from "@/app/api/v1/emails/[id]/cancel/route";
import { POST as send } from "@/app/api/v1/send/route";
import { ConfigError, parseConfig } from "@/lib/core/config";
import { getAccountByIdOrThrow } from "@/lib/auth/data/accounts";
import { saveCustomerId } from "@/lib/billing/data/customers";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { AppError } from "@/lib/core/errors";
import { getPaymentMode, getPaymentProcessor, type PaymentMode } from "@/lib/billing/payments";
import { reportPendingOverage, stripeProcessor, toMinorUnits } from "@/lib/billing/payments/stripe";
import { testModeProcessor } from "@/lib/billing/payments/test-mode";
import { billingPeriod, type PlanName } from "@/lib/core/plans";
import { addToLibrary, auth, call, catalogueId, createUser, type TestUser } from "../support/api";
import { setTestEnv } from "../support/env";
import { STRIPE_TEST_ENV, useStripeStandIn, WITHOUT_STRIPE } from "../support/stripe";

vi.mock("stripe", () => import("../support/stripe-sdk"));
const standIn = useStripeStandIn();
const SITE = "http://localhost:3000";

// Work a request leaves to the background (the overage backlog flush) would add requests to Stripe at unpredictable
// moments: here it is queued, unthrottled, and only the test about it runs it.
const background = vi.hoisted(() => [] as { description: string; task: () => Promise<unknown> }[]);
vi.mock("@/lib/core/background", () => ({
  runInBackground: (description: string, task: () => Promise<unknown>) => void background.push({ description, task }),
  throttledInBackground: (description: string, _intervalMs: number, task: () => Promise<unknown>) => () =>
    void background.push({ description, task }),
}));
afterEach(() => {
  background.length = 0;
});

async function purchases(user: TestUser) {
  return getDb()<
    {
      id: string;
      template_id: string;
      status: string;
      processor: string;
      processor_ref: string | null;
      amount: string;
      created_at: Date;
      checkout_url: string | null;
    }[]
  >`
    select id, template_id, status, processor, processor_ref, amount::text, created_at, checkout_url from purchases
    where account_id = ${user.accountId} order by created_at, id`;
}

async function library(user: TestUser) {
  return getDb()<
    { template_id: string; added_via: string }[]
  >`select template_id, added_via from library_entries where account_id = ${user.accountId}`;
}

describe("Stripe configuration", () => {
  const keys = {
    STRIPE_SECRET_KEY: STRIPE_TEST_ENV.STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
  };
  const problems = (env: Record<string, string>) => {
    try {
      parseConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    return [];
  };

  it("needs the secret key and the webhook secret together, and then the plan prices and the meter", () => {
    expect(problems({ STRIPE_SECRET_KEY: keys.STRIPE_SECRET_KEY })).toEqual([
      "STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set (set both, or neither)",
    ]);
    expect(problems({ STRIPE_WEBHOOK_SECRET: keys.STRIPE_WEBHOOK_SECRET })).toEqual([
      "STRIPE_SECRET_KEY is required when STRIPE_WEBHOOK_SECRET is set (set both, or neither)",
    ]);
    expect(problems(keys)).toEqual([
      "STRIPE_PRICE_MONTHLY is required when Stripe is configured (STRIPE_SECRET_KEY is set)",
      "STRIPE_PRICE_ANNUAL is required when Stripe is configured (STRIPE_SECRET_KEY is set)",
      "STRIPE_METER_EVENT_NAME is required when Stripe is configured (STRIPE_SECRET_KEY is set)",
    ]);
    expect(problems({ ...STRIPE_TEST_ENV, STRIPE_SECRET_KEY: "pk_test_abc", STRIPE_PRICE_ANNUAL: "prod_abc" })).toEqual(
      [
        expect.stringMatching(/^STRIPE_SECRET_KEY must be a Stripe secret key/),
        expect.stringMatching(/^STRIPE_PRICE_ANNUAL must be a Stripe price id/),
      ],
    );
  });

  it("reads a complete configuration", () => {
    expect(parseConfig({}).stripe).toBeNull();
    expect(parseConfig(STRIPE_TEST_ENV).stripe).toEqual({
      secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY,
      webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
      prices: { monthly: "price_monthly_test", annual: "price_annual_test" },
      overagePrice: "price_overage_test",
      meterEventName: "letterpress_overage_emails",
    });
    expect(parseConfig({ ...STRIPE_TEST_ENV, STRIPE_PRICE_OVERAGE: "" }).stripe).toMatchObject({
      overagePrice: undefined,
    });
  });

  it("selects Stripe when configured, test mode only when asked for (PAYMENTS_TEST_MODE=1 or npm run dev), else none", () => {
    expect(getPaymentProcessor()).toBe(stripeProcessor);
    expect(stripeProcessor).toMatchObject({ name: "stripe", testMode: false });
    setTestEnv({ PAYMENTS_TEST_MODE: "1" });
    expect(getPaymentProcessor()).toBe(stripeProcessor);

    setTestEnv(WITHOUT_STRIPE);
    expect(getPaymentProcessor()).toBe(testModeProcessor);

    // A production server (npm start, any host) without Stripe: paid actions are refused, never granted for free.
    setTestEnv({ PAYMENTS_TEST_MODE: undefined });
    expect(process.env.NODE_ENV).toBe("test");
    expect(process.env.VERCEL).toBeUndefined();
    expect(getPaymentProcessor()).toBeNull();
    expect(parseConfig({ NODE_ENV: "production" }).paymentsTestMode).toBe(false);
    expect(parseConfig({ NODE_ENV: "production", PAYMENTS_TEST_MODE: "0" }).paymentsTestMode).toBe(false);
    expect(parseConfig({ NODE_ENV: "production", PAYMENTS_TEST_MODE: "1" }).paymentsTestMode).toBe(true);
    expect(parseConfig({ NODE_ENV: "development" }).paymentsTestMode).toBe(true);
    expect(problems({ PAYMENTS_TEST_MODE: "yes" })).toEqual(["PAYMENTS_TEST_MODE must be 1 (test-mode payments) or 0"]);
  });

  it("tells the pricing pages whether money moves: live keys, Stripe's test keys, the test-mode processor, or none", () => {
    // Made up, and spelled out of parts so that no secret scanner mistakes them for real keys.
    const fakeStripeKey = (prefix: string) => `${prefix}_${"0".repeat(24)}`;
    const modes: Record<string, PaymentMode> = {};
    modes.stripeTestKey = getPaymentMode();
    setTestEnv({ STRIPE_SECRET_KEY: fakeStripeKey("rk_test") });
    modes.restrictedTestKey = getPaymentMode();
    setTestEnv({ STRIPE_SECRET_KEY: fakeStripeKey("sk_live") });
    modes.liveKey = getPaymentMode();
    setTestEnv({ STRIPE_SECRET_KEY: fakeStripeKey("rk_live") });
    modes.restrictedLiveKey = getPaymentMode();

    setTestEnv({ ...WITHOUT_STRIPE, PAYMENTS_TEST_MODE: "1" });
    modes.testModeProcessor = getPaymentMode();
    setTestEnv({ PAYMENTS_TEST_MODE: undefined });
    modes.noProcessor = getPaymentMode();
    expect(modes).toEqual({
      stripeTestKey: "stripe_test",
      restrictedTestKey: "stripe_test",
      liveKey: "live",
      restrictedLiveKey: "live",
      testModeProcessor: "test",
      noProcessor: "unavailable",
    });
  });

  it("converts decimal prices to minor units exactly", () => {
    expect(["19.00", "9.00", "12.5", "0.29", "1234.99", "7"].map(toMinorUnits)).toEqual([
      1900, 900, 1250, 29, 123499, 700,
    ]);
  });
});

describe("buying a paid template through Stripe Checkout", () => {
  it("creates the customer, then a one-time payment Checkout Session for the template's price, and records the purchase as pending", async () => {
    const user = await createUser("free");
    const templateId = await catalogueId("receipt");
    const returnUrl = `${SITE}/dashboard/library/${templateId}`;

    const outcome = await getPaymentProcessor()!.startTemplatePurchase({
      accountId: user.accountId,
      templateId,
      returnUrl,
    });

    const [purchase] = await purchases(user);
    expect(purchase).toMatchObject({
      template_id: templateId,
      status: "pending",
      processor: "stripe",
      amount: "19.00",
    });
    expect(standIn.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/customers",
      "POST /v1/checkout/sessions",
    ]);

    const [customer, checkout] = standIn.requests;
    expect(customer.headers["idempotency-key"]).toBe(`letterpress-customer-${user.accountId}`);
    expect(customer.form).toEqual({ email: user.email, "metadata[account_id]": user.accountId });

    expect(checkout.headers["idempotency-key"]).toBe(`letterpress-template-checkout-${purchase.id}`);
    expect(checkout.headers["stripe-version"]).toBe("2026-10-28.endive");
    const metadata = {
      kind: "template_purchase",
      account_id: user.accountId,
      template_id: templateId,
      purchase_id: purchase.id,
    };
    expect(checkout.form).toEqual({
      mode: "payment",
      customer: standIn.id("cus", 1),
      client_reference_id: purchase.id,
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "1900",
      "line_items[0][price_data][product_data][name]": "Order receipt",
      "line_items[0][price_data][product_data][metadata][template_id]": templateId,
      ...Object.fromEntries(Object.entries(metadata).map(([k, v]) => [`metadata[${k}]`, v])),
      ...Object.fromEntries(Object.entries(metadata).map(([k, v]) => [`payment_intent_data[metadata][${k}]`, v])),
      success_url: `${returnUrl}?checkout=success`,
      cancel_url: `${returnUrl}?checkout=cancelled`,
      expires_at: String(Math.floor((purchase.created_at.getTime() + 3_600_000) / 1000)),
    });

    const sessionId = standIn.id("cs", 2);
    expect(outcome).toEqual({ completed: false, redirectUrl: `https://checkout.stripe.test/c/pay/${sessionId}` });
    expect(purchase.processor_ref).toBe(sessionId);
    // Nothing is in the library until the webhook says the payment went through.
    expect(await library(user)).toEqual([]);
  });

  it("sends a second click back to the same open checkout: no new session, no second pending purchase", async () => {
    const user = await createUser("free");
    const templateId = await catalogueId("newsletter");
    const input = { accountId: user.accountId, templateId, returnUrl: `${SITE}/dashboard/catalogue` };
    const first = await stripeProcessor.startTemplatePurchase(input);
    const second = await stripeProcessor.startTemplatePurchase(input);
    expect(second).toEqual(first);
    expect(standIn.to("/v1/checkout/sessions")).toHaveLength(1);
    expect(await purchases(user)).toHaveLength(1);
  });

  it("reuses the account's customer for later checkouts", async () => {
    const user = await createUser("monthly");
    await stripeProcessor.startTemplatePurchase({ accountId: user.accountId, templateId: "receipt", returnUrl: SITE });
    await stripeProcessor.startTemplatePurchase({
      accountId: user.accountId,
      templateId: "order-shipped",
      returnUrl: SITE,
    });
    expect(standIn.to("/v1/customers")).toHaveLength(1);
    const sessions = standIn.to("/v1/checkout/sessions");
    expect(sessions.map((s) => s.form.customer)).toEqual([standIn.id("cus", 1), standIn.id("cus", 1)]);
    expect(sessions.map((s) => s.form["line_items[0][price_data][unit_amount]"])).toEqual(["1900", "900"]);
  });

  it("enforces the free plan's one paid purchase a month before any checkout is created", async () => {
    const user = await createUser("free");
    await stripeProcessor.startTemplatePurchase({ accountId: user.accountId, templateId: "receipt", returnUrl: SITE });
    standIn.reset();

    const refused = stripeProcessor.startTemplatePurchase({
      accountId: user.accountId,
      templateId: "newsletter",
      returnUrl: SITE,
    });
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ code: "PURCHASE_LIMIT_REACHED" });
    expect(standIn.requests).toEqual([]);
    expect((await purchases(user)).map((p) => p.status)).toEqual(["pending"]);
  });

  it("refuses a template already in the library and adds a free template without a checkout", async () => {
    const user = await createUser("free");
    await addToLibrary(user, "welcome");
    await expect(
      stripeProcessor.startTemplatePurchase({ accountId: user.accountId, templateId: "welcome", returnUrl: SITE }),
    ).rejects.toMatchObject({
      code: "ALREADY_IN_LIBRARY",
    });
    const outcome = await stripeProcessor.startTemplatePurchase({
      accountId: user.accountId,
      templateId: "verify-email",
      returnUrl: SITE,
    });
    expect(outcome).toMatchObject({ completed: true, entry: { added_via: "free", purchase_id: null } });
    await expect(
      stripeProcessor.startTemplatePurchase({
        accountId: user.accountId,
        templateId: "no-such-template",
        returnUrl: SITE,
      }),
    ).rejects.toMatchObject({
      code: "TEMPLATE_NOT_FOUND",
    });
    expect(standIn.requests).toEqual([]);
  });

  it("a checkout Stripe refuses fails the pending purchase, so it does not use up the month's purchase", async () => {
    const user = await createUser("free");
    standIn.override = (request) =>
      request.path === "/v1/checkout/sessions"
        ? {
            status: 500,
            body: { error: { type: "api_error", message: "Stand-in outage" } },
            headers: { "stripe-should-retry": "false" },
          }
        : undefined;
    await expect(
      stripeProcessor.startTemplatePurchase({ accountId: user.accountId, templateId: "receipt", returnUrl: SITE }),
    ).rejects.toMatchObject({ name: "AppError", code: "PAYMENT_PROCESSOR_ERROR" });
    expect((await purchases(user)).map((p) => p.status)).toEqual(["failed"]);

    standIn.override = undefined;
    const retried = await stripeProcessor.startTemplatePurchase({
      accountId: user.accountId,
      templateId: "receipt",
      returnUrl: SITE,
    });
    expect(retried.completed).toBe(false);
    expect((await purchases(user)).map((p) => p.status)).toEqual(["failed", "pending"]);
  });

  it("retries a checkout Stripe could not answer with the same Idempotency-Key", async () => {
    const user = await createUser("monthly");
    let failures = 1;
    standIn.override = (request) =>
      request.path === "/v1/checkout/sessions" && failures-- > 0
        ? { status: 503, body: { error: { type: "api_error", message: "busy" } } }
        : undefined;
    const outcome = await stripeProcessor.startTemplatePurchase({
      accountId: user.accountId,
      templateId: "receipt",
      returnUrl: SITE,
    });
    expect(outcome.completed).toBe(false);
    const attempts = standIn.to("/v1/checkout/sessions");
    expect(attempts).toHaveLength(2);
    expect(attempts[1].headers["idempotency-key"]).toBe(attempts[0].headers["idempotency-key"]);
    expect(attempts[1].raw).toBe(attempts[0].raw);
  });
});

describe("plans through Stripe", () => {
  async function subscribe(user: TestUser, plan: "monthly" | "annual", status = "active") {
    const customer = await saveCustomerId(user.accountId, `cus_sub_${user.accountId.slice(0, 8)}`);
    await getDb()`
      insert into billing_subscriptions (subscription_id, account_id, customer_id, status, plan, price_id, plan_item_id, current_period_end, last_event_created)
      values (${`sub_${user.accountId.slice(0, 8)}`}, ${user.accountId}, ${customer}, ${status}, ${plan}, ${STRIPE_TEST_ENV[plan === "monthly" ? "STRIPE_PRICE_MONTHLY" : "STRIPE_PRICE_ANNUAL"]},
              'si_plan_item', ${new Date(Date.now() + 20 * 86_400_000)}, now())`;
    return customer;
  }

  it("upgrading creates a subscription Checkout Session with the plan's price and the metered overage price", async () => {
    const user = await createUser("free");
    const returnUrl = `${SITE}/dashboard/billing`;
    const outcome = await getPaymentProcessor()!.startPlanChange({
      accountId: user.accountId,
      plan: "annual",
      returnUrl,
    });

    expect(standIn.requests.map((r) => r.path)).toEqual(["/v1/customers", "/v1/checkout/sessions"]);
    const checkout = standIn.requests[1];
    expect(checkout.headers["idempotency-key"]).toMatch(
      new RegExp(`^letterpress-plan-checkout-${user.accountId}-[0-9a-f-]{36}$`),
    );
    expect(checkout.form).toEqual({
      mode: "subscription",
      customer: standIn.id("cus", 1),
      client_reference_id: user.accountId,
      "line_items[0][price]": "price_annual_test",
      "line_items[0][quantity]": "1",
      "line_items[1][price]": "price_overage_test",
      "metadata[kind]": "plan",
      "metadata[account_id]": user.accountId,
      "metadata[plan]": "annual",
      "subscription_data[metadata][kind]": "plan",
      "subscription_data[metadata][account_id]": user.accountId,
      "subscription_data[metadata][plan]": "annual",
      success_url: `${returnUrl}?checkout=success`,
      cancel_url: `${returnUrl}?checkout=cancelled`,
    });
    expect(outcome).toEqual({
      completed: false,
      redirectUrl: `https://checkout.stripe.test/c/pay/${standIn.id("cs", 2)}`,
    });
    // The plan changes only with the subscription webhooks.
    expect((await getAccountByIdOrThrow(user.accountId)).plan).toBe("free");
  });

  it("without an overage price, the subscription has the plan price only", async () => {
    setTestEnv({ STRIPE_PRICE_OVERAGE: "" });
    const user = await createUser("free");
    await stripeProcessor.startPlanChange({ accountId: user.accountId, plan: "monthly", returnUrl: SITE });
    const form = standIn.to("/v1/checkout/sessions")[0].form;
    expect(Object.keys(form).filter((k) => k.startsWith("line_items"))).toEqual([
      "line_items[0][price]",
      "line_items[0][quantity]",
    ]);
    expect(form["line_items[0][price]"]).toBe("price_monthly_test");
  });

  it("a subscriber switching plans confirms the new price in the customer portal", async () => {
    const user = await createUser("monthly");
    const customer = await subscribe(user, "monthly");
    const returnUrl = `${SITE}/dashboard/billing`;
    const outcome = await stripeProcessor.startPlanChange({ accountId: user.accountId, plan: "annual", returnUrl });
    expect(standIn.requests.map((r) => r.path)).toEqual(["/v1/billing_portal/sessions"]);
    expect(standIn.requests[0].form).toEqual({
      customer,
      return_url: returnUrl,
      "flow_data[type]": "subscription_update_confirm",
      "flow_data[subscription_update_confirm][subscription]": `sub_${user.accountId.slice(0, 8)}`,
      "flow_data[subscription_update_confirm][items][0][id]": "si_plan_item",
      "flow_data[subscription_update_confirm][items][0][price]": "price_annual_test",
      "flow_data[subscription_update_confirm][items][0][quantity]": "1",
      "flow_data[after_completion][type]": "redirect",
      "flow_data[after_completion][redirect][return_url]": `${returnUrl}?checkout=portal`,
    });
    expect(outcome).toEqual({
      completed: false,
      redirectUrl: `https://billing.stripe.test/p/session/${standIn.id("bps", 1)}`,
    });
  });

  it("a subscriber downgrading to free cancels in the portal; the plan follows the webhook", async () => {
    const user = await createUser("annual");
    await subscribe(user, "annual");
    await stripeProcessor.startPlanChange({ accountId: user.accountId, plan: "free", returnUrl: SITE });
    expect(standIn.requests[0].form).toMatchObject({
      "flow_data[type]": "subscription_cancel",
      "flow_data[subscription_cancel][subscription]": `sub_${user.accountId.slice(0, 8)}`,
    });
    expect((await getAccountByIdOrThrow(user.accountId)).plan).toBe("annual");
  });

  it("a paid plan without a subscription (granted by an operator) goes back to free at once", async () => {
    const user = await createUser("monthly");
    expect(await stripeProcessor.startPlanChange({ accountId: user.accountId, plan: "free", returnUrl: SITE })).toEqual(
      { completed: true, plan: "free" },
    );
    expect(standIn.requests).toEqual([]);
  });

  it("links the customer portal and reports the subscription's renewal", async () => {
    const stranger = await createUser("free");
    expect(await stripeProcessor.customerPortalUrl!({ accountId: stranger.accountId, returnUrl: SITE })).toBeNull();
    expect(await stripeProcessor.getSubscription!(stranger.accountId)).toBeNull();

    const user = await createUser("monthly");
    const customer = await subscribe(user, "monthly");
    const url = await stripeProcessor.customerPortalUrl!({
      accountId: user.accountId,
      returnUrl: `${SITE}/dashboard/billing`,
    });
    expect(url).toBe(`https://billing.stripe.test/p/session/${standIn.id("bps", 1)}`);
    expect(standIn.requests[0].form).toEqual({ customer, return_url: `${SITE}/dashboard/billing` });
    expect(await stripeProcessor.getSubscription!(user.accountId)).toEqual({
      plan: "monthly",
      status: "active",
      currentPeriodEnd: expect.any(Date),
      cancelAtPeriodEnd: false,
      cancelAt: null,
    });
  });
});

describe("overage emails reported to Stripe's billing meter", () => {
  async function overageSender(plan: PlanName = "monthly", withCustomer = true) {
    const user = await createUser(plan);
    // A domain belongs to one account: each user gets its own.
    await addSendingDomain(user.accountId, { domain: `acme-${user.accountId.slice(0, 8)}.example`, verified: true });
    await addToLibrary(user, "welcome");
    const customer = withCustomer
      ? await saveCustomerId(user.accountId, `cus_over_${user.accountId.slice(0, 8)}`)
      : null;
    const { start } = billingPeriod();
    await getDb()`
      insert into usage_counters (account_id, metric, period_start, count) values (${user.accountId}, 'emails', ${start}, 10000)
      on conflict (account_id, metric, period_start) do update set count = excluded.count`;
    return { ...user, customer, welcomeId: await catalogueId("welcome") };
  }

  const sendOne = (user: TestUser & { welcomeId: string }) =>
    call(send, "/api/v1/send", {
      method: "POST",
      headers: auth(user),
      body: { template_id: user.welcomeId, to: "ann@example.com", subject: "Hi" },
    });

  async function ledger(user: TestUser) {
    return getDb()<
      {
        email_id: string;
        reported_at: Date | null;
        processor: string | null;
        processor_ref: string | null;
        report_attempts: number;
        next_report_at: Date | null;
        last_report_error: string | null;
      }[]
    >`
      select email_id, reported_at, processor, processor_ref, report_attempts, next_report_at, last_report_error
      from email_overage_ledger where account_id = ${user.accountId} order by created_at, id`;
  }

  const meterRequests = (customer: string | null) =>
    standIn.to("/v1/billing/meter_events").filter((r) => r.form["payload[stripe_customer_id]"] === customer);

  it("reports the overage email during the send and answers billing_usage_reported: true once Stripe acknowledged it", async () => {
    const user = await overageSender();
    const result = await sendOne(user);
    expect(result.status).toBe(200);
    expect(result.body.meta.email_usage).toEqual({
      monthly_limit: 10_000,
      current_usage: 10_001,
      remaining: 0,
      plan_type: "monthly",
      is_overage: true,
      overage_emails: 1,
      billing_usage_reported: true,
    });

    const emailId = result.body.data.id;
    const [row] = await ledger(user);
    expect(row).toMatchObject({
      email_id: emailId,
      processor: "stripe",
      processor_ref: emailId,
      report_attempts: 1,
      last_report_error: null,
    });
    expect(row.reported_at).toBeInstanceOf(Date);

    const [request] = meterRequests(user.customer);
    expect(standIn.to("/v1/billing/meter_events")).toHaveLength(1);
    expect(request.headers["idempotency-key"]).toBe(`letterpress-overage-${emailId}`);
    const [{ created_at }] = await getDb()<
      { created_at: Date }[]
    >`select created_at from email_overage_ledger where email_id = ${emailId}`;
    expect(request.form).toEqual({
      event_name: "letterpress_overage_emails",
      identifier: emailId,
      timestamp: String(Math.floor(created_at.getTime() / 1000)),
      "payload[stripe_customer_id]": user.customer,
      "payload[value]": "1",
    });

    // Nothing is left to report: another run sends nothing.
    standIn.reset();
    await reportPendingOverage({ now: new Date(Date.now() + 86_400_000) });
    expect(meterRequests(user.customer)).toEqual([]);
  });

  it("reports a scheduled overage email once its time has come, and a canceled one never", async () => {
    const user = await overageSender();
    const later = (hours: number) => new Date(Date.now() + hours * 3600_000);
    const schedule = () =>
      call(send, "/api/v1/send", {
        method: "POST",
        headers: auth(user),
        body: {
          template_id: user.welcomeId,
          to: "ann@example.com",
          subject: "Later",
          scheduled_at: later(1).toISOString(),
        },
      });
    const kept = await schedule();
    const canceled = await schedule();
    expect([
      kept.body.meta.email_usage.billing_usage_reported,
      canceled.body.meta.email_usage.billing_usage_reported,
    ]).toEqual([false, false]);
    expect(meterRequests(user.customer)).toEqual([]);
    const id = canceled.body.data.id;
    const result = await call(cancelEmail, `/api/v1/emails/${id}/cancel`, {
      method: "POST",
      params: { id },
      headers: auth(user),
    });
    expect(result.status).toBe(200);

    await reportPendingOverage({ now: later(0.5) });
    expect(meterRequests(user.customer)).toEqual([]);
    await reportPendingOverage({ now: later(2) });
    expect(meterRequests(user.customer).map((r) => r.form.identifier)).toEqual([kept.body.data.id]);
  });

  it("does not report emails within the plan", async () => {
    const user = await overageSender();
    await getDb()`update usage_counters set count = 5 where account_id = ${user.accountId}`;
    const result = await sendOne(user);
    expect(result.body.meta.email_usage).toMatchObject({ is_overage: false, billing_usage_reported: false });
    expect(meterRequests(user.customer)).toEqual([]);
  });

  it("a failed report answers false, stays in the ledger, and is retried later exactly once", async () => {
    const user = await overageSender();
    standIn.override = (request) =>
      request.path === "/v1/billing/meter_events"
        ? { status: 500, body: { error: { type: "api_error", message: "Stand-in outage" } } }
        : undefined;

    const result = await sendOne(user);
    expect(result.status).toBe(200);
    expect(result.body.meta.email_usage).toMatchObject({
      is_overage: true,
      overage_emails: 1,
      billing_usage_reported: false,
    });
    const emailId = result.body.data.id;
    expect(meterRequests(user.customer)).toHaveLength(1); // one attempt, no SDK retries: the ledger retries
    let [row] = await ledger(user);
    expect(row).toMatchObject({ reported_at: null, processor: null, processor_ref: emailId, report_attempts: 1 });
    expect(row.last_report_error).toContain("Stand-in outage");
    expect(row.next_report_at!.getTime()).toBeGreaterThan(Date.now());

    // Before the retry delay has passed, nothing is sent again.
    await reportPendingOverage();
    expect(meterRequests(user.customer)).toHaveLength(1);

    // Stripe is back; the retry is due.
    standIn.override = undefined;
    const later = new Date(row.next_report_at!.getTime() + 1000);
    const report = await reportPendingOverage({ now: later });
    expect(report.reported).toBeGreaterThanOrEqual(1);
    const attempts = meterRequests(user.customer);
    expect(attempts).toHaveLength(2);
    expect(attempts.map((a) => a.form.identifier)).toEqual([emailId, emailId]);
    expect(attempts[1].headers["idempotency-key"]).toBe(attempts[0].headers["idempotency-key"]);
    [row] = await ledger(user);
    expect(row).toMatchObject({ processor: "stripe", report_attempts: 2, last_report_error: null });
    expect(row.reported_at).toBeInstanceOf(Date);
    expect([...standIn.meterEvents.keys()].filter((id) => id === emailId)).toHaveLength(1);

    // Reported rows are never sent again.
    await reportPendingOverage({ now: new Date(later.getTime() + 86_400_000) });
    expect(meterRequests(user.customer)).toHaveLength(2);
  });

  it("a lost acknowledgement is retried with the same identifier and key, and Stripe counts the email once", async () => {
    const user = await overageSender();
    standIn.override = (request) => (request.path === "/v1/billing/meter_events" ? "record-then-fail" : undefined);
    const result = await sendOne(user);
    expect(result.body.meta.email_usage.billing_usage_reported).toBe(false);
    const emailId = result.body.data.id;
    expect(standIn.meterEvents.has(emailId)).toBe(true);

    standIn.override = undefined;
    const [row] = await ledger(user);
    await reportPendingOverage({ now: new Date(row.next_report_at!.getTime() + 1000) });
    const attempts = meterRequests(user.customer);
    expect(attempts).toHaveLength(2);
    expect(new Set(attempts.map((a) => a.headers["idempotency-key"]))).toEqual(
      new Set([`letterpress-overage-${emailId}`]),
    );
    expect([...standIn.meterEvents.entries()].filter(([, p]) => p.stripe_customer_id === user.customer)).toHaveLength(
      1,
    );
    expect((await ledger(user))[0].reported_at).toBeInstanceOf(Date);
  });

  it("concurrent reporters send each overage email once", async () => {
    const user = await overageSender();
    standIn.override = (request) =>
      request.path === "/v1/billing/meter_events"
        ? { status: 500, body: { error: { type: "api_error", message: "down" } } }
        : undefined;
    for (let i = 0; i < 6; i++) expect((await sendOne(user)).status).toBe(200);
    standIn.reset();

    const later = new Date(Date.now() + 3_600_000);
    await Promise.all([
      reportPendingOverage({ now: later }),
      reportPendingOverage({ now: later }),
      reportPendingOverage({ now: later }),
    ]);
    const rows = await ledger(user);
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.reported_at !== null)).toBe(true);
    const sent = meterRequests(user.customer)
      .map((r) => r.form.identifier)
      .sort();
    expect(sent).toEqual(rows.map((r) => r.email_id).sort());
  });

  it("waits for an email the provider has not accepted yet, and for an account without a Stripe customer", async () => {
    const user = await overageSender("annual");
    const orphan = await overageSender("monthly", false);
    await getDb()`update usage_counters set count = 50000 where account_id = ${user.accountId}`;
    standIn.override = (request) =>
      request.path === "/v1/billing/meter_events"
        ? { status: 500, body: { error: { type: "api_error", message: "down" } } }
        : undefined;
    const sent = await sendOne(user);
    const orphanSent = await sendOne(orphan);
    expect(orphanSent.body.meta.email_usage).toMatchObject({ is_overage: true, billing_usage_reported: false });
    standIn.override = undefined;
    standIn.reset();

    await getDb()`update sent_emails set status = 'pending' where id = ${sent.body.data.id}`;
    await reportPendingOverage({ now: new Date(Date.now() + 3_600_000) });
    expect(meterRequests(user.customer)).toEqual([]);
    expect(standIn.to("/v1/billing/meter_events").filter((r) => r.form.identifier === orphanSent.body.data.id)).toEqual(
      [],
    );

    await getDb()`update sent_emails set status = 'sent' where id = ${sent.body.data.id}`;
    await reportPendingOverage({ now: new Date(Date.now() + 3_600_000) });
    expect(meterRequests(user.customer).map((r) => r.form.identifier)).toEqual([sent.body.data.id]);
  });

  it("flushes the backlog in the background after an overage send", async () => {
    const user = await overageSender();
    standIn.override = (request) =>
      request.path === "/v1/billing/meter_events"
        ? { status: 500, body: { error: { type: "api_error", message: "down" } } }
        : undefined;
    const first = await sendOne(user);
    standIn.override = undefined;
    // Make the failed row due again, then send another overage email: both end up reported.
    await getDb()`update email_overage_ledger set next_report_at = now() - interval '1 second' where email_id = ${first.body.data.id}`;
    const second = await sendOne(user);
    expect(second.body.meta.email_usage.billing_usage_reported).toBe(true);
    expect((await ledger(user)).map((r) => r.reported_at !== null)).toEqual([false, true]);
    const flushes = background.filter((work) => work.description === "stripe: background overage reporting");
    expect(flushes).toHaveLength(2);
    for (const flush of flushes) await flush.task();
    expect((await ledger(user)).map((r) => r.reported_at !== null)).toEqual([true, true]);
  });

  it("the cron route needs CRON_SECRET and reports the backlog", async () => {
    setTestEnv({ CRON_SECRET: "cron-secret-0123456789abcdef" });
    expect((await call(reportUsageCron, "/api/cron/report-usage")).status).toBe(401);
    expect(
      (await call(reportUsageCron, "/api/cron/report-usage", { headers: { authorization: "Bearer wrong" } })).status,
    ).toBe(401);
    expect((await call(reportUsagePut, "/api/cron/report-usage", { method: "PUT" })).headers.get("allow")).toBe(
      "GET, HEAD, POST",
    );

    const user = await overageSender();
    standIn.override = (request) =>
      request.path === "/v1/billing/meter_events"
        ? { status: 500, body: { error: { type: "api_error", message: "down" } } }
        : undefined;
    const sent = await sendOne(user);
    standIn.override = undefined;
    await getDb()`update email_overage_ledger set next_report_at = now() - interval '1 second' where email_id = ${sent.body.data.id}`;

    const result = await call(reportUsageCron, "/api/cron/report-usage", {
      headers: { authorization: "Bearer cron-secret-0123456789abcdef" },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, configured: true, failed: 0 });
    expect(result.body.reported).toBeGreaterThanOrEqual(1);
    expect((await ledger(user))[0].reported_at).toBeInstanceOf(Date);
  });

  it("without Stripe configured, overage stays unreported and billing_usage_reported false", async () => {
    setTestEnv(WITHOUT_STRIPE);
    const user = await overageSender();
    const result = await sendOne(user);
    expect(result.body.meta.email_usage).toMatchObject({ is_overage: true, billing_usage_reported: false });
    expect(standIn.requests).toEqual([]);
    expect((await ledger(user))[0]).toMatchObject({ reported_at: null, report_attempts: 0, processor_ref: null });
  });
});
