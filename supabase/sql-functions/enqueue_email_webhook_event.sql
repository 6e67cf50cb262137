-- An email's event (a row apply_email_event or record_email_first_events adds to email_events) as the webhook event
-- `email.<type>`, in the same transaction: its data is the email as GET /emails/{id} describes it (email_id is the id
-- POST /send answered with; times in ISO 8601; template_version a number, "draft" or null), `status` the email's status
-- after the event (p_status: the caller knows it, the row may not say it yet), `scheduled_at` and `locale` only when
-- it has one,
-- and what the event adds: a bounce's { type, message }, a click's { link }, an unsubscribe's { group }. The event id,
-- or null when no endpoint of the account hears the type (then no more than one index lookup is spent).
create or replace function public.enqueue_email_webhook_event(
  p_email_id uuid,
  p_type text,
  p_detail jsonb,
  p_status text,
  p_occurred_at timestamptz
) returns uuid
language plpgsql
as $$
declare
  v_account uuid;
  v_type text := 'email.' || p_type;
  v_data jsonb;
begin
  select e.account_id into v_account from public.sent_emails e where e.id = p_email_id;
  if v_account is null or not exists (select 1 from public.webhook_endpoints w
                                      where w.account_id = v_account and w.enabled and v_type = any (w.events)) then
    return null;
  end if;
  select jsonb_build_object(
           'email_id', coalesce(e.provider_message_id, e.id::text),
           'from', e.from_address,
           'to', to_jsonb(e.to_addresses),
           'cc', to_jsonb(e.cc_addresses),
           'bcc', to_jsonb(e.bcc_addresses),
           'subject', e.subject,
           'template_id', e.template_id,
           'template_version', case when e.template_version ~ '^[0-9]+$' then to_jsonb(e.template_version::integer)
                                    else to_jsonb(e.template_version) end,
           'tags', e.tags,
           'status', p_status,
           'test', e.test)
         || case when e.scheduled_at is null then '{}'::jsonb
                 else jsonb_build_object('scheduled_at',
                                         to_char(e.scheduled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            end
         || case when e.locale is null then '{}'::jsonb else jsonb_build_object('locale', e.locale) end
         || case p_type
              when 'bounced' then jsonb_build_object('bounce', jsonb_build_object(
                'type', p_detail ->> 'bounce_type', 'message', p_detail ->> 'message'))
              when 'clicked' then jsonb_build_object('click', jsonb_build_object('link', p_detail ->> 'link'))
              when 'unsubscribed' then jsonb_build_object('unsubscribe', jsonb_strip_nulls(jsonb_build_object(
                'group', p_detail ->> 'group')))
              else '{}'::jsonb
            end
    into v_data
    from public.sent_emails e where e.id = p_email_id;
  return public.enqueue_webhook_event(v_account, v_type, p_email_id, v_data, p_occurred_at);
end;
$$;
