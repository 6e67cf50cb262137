import { randomUUID } from "node:crypto";
import { createAccount } from "@/lib/auth/data/accounts";
import { createApiKey } from "@/lib/api-keys/data";
import { getDb } from "@/lib/db/client";

/** Emails of the metrics scenarios' account, over the 30 days before today (issue 51: a million). */
export const METRICS_EMAILS = 1_000_000;

/**
 * The metrics scenarios' account: METRICS_EMAILS emails over the last 30 days, of 5 catalogue templates and 2 sending
 * domains, a quarter of them tagged, each sent, and delivered (97%) or bounced (2%) or failed (1%); of the delivered,
 * 40% opened, 10% clicked (two links for a tenth of those), 0.1% complained. Written in bulk with the counting trigger
 * off, then counted by rebuild_email_metrics (which a test holds to the trigger's counts): a trigger a row would take
 * minutes here. Its API key. (`log` is the report's: this file is the scenarios' too, which the report reads.)
 */
export async function createMetricsAccount(log: (line: string) => void): Promise<string> {
  const started = Date.now();
  const account = await createAccount({ email: `bench-metrics-${randomUUID()}@example.com`, plan: "monthly" });
  const db = getDb();
  await db.begin(async (tx) => {
    // A million rows take longer than the pool's 10 s a statement.
    await tx`set local statement_timeout = 0`;
    await tx`alter table email_events disable trigger email_events_count_metrics`;
    await tx`
      insert into sent_emails (account_id, template_id, status, provider, from_address, to_addresses, subject, html,
                               tags, created_at, delivery_status)
      select ${account.id}, t.ids[1 + i % 5], 'sent', 'outbox',
             case when i % 3 = 0 then 'news@mail.bench.example' else 'hello@bench.example' end,
             array['reader' || i || '@example.com'], 'Hello', '<p>Hello</p>',
             case when i % 4 = 0 then '[{"name":"campaign","value":"winter"}]'::jsonb else '[]'::jsonb end,
             date_trunc('day', now()) - (i % 30) * interval '1 day' + (i % 86400) * interval '1 second',
             case when i % 100 < 97 then 'delivered' when i % 100 < 99 then 'bounced' else 'failed' end
      from generate_series(1, ${METRICS_EMAILS}) i,
           (select array_agg(id order by slug) as ids from templates
            where owner_account_id is null and slug in ('welcome', 'receipt', 'newsletter', 'verify-email', 'team-invite')) t`;
    await tx`
      insert into email_events (email_id, account_id, type, occurred_at, detail)
      select e.id, e.account_id, v.type, e.created_at + v.after, v.detail
      from (select e.*, row_number() over () as n from sent_emails e where e.account_id = ${account.id}) e
        cross join lateral (values
          ('sent', interval '0', null::jsonb, e.delivery_status <> 'failed'),
          ('failed', interval '1 second', '{"message":"refused"}'::jsonb, e.delivery_status = 'failed'),
          ('delivered', interval '2 seconds', null, e.delivery_status = 'delivered'),
          ('bounced', interval '2 seconds', '{"type":"hard"}'::jsonb, e.delivery_status = 'bounced'),
          ('opened', interval '1 hour', null, e.delivery_status = 'delivered' and e.n % 10 < 4),
          ('clicked', interval '2 hours', '{"link":"https://bench.example/a"}'::jsonb,
           e.delivery_status = 'delivered' and e.n % 10 = 0),
          ('clicked', interval '3 hours', '{"link":"https://bench.example/b"}'::jsonb,
           e.delivery_status = 'delivered' and e.n % 100 = 0),
          ('complained', interval '4 hours', null, e.delivery_status = 'delivered' and e.n % 1000 = 1)
        ) v (type, after, detail, happened)
      where v.happened`;
    await tx`alter table email_events enable trigger email_events_count_metrics`;
    await tx`select rebuild_email_metrics(${account.id}::uuid)`;
  });
  await db`analyze email_metrics_daily`;
  await db`analyze email_tag_metrics_daily`;
  log(
    `  Metrics account: ${METRICS_EMAILS.toLocaleString("en-US")} emails and their events in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return (await createApiKey(account.id, { name: "bench metrics" })).key;
}
