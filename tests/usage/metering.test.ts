import { describe, expect, it } from "vitest";
import { GET as getLibrary } from "@/app/api/v1/library/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { getDb } from "@/lib/db/client";
import { billingPeriod, testSendDay } from "@/lib/core/plans";
import { addToLibrary, auth, call, createUser, setApiCallsUsed, type TestUser } from "../support/api";
import { addressedId, endpoints, senderEndpoints } from "../support/endpoints";

async function apiCallsUsed(user: TestUser, periodStart = billingPeriod().start): Promise<number> {
  const [row] = await getDb()<{ count: number }[]>`
    select count from usage_counters where account_id = ${user.accountId} and metric = 'api_calls' and period_start = ${periodStart}`;
  return row?.count ?? 0;
}

const nextMonth = () => billingPeriod().reset.toISOString();
const noTestSends = () => ({
  daily_limit: 100,
  sent_today: 0,
  remaining: 100,
  reset: testSendDay().reset.toISOString(),
});

describe("monthly API quota", () => {
  it("the billing period is the calendar month in UTC", () => {
    expect(billingPeriod(new Date("2026-01-31T23:59:59.999Z"))).toEqual({
      start: new Date("2026-01-01T00:00:00.000Z"),
      reset: new Date("2026-02-01T00:00:00.000Z"),
    });
    expect(billingPeriod(new Date("2026-12-15T10:00:00Z")).reset.toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });

  it.each(endpoints.filter((e) => e.metered))(
    "$name counts once and sends the rate-limit headers",
    async (endpoint) => {
      const user = await createUser("free");
      const { template_id } = await addToLibrary(user, "welcome");
      const id = await addressedId(endpoint, user, template_id);
      const result = await call(endpoint.handler, endpoint.path(id), {
        ...endpoint.options(id),
        headers: auth(user),
      });
      expect(result.status).toBe(endpoint.status ?? 200);
      expect(result.headers.get("x-ratelimit-limit")).toBe("500");
      expect(result.headers.get("x-ratelimit-remaining")).toBe("499");
      expect(result.headers.get("x-ratelimit-reset")).toBe(nextMonth());
      expect(result.headers.get("x-ratelimit-plan")).toBe("free");
      expect(await apiCallsUsed(user)).toBe(1);
    },
  );

  it.each(endpoints.filter((e) => !e.metered))(
    "$name is not metered, sends no rate-limit headers and never answers 429",
    async (endpoint) => {
      const user = await createUser("free");
      const { template_id } = await addToLibrary(user, "welcome");
      const id = await addressedId(endpoint, user, template_id);
      await setApiCallsUsed(user, 500);
      const result = await call(endpoint.handler, endpoint.path(id), {
        ...endpoint.options(id),
        headers: auth(user),
      });
      expect(result.status).toBe(200);
      expect(result.headers.get("x-ratelimit-limit")).toBeNull();
      expect(result.headers.get("x-ratelimit-plan")).toBeNull();
      expect(await apiCallsUsed(user)).toBe(500);
    },
  );

  it("answers the exact 429 once the month's calls are used, and does not count the refusal", async () => {
    const user = await createUser("free");
    await setApiCallsUsed(user, 499);
    const last = await call(getLibrary, "/api/v1/library", { headers: auth(user) });
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");

    const refused = await call(getLibrary, "/api/v1/library", { headers: auth(user) });
    expect(refused.status).toBe(429);
    const resetInSeconds = refused.body.details.resetInSeconds;
    expect(resetInSeconds).toBeGreaterThan(0);
    expect(Math.abs(resetInSeconds - (billingPeriod().reset.getTime() - Date.now()) / 1000)).toBeLessThan(5);
    expect(refused.body).toEqual({
      error: "API usage limit exceeded",
      code: "RATE_LIMIT_EXCEEDED",
      message: `Your free plan includes 500 API calls per month. The limit resets at ${nextMonth()}; upgrade for unlimited calls.`,
      details: { limit: 500, remaining: 0, reset: nextMonth(), resetInSeconds },
      upgrade_url: "http://localhost:3000/dashboard/billing",
      documentation: "http://localhost:3000/docs#rate-limits",
    });
    expect(refused.body).not.toHaveProperty("success");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("500");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-ratelimit-reset")).toBe(nextMonth());
    expect(refused.headers.get("x-ratelimit-plan")).toBe("free");
    expect(Number(refused.headers.get("retry-after"))).toBe(resetInSeconds);
    expect(await apiCallsUsed(user)).toBe(500);
  });

  const bodyEndpoints = [...endpoints, ...senderEndpoints].filter((e) => e.options("x").body !== undefined);
  it.each(bodyEndpoints)(
    "$name answers a malformed or oversized body only after 401 and 429, and counts it",
    async (endpoint) => {
      const user = await createUser("free");
      const templateId = (await addToLibrary(user, "welcome")).template_id;
      const options = endpoint.options(templateId);
      // Sent with Content-Length and chunked.
      const bad = { ...options, body: "{not json" };
      const badChunked = { ...bad, chunked: true };
      const tooLarge = { ...options, headers: { "content-length": String(11 * 1024 * 1024) }, body: "{}" };
      for (const variant of [bad, badChunked, tooLarge]) {
        const anonymous = await call(endpoint.handler, endpoint.path(templateId), {
          ...variant,
          headers: { ...variant.headers, "x-api-key": "nope" },
        });
        expect(anonymous.body).toEqual({
          error: "Authentication required",
          code: "UNAUTHORIZED",
          success: false,
          message: "The API key is malformed: it does not start with lp_live_ or lp_test_.",
        });
      }
      await setApiCallsUsed(user, 497);
      for (const variant of [bad, badChunked]) {
        const malformed = await call(endpoint.handler, endpoint.path(templateId), { ...variant, headers: auth(user) });
        expect([malformed.status, malformed.body.code, malformed.body.details[0].field]).toEqual([
          400,
          "VALIDATION_ERROR",
          "body",
        ]);
      }
      const oversized = await call(endpoint.handler, endpoint.path(templateId), {
        ...tooLarge,
        headers: { ...tooLarge.headers, ...auth(user) },
      });
      expect([oversized.status, oversized.body]).toEqual([
        413,
        { error: "Request body too large", code: "PAYLOAD_TOO_LARGE", success: false },
      ]);
      expect(await apiCallsUsed(user)).toBe(500);
      const refused = await call(endpoint.handler, endpoint.path(templateId), { ...bad, headers: auth(user) });
      expect([refused.status, refused.body.code]).toEqual([429, "RATE_LIMIT_EXCEEDED"]);
    },
  );

  it("leaves out Limit and Remaining on unlimited plans but still counts", async () => {
    for (const plan of ["monthly", "annual"] as const) {
      const user = await createUser(plan);
      await setApiCallsUsed(user, 100_000);
      const result = await call(getLibrary, "/api/v1/library", { headers: auth(user) });
      expect(result.status).toBe(200);
      expect(result.headers.get("x-ratelimit-limit")).toBeNull();
      expect(result.headers.get("x-ratelimit-remaining")).toBeNull();
      expect(result.headers.get("x-ratelimit-reset")).toBe(nextMonth());
      expect(result.headers.get("x-ratelimit-plan")).toBe(plan);
      expect(await apiCallsUsed(user)).toBe(100_001);
    }
  });

  it("does not count requests refused for bad credentials", async () => {
    const user = await createUser("free");
    await call(getLibrary, "/api/v1/library", { headers: { "x-api-key": user.key + "x" } });
    expect(await apiCallsUsed(user)).toBe(0);
  });

  it("counts a request that then fails validation (it was authenticated and metered before its handler ran)", async () => {
    const user = await createUser("free");
    const result = await call(getLibrary, "/api/v1/library?limit=0", { headers: auth(user) });
    expect(result.status).toBe(400);
    expect(result.headers.get("x-ratelimit-remaining")).toBe("499");
    expect(await apiCallsUsed(user)).toBe(1);
  });

  it("starts every month afresh", async () => {
    const user = await createUser("free");
    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1));
    await getDb()`insert into usage_counters (account_id, metric, period_start, count) values (${user.accountId}, 'api_calls', ${lastMonth}, 500)`;
    const result = await call(getLibrary, "/api/v1/library", { headers: auth(user) });
    expect(result.status).toBe(200);
    expect(result.headers.get("x-ratelimit-remaining")).toBe("499");
    expect(await apiCallsUsed(user, lastMonth)).toBe(500);
  });

  it("upgrading lifts the limit at once", async () => {
    const user = await createUser("free");
    await setApiCallsUsed(user, 500);
    expect((await call(getLibrary, "/api/v1/library", { headers: auth(user) })).status).toBe(429);
    await getDb()`update accounts set plan = 'monthly' where id = ${user.accountId}`;
    expect((await call(getLibrary, "/api/v1/library", { headers: auth(user) })).status).toBe(200);
  });

  it("60 concurrent metered requests with 20 calls left grant exactly 20", async () => {
    const user = await createUser("free");
    await setApiCallsUsed(user, 480);
    const results = await Promise.all(
      Array.from({ length: 60 }, () => call(getLibrary, "/api/v1/library", { headers: auth(user) })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    expect(await apiCallsUsed(user)).toBe(500);
    const remaining = results
      .filter((r) => r.status === 200)
      .map((r) => Number(r.headers.get("x-ratelimit-remaining")));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it("GET /usage reports the API quota, the month's emails and today's test sends", async () => {
    const user = await createUser("free");
    await setApiCallsUsed(user, 123);
    const result = await call(getUsage, "/api/v1/usage", { headers: auth(user) });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      success: true,
      usage: { limit: 500, remaining: 377, reset: nextMonth(), plan: "free" },
      emails: { monthly_limit: 100, current_usage: 0, remaining: 100, is_overage: false, overage_emails: 0 },
      test_emails: noTestSends(),
    });

    const paid = await createUser("annual");
    const paidUsage = await call(getUsage, "/api/v1/usage", { headers: auth(paid) });
    expect(paidUsage.body).toEqual({
      success: true,
      usage: { limit: null, remaining: null, reset: nextMonth(), plan: "annual" },
      emails: { monthly_limit: 50000, current_usage: 0, remaining: 50000, is_overage: false, overage_emails: 0 },
      test_emails: noTestSends(),
    });
  });
});
