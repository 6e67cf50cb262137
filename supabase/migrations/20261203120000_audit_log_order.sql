-- An entry's place in the log among entries of the same instant. created_at is now(), the transaction's start, so
-- the entries of one transaction share it, and so can two requests within one tick of the clock (a millisecond on the
-- embedded database); a random uuid then listed them in any order. seq is assigned as each entry is inserted, so the
-- log reads (created_at, seq): newest first, and the order they were written among equals.
alter table public.audit_log add column seq bigint generated always as identity;

drop index public.audit_log_account_idx;
drop index public.audit_log_account_action_idx;
drop index public.audit_log_account_actor_idx;
create index audit_log_account_idx on public.audit_log (account_id, created_at desc, seq desc);
create index audit_log_account_action_idx on public.audit_log (account_id, action, created_at desc, seq desc);
create index audit_log_account_actor_idx on public.audit_log (account_id, actor_id, created_at desc, seq desc);
