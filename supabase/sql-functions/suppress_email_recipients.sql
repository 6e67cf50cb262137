-- Suppresses the recipient of a hard bounce or a complaint: the one the event names (detail.recipient), else the
-- email's only recipient. A provider reporting an email with several recipients bounced does not say which one did
-- (Resend's event lists the whole `to`), so none is suppressed: only an address known to have bounced is. A soft
-- bounce (detail.bounce_type other than 'hard') suppresses nothing. An address suppressed already keeps its first
-- entry (the date users are told); its unsubscribes from groups (unsubscribe_recipient) are entries of their own.
create or replace function public.suppress_email_recipients(
  p_account_id uuid,
  p_email_id uuid,
  p_type text,
  p_detail jsonb,
  p_recipients text[]
) returns void
language sql
as $$
  insert into public.email_suppressions (account_id, email, reason, email_id)
    select p_account_id, lower(r), p_type, p_email_id
    from (select case
            when jsonb_typeof(p_detail -> 'recipient') = 'string' then p_detail ->> 'recipient'
            when cardinality(p_recipients) = 1 then p_recipients[1]
          end as r) x
    where (p_type = 'complained' or (p_type = 'bounced' and coalesce(p_detail ->> 'bounce_type', 'hard') = 'hard'))
      and length(r) between 3 and 320
    on conflict (account_id, email, unsubscribe_group) do nothing;
$$;
