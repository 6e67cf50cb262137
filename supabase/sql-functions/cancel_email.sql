-- POST /emails/{id}/cancel: a scheduled email of the account becomes canceled and stops counting. A live email gives
-- the month's count back (its period's counter and its day's), and its overage ledger entry is voided (or, when it was
-- within the plan, the newest unreported overage entry of the period is); a test email gives its test send back to
-- the UTC day it was recorded on. The row is locked, so a cancel racing the dispatcher or another cancel acts once.
-- canceled: whether this call canceled it; status: the email's status after the call (null when the account has no
-- such email).
create or replace function public.cancel_email(p_account_id uuid, p_email_id uuid)
returns table (canceled boolean, status text)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_status text;
  v_period timestamptz;
  v_created timestamptz;
  v_overage boolean;
  v_test boolean;
  v_moved uuid;
begin
  select e.delivery_status, e.usage_period_start, e.created_at, e.is_overage, e.test
    into v_status, v_period, v_created, v_overage, v_test
    from public.sent_emails e where e.id = p_email_id and e.account_id = p_account_id for update;
  if not found then
    return query select false, null::text;
    return;
  end if;
  if v_status <> 'scheduled' then
    return query select false, v_status;
    return;
  end if;
  update public.sent_emails e set status = 'canceled', usage_period_start = null, is_overage = false
    where e.id = p_email_id;
  if v_test then
    update public.usage_daily d set count = d.count - 1
      where d.account_id = p_account_id and d.metric = 'test_emails' and d.day = (v_created at time zone 'utc')::date
        and d.count > 0;
  end if;
  if v_period is not null then
    update public.usage_counters c set count = c.count - 1
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = v_period and c.count > 0;
    update public.usage_daily d set count = d.count - 1
      where d.account_id = p_account_id and d.metric = 'emails' and d.day = (v_created at time zone 'utc')::date
        and d.count > 0;
    if v_overage then
      update public.email_overage_ledger l set voided_at = now() where l.email_id = p_email_id and l.voided_at is null;
    else
      -- One email fewer within the plan: the period's newest overage email not reported yet is within it now.
      update public.email_overage_ledger l set voided_at = now()
        where l.id = (select l2.id from public.email_overage_ledger l2
                      where l2.account_id = p_account_id and l2.period_start = v_period and l2.voided_at is null
                        and l2.reported_at is null and (l2.report_claimed_until is null or l2.report_claimed_until <= now())
                      order by l2.created_at desc, l2.id desc limit 1)
        returning l.email_id into v_moved;
      if v_moved is not null then
        update public.sent_emails e set is_overage = false where e.id = v_moved;
      end if;
    end if;
  end if;
  perform public.apply_email_event(p_email_id, 'canceled');
  return query select true, 'canceled'::text;
end;
$$;
