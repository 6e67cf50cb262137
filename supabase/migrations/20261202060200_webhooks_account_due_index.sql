-- Claims go account by account (claim_webhook_deliveries): each account's due deliveries in time order, and the
-- accounts with pending ones found by skipping from one account to the next, so a claim costs a few index lookups per
-- account however long one account's backlog grows (an endpoint that hangs every attempt).
create index webhook_deliveries_account_due_idx on public.webhook_deliveries (account_id, next_attempt_at)
  where status = 'pending';
