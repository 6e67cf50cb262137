import { describe, expect, it } from "vitest";
import { POST as send } from "@/app/api/v1/send/route";
import { createApiKey } from "@/lib/api-keys/data";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { applyEmailEvent } from "@/lib/sent-emails/data/events";
import { listOutbox } from "@/lib/sent-emails/data/outbox";
import { countEmailsByStatus, findEmailWithEvents } from "@/lib/sent-emails/data/resources";
import { dispatchDueScheduledEmails } from "@/lib/sent-emails/data/scheduled";
import { findEmailWithMessage, getEmailOrThrow } from "@/lib/sent-emails/service";
import { billingPeriod } from "@/lib/core/plans";
import { DELIVERY_STATUSES, type DeliveryStatus } from "@/lib/sent-emails/schemas";
import { addToLibrary, call, catalogueId, createUser, type TestUser, uniqueDomain } from "../support/api";
import { sentEmailId } from "../support/send";

// What the dashboard reads of emails besides the API's answers: the count of each status (the Emails page's filter,
// the overview's month) and an email with its message as recorded (the email page's preview).

type Sender = TestUser & { welcomeId: string; domain: string };

/** A user who can send through the embedded outbox: a verified domain of its own and `welcome` in the library. */
async function sender(): Promise<Sender> {
  const user = await createUser("monthly");
  const domain = uniqueDomain();
  await addSendingDomain(user.accountId, { domain, verified: true });
  await addToLibrary(user, "welcome");
  return { ...user, welcomeId: await catalogueId("welcome"), domain };
}

/** Every status at zero, but those given. */
function counted(counts: Partial<Record<DeliveryStatus, number>>): Record<DeliveryStatus, number> {
  return { ...Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, 0])), ...counts } as Record<
    DeliveryStatus,
    number
  >;
}

/** An email handed to Resend and not answered yet: queued, with no events. Its own id is its API id. */
async function pendingEmail(user: Sender): Promise<string> {
  const [row] = await getDb()<{ id: string }[]>`
    insert into sent_emails (account_id, template_id, status, provider, from_address, to_addresses, subject, html)
    values (${user.accountId}, ${user.welcomeId}, 'pending', 'resend', ${`hello@${user.domain}`},
            ${["ann@example.com"]}, 'Hi', '<p>Hi</p>')
    returning id`;
  return row.id;
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe("countEmailsByStatus", () => {
  it("counts the account's emails in each of the nine statuses, every status present", async () => {
    const user = await sender();
    const other = await sender();
    await sentEmailId(other, { to: "x@bounce.test" });
    expect(await countEmailsByStatus(user.accountId)).toEqual(counted({}));

    for (const to of ["a@example.com", "b@example.com", "c@bounce.test", "d@complaint.test"])
      await sentEmailId(user, { to });
    await sentEmailId(user, { scheduled_at: inAnHour() });
    await pendingEmail(user);
    const failed = await pendingEmail(user);
    await getDb()`select fail_counted_email(${failed}::uuid, ${"resend: refused"})`;
    const delayed = await pendingEmail(user);
    await applyEmailEvent(delayed, "delivery_delayed");
    expect(await countEmailsByStatus(user.accountId)).toEqual(
      counted({ delivered: 2, bounced: 1, complained: 1, scheduled: 1, queued: 1, failed: 1, delivery_delayed: 1 }),
    );
  });

  it("counts only the emails recorded since a date: the overview's month", async () => {
    const user = await sender();
    const lastMonth = new Date(billingPeriod().start.getTime() - 1000);
    const old = await sentEmailId(user, { to: "old@bounce.test" });
    await getDb()`update sent_emails set created_at = ${lastMonth} where id = ${old}`;
    await sentEmailId(user, { to: "new@bounce.test" });
    await sentEmailId(user, { to: "new@complaint.test" });
    await sentEmailId(user);

    expect(await countEmailsByStatus(user.accountId, { since: billingPeriod().start })).toEqual(
      counted({ bounced: 1, complained: 1, delivered: 1 }),
    );
    expect(await countEmailsByStatus(user.accountId)).toEqual(counted({ bounced: 2, complained: 1, delivered: 1 }));
  });

  it("counts test sends with the others, or apart: the overview says how many of the month's bounces were tests", async () => {
    const user = await sender();
    const testKey = (await createApiKey(user.accountId, { name: "CI", kind: "test" })).key;
    for (const to of ["a@bounce.test", "b@example.com"]) {
      const sent = await call(send, "/api/v1/send", {
        method: "POST",
        headers: { "x-api-key": testKey },
        body: { template_id: user.welcomeId, to, subject: "Rehearsal" },
      });
      expect(sent.status).toBe(200);
    }
    await sentEmailId(user, { to: "c@bounce.test" });
    await sentEmailId(user, { to: "d@complaint.test" });

    const since = billingPeriod().start;
    expect({
      all: await countEmailsByStatus(user.accountId, { since }),
      tests: await countEmailsByStatus(user.accountId, { since, test: true }),
      live: await countEmailsByStatus(user.accountId, { test: false }),
    }).toEqual({
      all: counted({ bounced: 2, complained: 1, delivered: 1 }),
      tests: counted({ bounced: 1, delivered: 1 }),
      live: counted({ bounced: 1, complained: 1 }),
    });
  });

  it("counts a due scheduled message as scheduled until the dispatcher sends it, then as what became of it", async () => {
    const user = await sender();
    const id = await sentEmailId(user, { to: "due@bounce.test", scheduled_at: inAnHour() });
    await getDb()`update sent_emails set scheduled_at = now() - interval '1 second' where id = ${id}`;
    expect(await countEmailsByStatus(user.accountId)).toEqual(counted({ scheduled: 1 }));
    expect(await dispatchDueScheduledEmails({ accountId: user.accountId })).toBe(1);
    expect(await countEmailsByStatus(user.accountId)).toEqual(counted({ bounced: 1 }));
  });
});

describe("findEmailWithMessage: the dashboard's email page", () => {
  it("is the email as GET /emails/{id} has it, and the message as recorded (attachments as metadata)", async () => {
    const user = await sender();
    const id = await sentEmailId(user, {
      to: "a@bounce.test",
      cc: "c@example.com",
      text: "Plain words.",
      tags: [{ name: "kind", value: "welcome" }],
      attachments: [
        { filename: "hello.txt", content: Buffer.from("hello world").toString("base64"), content_type: "text/plain" },
        { filename: "terms.pdf", path: "https://cdn.example.com/terms.pdf" },
      ],
    });
    const [row] = await getDb()<{ html: string }[]>`select html from sent_emails where id = ${id}`;

    expect(await findEmailWithMessage(user.accountId, id)).toEqual({
      ...(await getEmailOrThrow(user.accountId, id)),
      message: {
        provider: "outbox",
        html: row.html,
        text: "Plain words.",
        attachments: [
          { filename: "hello.txt", content_type: "text/plain", size: 11 },
          { filename: "terms.pdf", path: "https://cdn.example.com/terms.pdf" },
        ],
        is_overage: false,
        error: null,
      },
    });
    expect(row.html).toContain("Welcome");
  });

  it("says why a failed hand-off failed", async () => {
    const user = await sender();
    const id = await pendingEmail(user);
    const error = "resend: HTTP 422: Invalid `to` field.";
    await getDb()`select fail_counted_email(${id}::uuid, ${error})`;
    const email = await findEmailWithMessage(user.accountId, id);
    expect([email?.status, email?.message, email?.events.map((event) => [event.type, event.detail])]).toEqual([
      "failed",
      {
        provider: "resend",
        html: "<p>Hi</p>",
        text: null,
        attachments: [],
        is_overage: false,
        error,
      },
      [["failed", { message: error }]],
    ]);
  });

  it("finds nothing for another account's email or an id that is not one", async () => {
    const user = await sender();
    const other = await sender();
    const id = await sentEmailId(other);
    expect(await findEmailWithMessage(user.accountId, id)).toBeUndefined();
    expect(await findEmailWithMessage(user.accountId, "not-an-id")).toBeUndefined();
  });

  it("the API's reader leaves the message out", async () => {
    const user = await sender();
    const id = await sentEmailId(user);
    expect(Object.keys((await findEmailWithEvents(user.accountId, id))!)).not.toContain("message");
  });
});

describe("the CLI's outbox", () => {
  it("lists each message's hand-off state and what became of it", async () => {
    const user = await sender();
    await sentEmailId(user, { to: "a@bounce.test" });
    await sentEmailId(user, { to: "b@example.com" });
    const listed = await listOutbox(user.accountId);
    expect(listed.map((email) => [email.to, email.status, email.delivery_status])).toEqual([
      [["b@example.com"], "sent", "delivered"],
      [["a@bounce.test"], "sent", "bounced"],
    ]);
  });
});
