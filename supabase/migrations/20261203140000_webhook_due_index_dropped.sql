-- Every read of due deliveries names its account (claims go account by account; a test event counts its account's),
-- so the index of every account's due deliveries by time served none, but the planner took it for a claim's generic
-- plan and sorted what it read (11 ms a claim under the send_webhooks bench, against 0.4 ms in the account's index,
-- whose order is the claim's). One index less to write with each delivery, too.
drop index public.webhook_deliveries_due_idx;
