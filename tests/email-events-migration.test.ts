import { describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { withDatabaseBefore } from "./support/migration-db";

// Emails recorded before the migration get the status the API names and the one event their hand-off made.
const MIGRATION = "20261124004000_email_events.sql";

describe(`migration ${MIGRATION}`, () => {
  it("gives every email recorded before it its status and its hand-off's event", { timeout: 60_000 }, async () => {
    await withDatabaseBefore(MIGRATION, async (db) => {
      const [{ id: account }] = await db<
        { id: string }[]
      >`insert into accounts (email) values ('a@x.example') returning id`;
      const email = async (name: string, status: string, extra: { sentAt?: string; error?: string } = {}) =>
        (
          await db<{ id: string }[]>`
            insert into sent_emails (account_id, status, provider, from_address, to_addresses, subject, html, sent_at,
                                     error, created_at)
            values (${account}, ${status}, 'outbox', 'hello@x.example', '{ann@x.example}', ${name}, '<p>Hi</p>',
                    ${extra.sentAt ?? null}, ${extra.error ?? null}, '2026-11-20T10:00:00Z')
            returning id`
        )[0].id;
      const pending = await email("pending", "pending");
      const sent = await email("sent", "sent", { sentAt: "2026-11-20T10:00:01Z" });
      const scheduled = await email("scheduled", "scheduled");
      const failed = await email("failed", "failed", { error: "resend: HTTP 422: bad" });

      expect((await migrate(db)).applied).toContain(MIGRATION);

      const rows = await db<{ id: string; delivery_status: string }[]>`
        select id, delivery_status from sent_emails order by subject`;
      expect(rows.map((row) => [row.id, row.delivery_status])).toEqual([
        [failed, "failed"],
        [pending, "queued"],
        [scheduled, "scheduled"],
        [sent, "sent"],
      ]);
      const events = await db<{ email_id: string; type: string; occurred_at: Date; detail: unknown }[]>`
        select email_id, type, occurred_at, detail from email_events order by type`;
      expect(events.map((e) => [e.email_id, e.type, e.occurred_at.toISOString(), e.detail])).toEqual([
        [failed, "failed", "2026-11-20T10:00:00.000Z", { message: "resend: HTTP 422: bad" }],
        [scheduled, "scheduled", "2026-11-20T10:00:00.000Z", null],
        [sent, "sent", "2026-11-20T10:00:01.000Z", null],
      ]);
    });
  });
});
