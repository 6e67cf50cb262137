import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getEmail, POST as postEmail } from "@/app/api/v1/emails/[id]/route";
import { GET as listEmails } from "@/app/api/v1/emails/route";
import { POST as send } from "@/app/api/v1/send/route";
import { POST as sendBatch } from "@/app/api/v1/send/batch/route";
import { getDb } from "@/lib/db/client";
import { applyEmailEvent } from "@/lib/sent-emails/data/events";
import { dispatchDueScheduledEmails } from "@/lib/sent-emails/data/scheduled";
import { billingPeriod } from "@/lib/core/plans";
import {
  DELIVERY_STATUSES,
  EMAIL_EVENT_TYPES,
  type DeliveryStatus,
  type EmailEventType,
} from "@/lib/sent-emails/schemas";
import {
  ISO,
  auth,
  call,
  catalogueId,
  createUser,
  expectedEmailResponse,
  nextInstant,
  sender,
  type Sender,
  type TestUser,
} from "../support/api";
import { sentEmailId } from "../support/send";
import { useResendStandIn } from "../support/resend-stand-in";

const NOT_FOUND = { error: "Email not found", code: "EMAIL_NOT_FOUND", success: false };

async function sendOne(user: Sender, extra: Record<string, unknown> = {}) {
  const result = await call(send, "/api/v1/send", {
    method: "POST",
    headers: auth(user),
    body: { template_id: user.welcomeId, to: "ann@example.com", subject: "Welcome aboard", ...extra },
  });
  return result;
}

const get = (user: TestUser, id: string) =>
  call(getEmail, `/api/v1/emails/${encodeURIComponent(id)}`, { params: { id }, headers: auth(user) });

const list = (user: TestUser, query = "") => call(listEmails, `/api/v1/emails${query}`, { headers: auth(user) });

describe("GET /api/v1/emails/{id} through the embedded outbox", () => {
  it("a sent email is delivered: its sent and delivered events in order", async () => {
    const user = await sender();
    const id = await sentEmailId(user, { cc: ["cc@example.com"], tags: [{ name: "kind", value: "welcome" }] });
    const result = await get(user, id);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      success: true,
      email: expectedEmailResponse(
        user,
        id,
        "delivered",
        [
          { type: "sent", at: ISO },
          { type: "delivered", at: ISO },
        ],
        { cc: ["cc@example.com"], tags: [{ name: "kind", value: "welcome" }] },
      ),
    });
    const [row] = await getDb()<{ id: string; sent_at: Date; created_at: Date }[]>`
      select id, sent_at, created_at from sent_emails where account_id = ${user.accountId}`;
    expect(row.id).toBe(id);
    expect(result.body.email.sent_at).toBe(row.sent_at.toISOString());
    expect(result.body.email.created_at).toBe(row.created_at.toISOString());
  });

  it("an address at bounce.test bounces (hard), whatever list it is in", async () => {
    const user = await sender();
    const id = await sentEmailId(user, { bcc: ["x@Bounce.test"] });
    const result = await get(user, id);
    expect([result.status, result.body]).toEqual([
      200,
      {
        success: true,
        email: expectedEmailResponse(
          user,
          id,
          "bounced",
          [
            { type: "sent", at: ISO },
            {
              type: "bounced",
              at: ISO,
              detail: {
                bounce_type: "hard",
                recipient: "x@Bounce.test",
                message: "x@Bounce.test does not exist (a hard bounce: addresses @bounce.test always bounce)",
              },
            },
          ],
          { bcc: ["x@Bounce.test"] },
        ),
      },
    ]);
  });

  it("an address at complaint.test complains", async () => {
    const user = await sender();
    const id = await sentEmailId(user, { to: ["ann@example.com", "x@complaint.test"] });
    const result = await get(user, id);
    expect([result.status, result.body]).toEqual([
      200,
      {
        success: true,
        email: expectedEmailResponse(
          user,
          id,
          "complained",
          [
            { type: "sent", at: ISO },
            {
              type: "complained",
              at: ISO,
              detail: {
                recipient: "x@complaint.test",
                message: "x@complaint.test marked the email as spam (addresses @complaint.test always complain)",
              },
            },
          ],
          { to: ["ann@example.com", "x@complaint.test"] },
        ),
      },
    ]);
  });

  it("an address at opened.test opens the email; one at clicked.test opens it and clicks its first link", async () => {
    const user = await sender();
    const opened = await sentEmailId(user, { to: ["reader@opened.test"] });
    expect((await get(user, opened)).body).toEqual({
      success: true,
      email: expectedEmailResponse(
        user,
        opened,
        "delivered",
        [
          { type: "sent", at: ISO },
          { type: "delivered", at: ISO },
          { type: "opened", at: ISO },
        ],
        { to: ["reader@opened.test"] },
      ),
    });
    const link = "https://acme.example/start?from=welcome&step=1";
    const clicked = await sentEmailId(user, { to: ["reader@clicked.test"], variables: { dashboardUrl: link } });
    expect((await get(user, clicked)).body).toEqual({
      success: true,
      email: expectedEmailResponse(
        user,
        clicked,
        "delivered",
        [
          { type: "sent", at: ISO },
          { type: "delivered", at: ISO },
          { type: "opened", at: ISO },
          { type: "clicked", at: ISO, detail: { link } },
        ],
        { to: ["reader@clicked.test"] },
      ),
    });
    // A bounce comes first: a message that bounced is not opened.
    const bounced = await sentEmailId(user, { to: ["reader@clicked.test", "gone@bounce.test"] });
    expect((await get(user, bounced)).body.email.events.map(({ type }: { type: string }) => type)).toEqual([
      "sent",
      "bounced",
    ]);
    // A batch's and a scheduled email's readers do the same.
    const batch = await call(sendBatch, "/api/v1/send/batch", {
      method: "POST",
      headers: auth(user),
      body: { emails: [{ template_id: user.welcomeId, to: "reader@opened.test", subject: "Hi" }] },
    });
    const [{ id: batched }] = batch.body.data;
    expect((await get(user, batched)).body.email.events.map(({ type }: { type: string }) => type)).toEqual([
      "sent",
      "delivered",
      "opened",
    ]);
    const due = await sentEmailId(user, {
      to: ["reader@opened.test"],
      scheduled_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await dispatchDueScheduledEmails({ accountId: user.accountId, now: new Date(Date.now() + 120_000) });
    expect((await get(user, due)).body.email.events.map(({ type }: { type: string }) => type)).toEqual([
      "scheduled",
      "sent",
      "delivered",
      "opened",
    ]);
  });

  it("a scheduled email is scheduled until the dispatcher sends it, then delivered", async () => {
    const user = await sender();
    const at = new Date(Date.now() + 3600_000).toISOString();
    const id = await sentEmailId(user, { scheduled_at: at });
    const scheduled = await get(user, id);
    expect([scheduled.status, scheduled.body]).toEqual([
      200,
      {
        success: true,
        email: expectedEmailResponse(user, id, "scheduled", [{ type: "scheduled", at: ISO }], {
          sent_at: null,
          scheduled_at: at,
        }),
      },
    ]);

    // Its time comes: the dispatcher sends it and the outbox reports it delivered.
    await getDb()`update sent_emails set scheduled_at = now() - interval '1 second' where id = ${id}`;
    expect(await dispatchDueScheduledEmails({ accountId: user.accountId })).toBe(1);
    const sent = await get(user, id);
    expect([sent.status, sent.body]).toEqual([
      200,
      {
        success: true,
        email: expectedEmailResponse(
          user,
          id,
          "delivered",
          [
            { type: "scheduled", at: ISO },
            { type: "sent", at: ISO },
            { type: "delivered", at: ISO },
          ],
          { scheduled_at: ISO },
        ),
      },
    ]);
  });

  it("a scheduled email to bounce.test bounces once the cron's dispatcher sends it", async () => {
    const user = await sender();
    const id = await sentEmailId(user, {
      to: "y@bounce.test",
      scheduled_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await getDb()`update sent_emails set scheduled_at = now() - interval '1 second' where id = ${id}`;
    expect(await dispatchDueScheduledEmails({ accountId: user.accountId })).toBe(1);
    const result = await get(user, id);
    expect([result.body.email.status, result.body.email.events.map((e: { type: string }) => e.type)]).toEqual([
      "bounced",
      ["scheduled", "sent", "bounced"],
    ]);
  });

  it("answers 404 EMAIL_NOT_FOUND for another account's email, an unknown id and an id that is not one", async () => {
    const owner = await sender();
    const other = await sender();
    const id = await sentEmailId(owner);
    for (const unknown of [id, randomUUID(), "nope", "%", "x".repeat(300)]) {
      const result = await get(other, unknown);
      expect([unknown, result.status, result.body]).toEqual([unknown, 404, NOT_FOUND]);
    }
    expect((await get(owner, id)).status).toBe(200);
  });

  it("answers other methods with 405 and an Allow header", async () => {
    const result = await call(postEmail, "/api/v1/emails/x", { method: "POST", params: { id: "x" } });
    expect([result.status, result.headers.get("allow"), result.body]).toEqual([
      405,
      "GET, HEAD",
      { error: "Method not allowed", code: "METHOD_NOT_ALLOWED", success: false, message: "Use GET, HEAD." },
    ]);
  });

  it("is metered: each read counts one API call", async () => {
    const user = await sender();
    const id = await sentEmailId(user);
    const before = await apiCalls(user);
    await get(user, id);
    await get(user, "nope");
    expect(await apiCalls(user)).toBe(before + 2);
  });
});

async function apiCalls(user: TestUser): Promise<number> {
  const [row] = await getDb()<{ count: number }[]>`
    select count from usage_counters
    where account_id = ${user.accountId} and metric = 'api_calls' and period_start = ${billingPeriod().start}`;
  return row?.count ?? 0;
}

describe("GET /api/v1/emails", () => {
  it("lists the caller's emails newest first, without events, with the page and total", async () => {
    const user = await sender();
    const other = await sender();
    await sentEmailId(other);
    const ids = [];
    for (const to of ["a@example.com", "b@bounce.test", "c@example.com"]) {
      ids.push(await sentEmailId(user, { to }));
      await nextInstant();
    }
    const scheduledAt = new Date(Date.now() + 3600_000).toISOString();
    ids.push(await sentEmailId(user, { to: "d@example.com", scheduled_at: scheduledAt }));

    const summary = (id: string, to: string, status: DeliveryStatus, extra: object = {}) => {
      const { events: _events, ...email } = expectedEmailResponse(user, id, status, [], { to: [to], ...extra });
      return email;
    };
    const all = await list(user);
    expect([all.status, all.body]).toEqual([
      200,
      {
        success: true,
        emails: [
          summary(ids[3], "d@example.com", "scheduled", { sent_at: null, scheduled_at: scheduledAt }),
          summary(ids[2], "c@example.com", "delivered"),
          summary(ids[1], "b@bounce.test", "bounced"),
          summary(ids[0], "a@example.com", "delivered"),
        ],
        pagination: { limit: 50, offset: 0, total: 4 },
      },
    ]);

    const page = await list(user, "?limit=2&offset=1");
    expect([page.status, page.body.emails.map((e: { id: string }) => e.id), page.body.pagination]).toEqual([
      200,
      [ids[2], ids[1]],
      { limit: 2, offset: 1, total: 4 },
    ]);
    const past = await list(user, "?offset=10");
    expect([past.status, past.body]).toEqual([
      200,
      { success: true, emails: [], pagination: { limit: 50, offset: 10, total: 4 } },
    ]);

    const delivered = await list(user, "?status=delivered");
    expect([delivered.body.emails.map((e: { id: string }) => e.id), delivered.body.pagination]).toEqual([
      [ids[2], ids[0]],
      { limit: 50, offset: 0, total: 2 },
    ]);
    const bounced = await list(user, "?status=bounced&limit=1");
    expect([bounced.body.emails.map((e: { id: string }) => e.id), bounced.body.pagination]).toEqual([
      [ids[1]],
      { limit: 1, offset: 0, total: 1 },
    ]);
    const failed = await list(user, "?status=failed");
    expect(failed.body).toEqual({ success: true, emails: [], pagination: { limit: 50, offset: 0, total: 0 } });
  });

  it("an account without emails gets an empty page", async () => {
    const user = await createUser();
    const result = await list(user);
    expect([result.status, result.body]).toEqual([
      200,
      { success: true, emails: [], pagination: { limit: 50, offset: 0, total: 0 } },
    ]);
  });

  const invalid: [string, { field: string; message: string }[]][] = [
    ["?limit=0", [{ field: "limit", message: "limit must be an integer from 1 to 100" }]],
    ["?limit=101", [{ field: "limit", message: "limit must be an integer from 1 to 100" }]],
    ["?offset=-1", [{ field: "offset", message: "offset must be an integer from 0 to 2147483647" }]],
    [
      "?status=pending",
      [
        {
          field: "status",
          message:
            "status must be one of scheduled, queued, sent, delivered, delivery_delayed, bounced, complained, failed, canceled",
        },
      ],
    ],
    ["?state=sent", [{ field: "state", message: "state is not a recognised field" }]],
  ];
  it.each(invalid)("answers %s with a 400 naming the parameter, and counts the call", async (query, details) => {
    const user = await createUser();
    const result = await list(user, query);
    expect([result.status, result.body]).toEqual([
      400,
      { error: "Invalid query parameters", code: "VALIDATION_ERROR", success: false, details },
    ]);
    expect(await apiCalls(user)).toBe(1);
  });
});

describe("GET /api/v1/emails/{id} through Resend (a local stand-in)", () => {
  const resend = useResendStandIn();

  it("an email Resend accepted is found by Resend's id (and by its own), sent until Resend reports more", async () => {
    const user = await sender();
    const providerId = `re_${randomUUID()}`;
    resend.reply = { status: 200, body: { id: providerId } };
    expect(await sentEmailId(user)).toBe(providerId);
    const result = await get(user, providerId);
    expect([result.status, result.body]).toEqual([
      200,
      { success: true, email: expectedEmailResponse(user, providerId, "sent", [{ type: "sent", at: ISO }]) },
    ]);
    const [{ id: ownId }] = await getDb()<{ id: string }[]>`
      select id from sent_emails where account_id = ${user.accountId}`;
    expect((await get(user, ownId)).body).toEqual(result.body);
    expect((await get(await sender(), providerId)).body).toEqual(NOT_FOUND);
  });

  it("an email Resend refused is failed, with the provider's message", async () => {
    const user = await sender();
    resend.reply = { status: 422, body: { statusCode: 422, name: "validation_error", message: "Invalid `to` field." } };
    expect((await sendOne(user)).status).toBe(502);
    const listed = await list(user);
    expect(listed.body.emails).toHaveLength(1);
    const id = listed.body.emails[0].id;
    const result = await get(user, id);
    expect([result.status, result.body]).toEqual([
      200,
      {
        success: true,
        email: expectedEmailResponse(
          user,
          id,
          "failed",
          [{ type: "failed", at: ISO, detail: { message: "resend: HTTP 422: Invalid `to` field." } }],
          { sent_at: null },
        ),
      },
    ]);
  });
});

describe("apply_email_event: the status machine", () => {
  // The status each event leaves an email in, from each status. Every event is appended either way.
  const S = "scheduled",
    Q = "queued",
    SE = "sent",
    DE = "delivered",
    DD = "delivery_delayed",
    B = "bounced",
    C = "complained",
    F = "failed",
    X = "canceled";
  // Columns: scheduled, sent, delivered, delivery_delayed, bounced, complained, failed, canceled, opened, clicked.
  const machine: Record<DeliveryStatus, DeliveryStatus[]> = {
    queued: [S, SE, DE, DD, B, C, F, Q, Q, Q],
    scheduled: [S, SE, DE, DD, B, C, F, X, S, S],
    sent: [SE, SE, DE, DD, B, C, F, SE, SE, SE],
    delivery_delayed: [DD, DD, DE, DD, B, C, F, DD, DD, DD],
    delivered: [DE, DE, DE, DE, B, C, DE, DE, DE, DE],
    bounced: [B, B, B, B, B, B, B, B, B, B],
    complained: [C, C, C, C, C, C, C, C, C, C],
    failed: [F, F, F, F, F, F, F, F, F, F],
    canceled: [X, X, X, X, X, X, X, X, X, X],
  };
  const transitions = DELIVERY_STATUSES.flatMap((from) =>
    EMAIL_EVENT_TYPES.map((event, column) => [from, event, machine[from][column]] as const),
  );

  let user: TestUser;
  let templateId: string;
  beforeAll(async () => {
    user = await createUser("monthly");
    templateId = await catalogueId("welcome");
  });

  /** An email of `user` in `status`, with no events. */
  async function emailIn(status: DeliveryStatus): Promise<string> {
    const [row] = await getDb()<{ id: string }[]>`
      insert into sent_emails (account_id, template_id, status, provider, from_address, to_addresses, subject, html,
                               delivery_status)
      values (${user.accountId}, ${templateId}, 'pending', 'resend', 'hello@acme.example', ${["ann@example.com"]},
              'Hi', '<p>Hi</p>', ${status})
      returning id`;
    return row.id;
  }

  async function state(id: string) {
    const [email] = await getDb()<{ status: DeliveryStatus }[]>`
      select delivery_status as status from sent_emails where id = ${id}`;
    const events = await getDb()<{ type: EmailEventType; provider_event_id: string | null }[]>`
      select type, provider_event_id from email_events where email_id = ${id} order by id`;
    return { status: email.status, events: events.map((e) => [e.type, e.provider_event_id]) };
  }

  it.each(transitions)("%s + %s → %s, the event appended", async (from, event, to) => {
    const id = await emailIn(from);
    expect(await applyEmailEvent(id, event)).toEqual({ applied: true, status: to });
    expect(await state(id)).toEqual({ status: to, events: [[event, null]] });
  });

  it("applies an event with a provider event id once, whichever email it names again", async () => {
    const id = await emailIn("sent");
    const eventId = `msg_${randomUUID()}`;
    const at = new Date("2026-11-01T10:00:00.000Z");
    expect(await applyEmailEvent(id, "delivered", { providerEventId: eventId, occurredAt: at })).toEqual({
      applied: true,
      status: "delivered",
    });
    expect(await applyEmailEvent(id, "bounced", { providerEventId: eventId })).toEqual({
      applied: false,
      status: "delivered",
    });
    const another = await emailIn("sent");
    expect(await applyEmailEvent(another, "delivered", { providerEventId: eventId })).toEqual({
      applied: false,
      status: "sent",
    });
    expect(await state(id)).toEqual({ status: "delivered", events: [["delivered", eventId]] });
    expect(await state(another)).toEqual({ status: "sent", events: [] });
    const [{ occurred_at }] = await getDb()<{ occurred_at: Date }[]>`
      select occurred_at from email_events where email_id = ${id}`;
    expect(occurred_at.toISOString()).toBe(at.toISOString());
  });

  it("keeps every event in order of arrival while the status only moves forward", async () => {
    const id = await emailIn("queued");
    for (const event of [
      "sent",
      "delivered",
      "opened",
      "delivery_delayed",
      "clicked",
      "complained",
      "bounced",
    ] as const)
      await applyEmailEvent(id, event, { detail: { n: event } });
    const rows = await getDb()<{ type: string; detail: unknown }[]>`
      select type, detail from email_events where email_id = ${id} order by id`;
    expect(rows.map((row) => [row.type, row.detail])).toEqual(
      ["sent", "delivered", "opened", "delivery_delayed", "clicked", "complained", "bounced"].map((n) => [n, { n }]),
    );
    expect((await state(id)).status).toBe("complained");
  });

  it("answers not applied for an email that does not exist, and refuses an unknown event type", async () => {
    expect(await applyEmailEvent(randomUUID(), "delivered")).toEqual({ applied: false, status: null });
    const id = await emailIn("sent");
    await expect(applyEmailEvent(id, "queued" as EmailEventType)).rejects.toThrow(/unknown email event type: queued/);
    expect(await state(id)).toEqual({ status: "sent", events: [] });
  });

  it("concurrent events of one email are applied one at a time: every one kept, the status final", async () => {
    const id = await emailIn("sent");
    const events = ["delivery_delayed", "delivered", "opened", "clicked", "bounced", "delivery_delayed"] as const;
    await Promise.all(events.map((event) => applyEmailEvent(id, event)));
    const { status, events: stored } = await state(id);
    expect(status).toBe("bounced");
    expect(stored.map(([type]) => type).sort()).toEqual([...events].sort());
  });
});
