-- A one-click unsubscribe (POST /u/<token>): suppresses p_address for p_account_id's sends of p_group ('' the unnamed
-- list of `"unsubscribe": true`), and, the first time, emits email.unsubscribed for the latest email that carried
-- p_list_unsubscribe (its List-Unsubscribe header: the same address and group give the same link). applied: the address
-- was not unsubscribed from that group yet. Nothing for an account that is gone.
create or replace function public.unsubscribe_recipient(
  p_account_id uuid,
  p_address text,
  p_group text,
  p_list_unsubscribe text
) returns boolean
language plpgsql
as $$
declare
  v_email uuid;
  v_status text;
begin
  if not exists (select 1 from public.accounts a where a.id = p_account_id) then
    return false;
  end if;
  select e.id, e.delivery_status into v_email, v_status
    from public.sent_emails e
    where e.account_id = p_account_id and e.headers ? 'List-Unsubscribe'
      and (e.headers ->> 'List-Unsubscribe') = p_list_unsubscribe
    order by e.created_at desc
    limit 1;
  insert into public.email_suppressions (account_id, email, reason, email_id, unsubscribe_group)
    values (p_account_id, lower(p_address), 'unsubscribed', v_email, p_group)
    on conflict (account_id, email, unsubscribe_group) do nothing;
  if not found then
    return false;
  end if;
  if v_email is not null then
    perform public.enqueue_email_webhook_event(v_email, 'unsubscribed',
                                               jsonb_strip_nulls(jsonb_build_object('group', nullif(p_group, ''))),
                                               v_status, now());
  end if;
  return true;
end;
$$;
