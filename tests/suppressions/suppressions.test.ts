import { describe, expect, it } from "vitest";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { POST as send } from "@/app/api/v1/send/route";
import { DELETE as deleteSuppression } from "@/app/api/v1/suppressions/[email]/route";
import { GET as listSuppressions } from "@/app/api/v1/suppressions/route";
import { getDb } from "@/lib/db/client";
import { applyEmailEvent } from "@/lib/sent-emails/data/events";
import { ISO, auth, call, counter, sender, type Sender, type TestUser } from "../support/api";

const today = () => new Date().toISOString().slice(0, 10);

const post = (user: Sender, extra: Record<string, unknown>) =>
  call(send, "/api/v1/send", {
    method: "POST",
    headers: auth(user),
    body: { template_id: user.welcomeId, to: "ann@example.com", subject: "Welcome aboard", ...extra },
  });

const list = (user: TestUser, query = "") =>
  call(listSuppressions, `/api/v1/suppressions${query}`, { headers: auth(user) });

const remove = (user: TestUser, email: string) =>
  call(deleteSuppression, `/api/v1/suppressions/${encodeURIComponent(email)}`, {
    method: "DELETE",
    params: { email },
    headers: auth(user),
  });

async function emailCount(user: TestUser): Promise<number> {
  const [row] = await getDb()<{ count: number }[]>`
    select count(*)::int as count from sent_emails where account_id = ${user.accountId}`;
  return row.count;
}

const bouncedMessage = (address: string, stored: string) =>
  `${address} is suppressed (DELETE /api/v1/suppressions/${encodeURIComponent(stored)} lets you send to it again): an email to it bounced on ${today()}`;
const complainedMessage = (address: string, stored: string) =>
  `${address} is suppressed (DELETE /api/v1/suppressions/${encodeURIComponent(stored)} lets you send to it again): its owner marked an email as spam on ${today()}`;

describe("suppression", () => {
  it("a hard bounce suppresses the address: the next send naming it, in any case, is 422 and sends and counts nothing", async () => {
    const user = await sender();
    expect((await post(user, { to: "gone@bounce.test" })).status).toBe(200);
    const [emails, used] = [await emailCount(user), await counter(user, "emails")];

    const refused = await post(user, { to: "Gone@Bounce.TEST" });
    expect([refused.status, refused.body]).toEqual([
      422,
      {
        error: "Recipient suppressed",
        code: "RECIPIENT_SUPPRESSED",
        success: false,
        details: [{ field: "to.0", message: bouncedMessage("Gone@Bounce.TEST", "gone@bounce.test") }],
      },
    ]);
    expect([await emailCount(user), await counter(user, "emails")]).toEqual([emails, used]);
  });

  it("a complaint suppresses; every suppressed address of to, cc and bcc gets its own entry", async () => {
    const user = await sender();
    expect((await post(user, { to: "spam@complaint.test" })).status).toBe(200);
    expect((await post(user, { to: "gone@bounce.test" })).status).toBe(200);

    const refused = await post(user, {
      to: ["ann@example.com", "spam@complaint.test"],
      cc: ["bob@example.com"],
      bcc: ["gone@bounce.test", "SPAM@complaint.test"],
    });
    expect([refused.status, refused.body]).toEqual([
      422,
      {
        error: "Recipient suppressed",
        code: "RECIPIENT_SUPPRESSED",
        success: false,
        details: [
          { field: "to.1", message: complainedMessage("spam@complaint.test", "spam@complaint.test") },
          { field: "bcc.0", message: bouncedMessage("gone@bounce.test", "gone@bounce.test") },
          { field: "bcc.1", message: complainedMessage("SPAM@complaint.test", "spam@complaint.test") },
        ],
      },
    ]);
  });

  it("is per account: another account still sends to the address", async () => {
    const first = await sender();
    const second = await sender();
    expect((await post(first, { to: "gone@bounce.test" })).status).toBe(200);
    expect((await post(first, { to: "gone@bounce.test" })).status).toBe(422);
    expect((await post(second, { to: "gone@bounce.test" })).status).toBe(200);
    expect((await list(second)).body.suppressions).toEqual([
      { email: "gone@bounce.test", reason: "bounced", created_at: ISO },
    ]);
  });

  it("a provider's hard bounce suppresses the email's only recipient; a soft one, or one of several unnamed, nothing", async () => {
    const user = await sender();
    const emailOf = async (extra: Record<string, unknown>) => {
      const sent = await post(user, extra);
      expect(sent.status).toBe(200);
      return sent.body.data.id as string;
    };
    const listed = async () => (await list(user)).body.suppressions.map((s: { email: string }) => s.email).sort();

    const single = await emailOf({ to: "Ann@Example.com" });
    expect(
      await applyEmailEvent(single, "bounced", { detail: { bounce_type: "soft", message: "mailbox full" } }),
    ).toEqual({ applied: true, status: "bounced" });
    expect(await listed()).toEqual([]);

    // Resend lists the email's whole `to` as its recipients: with several, which one bounced is not known.
    const several = await emailOf({ to: ["bob@example.com"], cc: ["cid@example.com"] });
    await applyEmailEvent(several, "bounced", {
      detail: { bounce_type: "hard", recipients: ["bob@example.com"] },
    });
    expect(await listed()).toEqual([]);

    await applyEmailEvent(single, "bounced", { detail: { bounce_type: "hard", recipients: ["Ann@Example.com"] } });
    await applyEmailEvent(several, "complained", { detail: { recipient: "Cid@example.com" } });
    expect(await listed()).toEqual(["ann@example.com", "cid@example.com"]);
  });

  it("GET /suppressions lists them newest first, paginated", async () => {
    const user = await sender();
    for (const address of ["a@bounce.test", "b@complaint.test", "c@bounce.test"]) {
      expect((await post(user, { to: address })).status).toBe(200);
    }
    // Distinct times, oldest first, so the order does not rest on a clock tick.
    await getDb()`
      update email_suppressions set created_at = now() - (case email when 'a@bounce.test' then 3 when 'b@complaint.test' then 2 else 1 end) * interval '1 minute'
      where account_id = ${user.accountId}`;

    const all = await list(user);
    expect([all.status, all.body]).toEqual([
      200,
      {
        success: true,
        suppressions: [
          { email: "c@bounce.test", reason: "bounced", created_at: ISO },
          { email: "b@complaint.test", reason: "complained", created_at: ISO },
          { email: "a@bounce.test", reason: "bounced", created_at: ISO },
        ],
        pagination: { limit: 50, offset: 0, total: 3 },
      },
    ]);
    const page = await list(user, "?limit=1&offset=1");
    expect(page.body).toEqual({
      success: true,
      suppressions: [{ email: "b@complaint.test", reason: "complained", created_at: ISO }],
      pagination: { limit: 1, offset: 1, total: 3 },
    });
    const bad = await list(user, "?limit=0&status=x");
    expect([bad.status, bad.body.code]).toEqual([400, "VALIDATION_ERROR"]);
  });

  it("DELETE /suppressions/{email} removes one (any case), and the address can be sent to again; absent: 404", async () => {
    const user = await sender();
    expect((await post(user, { to: "gone@bounce.test" })).status).toBe(200);

    const removed = await remove(user, "GONE@bounce.test");
    expect([removed.status, removed.body]).toEqual([
      200,
      { success: true, suppression: { email: "gone@bounce.test", reason: "bounced", created_at: ISO } },
    ]);
    expect((await list(user)).body.suppressions).toEqual([]);
    const again = await post(user, { to: "gone@bounce.test" });
    expect(again.status).toBe(200);
    const email = await call(getEmail, `/api/v1/emails/${again.body.data.id}`, {
      params: { id: again.body.data.id },
      headers: auth(user),
    });
    expect(email.body.email.status).toBe("bounced");

    const notFound = { error: "Suppression not found", code: "SUPPRESSION_NOT_FOUND", success: false };
    const other = await sender();
    for (const [who, address] of [
      [other, "gone@bounce.test"],
      [user, "nobody@example.com"],
      [user, "x".repeat(400)],
    ] as const) {
      const result = await remove(who, address);
      expect([result.status, result.body]).toEqual([404, notFound]);
    }
  });
});
