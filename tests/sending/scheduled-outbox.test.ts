import { describe, expect, it, vi } from "vitest";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { GET as listEmails } from "@/app/api/v1/emails/route";
import { getDb } from "@/lib/db/client";
import { listOutbox } from "@/lib/sent-emails/data/outbox";
import { countEmailsByStatus } from "@/lib/sent-emails/data/resources";
import { findEmailWithMessage } from "@/lib/sent-emails/service";
import { deliverScheduledOutboxEmails, OUTBOX_SCHEDULE_INTERVAL_MS } from "@/lib/mail-transport/outbox";
import { auth, call, sender, type TestUser } from "../support/api";
import { sentEmailId } from "../support/send";

// Runs alone (vitest.config.ts SERIAL): any other file's send dispatches every due email, this one's included.

const get = (user: TestUser, id: string) =>
  call(getEmail, `/api/v1/emails/${id}`, { params: { id }, headers: auth(user) });

const list = (user: TestUser) => call(listEmails, "/api/v1/emails", { headers: auth(user) });

describe("a due scheduled email in the embedded outbox", () => {
  it("reads leave a due email scheduled; the outbox's schedule (npm run dev, npm start) sends it on time, unread", async () => {
    const user = await sender();
    const due = await sentEmailId(user, { scheduled_at: new Date(Date.now() + 3600_000).toISOString() });
    await getDb()`update sent_emails set scheduled_at = now() - interval '1 second' where id = ${due}`;
    expect((await get(user, due)).body.email.status).toBe("scheduled");
    expect((await list(user)).body.emails.map((email: { status: string }) => email.status)).toEqual(["scheduled"]);
    expect((await countEmailsByStatus(user.accountId)).scheduled).toBe(1);
    expect((await findEmailWithMessage(user.accountId, due))?.status).toBe("scheduled");
    expect((await listOutbox(user.accountId)).map((message) => [message.status, message.sent_at])).toEqual([
      ["scheduled", null],
    ]);

    const sentAt = async (id: string) =>
      (await getDb()<{ sent_at: Date | null }[]>`select sent_at from sent_emails where id = ${id}`)[0].sent_at;
    // What npm run dev and npm start run (bin/serve.ts). The email already due goes at once; one scheduled a
    // second ahead goes when its time comes. Nothing reads them meanwhile.
    const stop = deliverScheduledOutboxEmails();
    try {
      const at = new Date(Date.now() + 1000);
      const soon = await sentEmailId(user, { scheduled_at: at.toISOString() });
      await vi.waitFor(async () => expect(await sentAt(soon)).toBeInstanceOf(Date), { timeout: 10_000, interval: 50 });
      const late = (await sentAt(soon))!.getTime() - at.getTime();
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(OUTBOX_SCHEDULE_INTERVAL_MS + 2000);
      expect(await sentAt(due)).toBeInstanceOf(Date);
    } finally {
      await stop();
    }
    expect((await list(user)).body.emails.map((email: { status: string }) => email.status)).toEqual([
      "delivered",
      "delivered",
    ]);
  });
});
