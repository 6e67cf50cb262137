-- The provider refused or timed out: the message is kept as failed and its count is given back (monthly and daily
-- counters, and its overage charge). Only a pending message can fail, so giving back happens at most once. The status
-- change is an event (sent_emails_handoff_event).
create or replace function public.fail_counted_email(p_email_id uuid, p_error text)
returns boolean
language plpgsql
as $$
declare
  v_account uuid;
  v_period timestamptz;
  v_created timestamptz;
begin
  select e.account_id, e.usage_period_start, e.created_at into v_account, v_period, v_created
    from public.sent_emails e where e.id = p_email_id and e.status = 'pending' for update;
  if not found then
    return false;
  end if;
  update public.sent_emails
    set status = 'failed', error = p_error, usage_period_start = null, is_overage = false
    where id = p_email_id;
  if v_period is not null then
    update public.usage_counters set count = count - 1
      where account_id = v_account and metric = 'emails' and period_start = v_period and count > 0;
    update public.usage_daily set count = count - 1
      where account_id = v_account and metric = 'emails' and day = (v_created at time zone 'utc')::date and count > 0;
    delete from public.email_overage_ledger where email_id = p_email_id;
  end if;
  return true;
end;
$$;
