import { describe, expect, it } from "vitest";
import { POST as cancel } from "@/app/api/v1/emails/[id]/cancel/route";
import { POST as send } from "@/app/api/v1/send/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { usageSummary } from "@/lib/dashboard/queries";
import { createApiKey } from "@/lib/api-keys/data";
import { getDb } from "@/lib/db/client";
import { call, sender, type Sender } from "../support/api";

// The Usage page's "Test sends" figure: sends made with test keys today (UTC), apart from the month's emails, and the
// same count their daily limit and GET /usage use.

async function sendWith(user: Sender, key: string, extra: Record<string, unknown> = {}): Promise<string> {
  const result = await call(send, "/api/v1/send", {
    method: "POST",
    headers: { "x-api-key": key },
    body: { template_id: user.welcomeId, to: "ann@example.com", subject: "Hello", ...extra },
  });
  expect(result.status).toBe(200);
  return result.body.data.id;
}

async function testKey(user: Sender): Promise<string> {
  return (await createApiKey(user.accountId, { name: "CI", kind: "test" })).key;
}

describe("usageSummary's test sends", () => {
  it("counts the account's test sends today: not live sends, not yesterday's, not another account's, not a canceled one", async () => {
    const user = await sender();
    const key = await testKey(user);
    await sendWith(user, key);
    await sendWith(user, key);
    const scheduled = await sendWith(user, key, { scheduled_at: new Date(Date.now() + 3600_000).toISOString() });
    const canceled = await call(cancel, `/api/v1/emails/${scheduled}/cancel`, {
      method: "POST",
      params: { id: scheduled },
      headers: { "x-api-key": key },
    });
    expect(canceled.status).toBe(200);
    await sendWith(user, user.key);
    await getDb()`
      insert into usage_daily (account_id, metric, day, count)
      values (${user.accountId}, 'test_emails', (now() at time zone 'utc')::date - 1, 40)`;
    const other = await sender();
    await sendWith(other, await testKey(other));

    const summary = await usageSummary(user.accountId);
    expect([summary.testEmailsToday, summary.emails.current_usage]).toEqual([2, 1]);
    expect((await usageSummary(other.accountId)).testEmailsToday).toBe(1);
    const usage = await call(getUsage, "/api/v1/usage", { headers: { "x-api-key": key } });
    expect(usage.body.test_emails.sent_today).toBe(2);
  });

  it("is 0 for an account that has sent only with live keys", async () => {
    const user = await sender();
    await sendWith(user, user.key);
    expect((await usageSummary(user.accountId)).testEmailsToday).toBe(0);
  });
});
