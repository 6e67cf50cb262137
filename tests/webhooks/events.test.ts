import { describe, expect, it } from "vitest";
import { POST as cancelEmail } from "@/app/api/v1/emails/[id]/cancel/route";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { POST as postPublish } from "@/app/api/v1/templates/[id]/publish/route";
import { PUT as putTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { getDb } from "@/lib/db/client";
import { applyEmailEvent } from "@/lib/sent-emails/data/events";
import { auth, call, ISO, sender, type Sender } from "../support/api";
import { sentEmailId } from "../support/send";
import { addEndpoint, webhookEvents } from "../support/webhooks";

// Webhook events are made in the transaction of what they tell: every event an email gets (its hand-off, the embedded
// outbox's report, a provider's webhook, a cancel) and every version a template publishes.

const EMAIL_TYPES = [
  "email.scheduled",
  "email.sent",
  "email.delivered",
  "email.delivery_delayed",
  "email.bounced",
  "email.complained",
  "email.failed",
  "email.canceled",
  "email.opened",
  "email.clicked",
  "email.unsubscribed",
];

async function emailResource(user: Sender, id: string) {
  const answer = await call(getEmail, `/api/v1/emails/${id}`, { params: { id }, headers: auth(user) });
  expect(answer.status).toBe(200);
  return answer.body.email ?? answer.body;
}

/** The data of an email.* event for the email GET /emails/{id} describes, with its status after the event. */
function dataOf(email: Record<string, unknown>, status: string, extra: object = {}) {
  const { id, from, to, cc, bcc, subject, template_id, template_version, tags, test, scheduled_at, locale } = email;
  return {
    email_id: id,
    from,
    to,
    cc,
    bcc,
    subject,
    template_id,
    template_version,
    tags,
    status,
    test,
    ...(scheduled_at === null ? {} : { scheduled_at }),
    ...(locale === undefined ? {} : { locale }),
    ...extra,
  };
}

// Their state is the runner's (a send's after() may have attempted them already): tests/webhooks/delivery.test.ts.
const deliveriesOf = (eventId: string) =>
  getDb()<{ endpoint_id: string; max_attempts: number; due: boolean }[]>`
    select endpoint_id, max_attempts, created_at <= now() as due from webhook_deliveries
    where event_id = ${eventId} order by created_at, id`;

describe("email events", () => {
  it("each event of an email is an email.<type> event, in order, its data the email as GET /emails/{id} describes it", async () => {
    const user = await sender();
    const endpoint = await addEndpoint(user.accountId, { events: EMAIL_TYPES });
    const id = await sentEmailId(user, { tags: [{ name: "order", value: "42" }] });
    await applyEmailEvent(id, "clicked", { detail: { link: "https://acme.example/track" } });
    const email = await emailResource(user, id);
    expect(email.status).toBe("delivered");

    const events = await webhookEvents(user.accountId);
    expect(events.map(({ type, email_id, payload }) => ({ type, email_id, payload }))).toEqual([
      {
        type: "email.sent",
        email_id: id,
        payload: { type: "email.sent", created_at: ISO, data: dataOf(email, "sent") },
      },
      {
        type: "email.delivered",
        email_id: id,
        payload: { type: "email.delivered", created_at: ISO, data: dataOf(email, "delivered") },
      },
      {
        type: "email.clicked",
        email_id: id,
        payload: {
          type: "email.clicked",
          created_at: ISO,
          data: dataOf(email, "delivered", { click: { link: "https://acme.example/track" } }),
        },
      },
    ]);
    expect(email.tags).toEqual([{ name: "order", value: "42" }]);
    // The payload's time is the email event's.
    const times = await getDb()<
      { at: Date }[]
    >`select occurred_at as at from email_events where email_id = ${id} order by id`;
    expect(events.map((event) => event.payload.created_at)).toEqual(times.map(({ at }) => at.toISOString()));
    for (const event of events)
      expect(await deliveriesOf(event.id)).toEqual([{ endpoint_id: endpoint.id, max_attempts: 8, due: true }]);
  });

  it("a bounce carries its type and message; a scheduled email's events carry scheduled_at, and its cancel is email.canceled", async () => {
    const user = await sender();
    await addEndpoint(user.accountId, { events: EMAIL_TYPES });
    const bounced = await sentEmailId(user, { to: "nobody@bounce.test" });
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await sentEmailId(user, { scheduled_at: scheduledAt });
    const canceled = await call(cancelEmail, `/api/v1/emails/${scheduled}/cancel`, {
      method: "POST",
      params: { id: scheduled },
      headers: auth(user),
    });
    expect(canceled.status).toBe(200);

    const bouncedEmail = await emailResource(user, bounced);
    const scheduledEmail = await emailResource(user, scheduled);
    expect(scheduledEmail.scheduled_at).toBe(scheduledAt);
    expect((await webhookEvents(user.accountId)).map(({ payload }) => payload.data)).toEqual([
      dataOf(bouncedEmail, "sent"),
      dataOf(bouncedEmail, "bounced", {
        bounce: {
          type: "hard",
          message: "nobody@bounce.test does not exist (a hard bounce: addresses @bounce.test always bounce)",
        },
      }),
      dataOf(scheduledEmail, "scheduled"),
      dataOf(scheduledEmail, "canceled"),
    ]);
  });

  it("opens, complaints, delays and failures are events too, each with the status it left the email in", async () => {
    const user = await sender();
    await addEndpoint(user.accountId, {
      events: ["email.opened", "email.complained", "email.delivery_delayed", "email.failed"],
    });
    const delivered = await sentEmailId(user);
    await applyEmailEvent(delivered, "opened");
    await applyEmailEvent(delivered, "complained", { detail: { recipients: ["ann@example.com"] } });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    // (The complaint suppressed ann@example.com.)
    const delayed = await sentEmailId(user, { to: "bob@example.com", scheduled_at: later });
    await applyEmailEvent(delayed, "delivery_delayed");
    const failed = await sentEmailId(user, { to: "cy@example.com", scheduled_at: later });
    await applyEmailEvent(failed, "failed", { detail: { message: "refused" } });

    const events = await webhookEvents(user.accountId);
    expect(events.map(({ type, email_id, payload }) => [type, email_id, payload.data.status])).toEqual([
      ["email.opened", delivered, "delivered"],
      ["email.complained", delivered, "complained"],
      ["email.delivery_delayed", delayed, "delivery_delayed"],
      ["email.failed", failed, "failed"],
    ]);
    expect(events[1].payload.data).toEqual(dataOf(await emailResource(user, delivered), "complained"));
  });

  it("reaches only the account's enabled endpoints that hear the type; with none, no event is made", async () => {
    const user = await sender();
    const other = await sender();
    await addEndpoint(other.accountId, { events: EMAIL_TYPES });
    const silent = await sentEmailId(user);
    expect(await webhookEvents(user.accountId)).toEqual([]);

    const deliveredOnly = await addEndpoint(user.accountId, { events: ["email.delivered"] });
    await addEndpoint(user.accountId, { events: EMAIL_TYPES, enabled: false });
    const both = await addEndpoint(user.accountId, { events: ["email.sent", "email.delivered"] });
    const id = await sentEmailId(user);
    const events = await webhookEvents(user.accountId);
    expect(events.map(({ type, email_id }) => ({ type, email_id }))).toEqual([
      { type: "email.sent", email_id: id },
      { type: "email.delivered", email_id: id },
    ]);
    expect((await deliveriesOf(events[0].id)).map((d) => d.endpoint_id)).toEqual([both.id]);
    expect((await deliveriesOf(events[1].id)).map((d) => d.endpoint_id).sort()).toEqual(
      [deliveredOnly.id, both.id].sort(),
    );
    expect(await webhookEvents(other.accountId)).toEqual([]);
    expect(events.some((event) => event.email_id === silent)).toBe(false);
  });

  it("makes none when the transaction that made the email's event rolls back", async () => {
    const user = await sender();
    await addEndpoint(user.accountId, { events: EMAIL_TYPES });
    const id = await sentEmailId(user);
    const before = await webhookEvents(user.accountId);
    await expect(
      getDb().begin(async (tx) => {
        await tx`select * from apply_email_event(${id}::uuid, 'complained', null, null, null)`;
        expect(await tx`select 1 from webhook_events where account_id = ${user.accountId}`).toHaveLength(
          before.length + 1,
        );
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await webhookEvents(user.accountId)).toEqual(before);
    expect(await getDb()`select 1 from webhook_deliveries where account_id = ${user.accountId}`).toHaveLength(
      before.length,
    );
  });
});

describe("template.published", () => {
  const SOURCE = (n: number) => `export default function E() { return <p>Version ${n}</p>; }\n`;

  it("each version published is an event: template_id, alias, version and who published it", async () => {
    const user = await sender();
    await addEndpoint(user.accountId, { events: ["template.published"] });
    const created = await call(postTemplate, "/api/v1/templates", {
      method: "POST",
      headers: auth(user),
      body: { name: "Receipt", alias: "receipt", files: { "email.tsx": SOURCE(1) } },
    });
    expect(created.status).toBe(201);
    const templateId = created.body.template.id;
    const saved = await call(putTemplate, "/x", {
      method: "PUT",
      params: { id: templateId },
      headers: auth(user),
      body: { name: "Receipt", files: { "email.tsx": SOURCE(2) }, publish: false },
    });
    expect(saved.status).toBe(200);
    // A draft is not a publish.
    expect(await webhookEvents(user.accountId)).toHaveLength(1);
    const published = await call(postPublish, "/x", {
      method: "POST",
      params: { id: templateId },
      headers: auth(user),
      body: {},
    });
    expect(published.status).toBe(200);

    const publishedBy = { via: "api_key", api_key_id: user.keyId };
    expect(
      (await webhookEvents(user.accountId)).map(({ type, email_id, payload }) => ({ type, email_id, payload })),
    ).toEqual(
      [1, 2].map((version) => ({
        type: "template.published",
        email_id: null,
        payload: {
          type: "template.published",
          created_at: ISO,
          data: { template_id: templateId, alias: "receipt", version, published_by: publishedBy },
        },
      })),
    );
  });
});
