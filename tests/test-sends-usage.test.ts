import { describe, expect, it } from "vitest";
import { POST as send } from "@/app/api/v1/send/route";
import { createApiKey } from "@/lib/db/api-keys";
import { getDb } from "@/lib/db/client";
import { countTestEmailsToday } from "@/lib/db/usage";
import { call, sender, type Sender } from "./support/api";

// The Usage page's "Test sends" figure: sends made with test keys since midnight UTC, apart from the month's emails.

async function sendWith(user: Sender, key: string): Promise<string> {
  const result = await call(send, "/api/v1/send", {
    method: "POST",
    headers: { "x-api-key": key },
    body: { template_id: user.welcomeId, to: "ann@example.com", subject: "Hello" },
  });
  expect(result.status).toBe(200);
  return result.body.data.id;
}

async function testKey(user: Sender): Promise<string> {
  return (await createApiKey(user.accountId, { name: "CI", kind: "test" })).key;
}

describe("countTestEmailsToday", () => {
  it("counts the account's test sends since midnight UTC: not live sends, not yesterday's, not another account's", async () => {
    const user = await sender();
    const key = await testKey(user);
    const [, atMidnight, beforeMidnight] = [
      await sendWith(user, key),
      await sendWith(user, key),
      await sendWith(user, key),
    ];
    await sendWith(user, user.key);
    const other = await sender();
    await sendWith(other, await testKey(other));

    const now = new Date();
    const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const db = getDb();
    await db`update sent_emails set created_at = ${midnight} where id = ${atMidnight}`;
    await db`update sent_emails set created_at = ${new Date(midnight.getTime() - 1000)} where id = ${beforeMidnight}`;

    expect(await countTestEmailsToday(user.accountId)).toBe(2);
    expect(await countTestEmailsToday(other.accountId)).toBe(1);
  });

  it("is 0 for an account that has sent only with live keys", async () => {
    const user = await sender();
    await sendWith(user, user.key);
    expect(await countTestEmailsToday(user.accountId)).toBe(0);
  });
});
