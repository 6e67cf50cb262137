import { describe, expect, it } from "vitest";
import { POST as cancel } from "@/app/api/v1/emails/[id]/cancel/route";
import { POST as send } from "@/app/api/v1/send/route";
import { getDb } from "@/lib/db/client";
import { dispatchDueScheduledEmails } from "@/lib/sent-emails/data/scheduled";
import {
  ISO,
  auth,
  call,
  counter,
  expectedEmailResponse,
  sender,
  setEmailsUsed,
  type Sender,
  type TestUser,
} from "../support/api";

const tomorrow = () => new Date(Date.now() + 24 * 3600_000).toISOString();

async function schedule(user: Sender, extra: Record<string, unknown> = {}): Promise<string> {
  const result = await call(send, "/api/v1/send", {
    method: "POST",
    headers: auth(user),
    body: {
      template_id: user.welcomeId,
      to: "ann@example.com",
      subject: "Welcome aboard",
      scheduled_at: tomorrow(),
      ...extra,
    },
  });
  expect(result.status).toBe(200);
  return result.body.data.id;
}

const cancelEmail = (user: TestUser, id: string) =>
  call(cancel, `/api/v1/emails/${id}/cancel`, { method: "POST", params: { id }, headers: auth(user) });

const notCancelable = (status: string) => ({
  error: "Email cannot be canceled",
  code: "EMAIL_NOT_CANCELABLE",
  success: false,
  message: `Only a scheduled email can be canceled; its status is ${status}`,
});

async function dailyEmails(user: TestUser): Promise<number> {
  const [row] = await getDb()<{ count: number }[]>`
    select coalesce(sum(count), 0)::int as count from usage_daily where account_id = ${user.accountId} and metric = 'emails'`;
  return row.count;
}

describe("POST /api/v1/emails/{id}/cancel", () => {
  it("cancels a scheduled email: canceled with its event, no longer counted, never delivered", async () => {
    const user = await sender();
    const id = await schedule(user);
    expect([await counter(user, "emails"), await dailyEmails(user)]).toEqual([1, 1]);

    const result = await cancelEmail(user, id);
    expect([result.status, result.body]).toEqual([
      200,
      {
        success: true,
        email: expectedEmailResponse(
          user,
          id,
          "canceled",
          [
            { type: "scheduled", at: ISO },
            { type: "canceled", at: ISO },
          ],
          { sent_at: null, scheduled_at: ISO },
        ),
      },
    ]);
    expect([await counter(user, "emails"), await dailyEmails(user)]).toEqual([0, 0]);

    await dispatchDueScheduledEmails({ accountId: user.accountId, now: new Date(Date.now() + 2 * 24 * 3600_000) });
    const [row] = await getDb()<{ status: string; delivery_status: string; sent_at: Date | null }[]>`
      select status, delivery_status, sent_at from sent_emails where id = ${id}`;
    expect(row).toEqual({ status: "canceled", delivery_status: "canceled", sent_at: null });
  });

  it("anything not scheduled is 409 with its status; an email that is not the caller's is 404", async () => {
    const user = await sender();
    const sent = await call(send, "/api/v1/send", {
      method: "POST",
      headers: auth(user),
      body: { template_id: user.welcomeId, to: "ann@example.com", subject: "Hi" },
    });
    const delivered = await cancelEmail(user, sent.body.data.id);
    expect([delivered.status, delivered.body]).toEqual([409, notCancelable("delivered")]);

    const id = await schedule(user);
    expect((await cancelEmail(user, id)).status).toBe(200);
    const twice = await cancelEmail(user, id);
    expect([twice.status, twice.body]).toEqual([409, notCancelable("canceled")]);

    const notFound = { error: "Email not found", code: "EMAIL_NOT_FOUND", success: false };
    const other = await sender();
    const theirs = await schedule(other);
    for (const missing of [theirs, "re_unknown", "not a uuid", "x".repeat(300)]) {
      const result = await cancelEmail(user, missing);
      expect([result.status, result.body]).toEqual([404, notFound]);
    }
    expect(await counter(other, "emails")).toBe(1);
  });

  it("an email whose time has come is delivered first, so it is no longer cancelable", async () => {
    const user = await sender();
    const id = await schedule(user);
    await getDb()`update sent_emails set scheduled_at = now() - interval '1 second' where id = ${id}`;
    const result = await cancelEmail(user, id);
    expect([result.status, result.body]).toEqual([409, notCancelable("delivered")]);
    expect(await counter(user, "emails")).toBe(1);
  });

  it("concurrent cancels of one email cancel it once and give its count back once", async () => {
    const user = await sender();
    const id = await schedule(user);
    await schedule(user);
    const results = await Promise.all(Array.from({ length: 8 }, () => cancelEmail(user, id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect([await counter(user, "emails"), await dailyEmails(user)]).toEqual([1, 1]);
  });

  it("concurrent cancels of many emails give back exactly one count each", async () => {
    const user = await sender();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await schedule(user));
    const results = await Promise.all(ids.map((id) => cancelEmail(user, id)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect([await counter(user, "emails"), await dailyEmails(user)]).toEqual([0, 0]);
  });

  it("canceling an email within the plan moves the newest unreported overage email back within it", async () => {
    const user = await sender("monthly");
    await setEmailsUsed(user, 9_999);
    const within = await schedule(user);
    const over = await schedule(user);
    const overage = async () =>
      getDb()<{ id: string; is_overage: boolean; voided: boolean }[]>`
        select e.id, e.is_overage, l.voided_at is not null as voided
        from sent_emails e join email_overage_ledger l on l.email_id = e.id where e.account_id = ${user.accountId}`;
    expect(await overage()).toEqual([{ id: over, is_overage: true, voided: false }]);

    expect((await cancelEmail(user, within)).status).toBe(200);
    expect(await overage()).toEqual([{ id: over, is_overage: false, voided: true }]);
    expect(await counter(user, "emails")).toBe(10_000);
  });

  it("an overage email canceled is no longer overage and its ledger entry is voided, not reported", async () => {
    const user = await sender("monthly");
    await setEmailsUsed(user, 10_000);
    const id = await schedule(user);
    const [before] = await getDb()<{ is_overage: boolean; voided: boolean }[]>`
      select e.is_overage, l.voided_at is not null as voided
      from sent_emails e join email_overage_ledger l on l.email_id = e.id where e.id = ${id}`;
    expect(before).toEqual({ is_overage: true, voided: false });

    expect((await cancelEmail(user, id)).status).toBe(200);
    const [after] = await getDb()<{ is_overage: boolean; voided: boolean }[]>`
      select e.is_overage, l.voided_at is not null as voided
      from sent_emails e join email_overage_ledger l on l.email_id = e.id where e.id = ${id}`;
    expect(after).toEqual({ is_overage: false, voided: true });
    expect(await counter(user, "emails")).toBe(10_000);
  });
});
