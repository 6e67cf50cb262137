-- An account's claim takes its due deliveries in (next_attempt_at, created_at, id) order, a few at a time. The index
-- had next_attempt_at alone, so with a backlog (a burst of sends: each makes its events' deliveries to every endpoint
-- at one instant) PostgreSQL read and sorted every due delivery of the account to take four: 12 ms a claim with 9,800
-- due, measured under the send_webhooks bench (docs/performance.md). In the claim's order, it reads only those it takes.
drop index public.webhook_deliveries_account_due_idx;
create index webhook_deliveries_account_due_idx on public.webhook_deliveries (account_id, next_attempt_at, created_at, id)
  where status = 'pending';

-- claim_webhook_deliveries takes an account (a request claims its own account's deliveries alone): its definition,
-- with the new parameter, is in the migration after this one; the four-parameter one it replaces goes here.
drop function public.claim_webhook_deliveries(timestamptz, integer, integer, integer);
