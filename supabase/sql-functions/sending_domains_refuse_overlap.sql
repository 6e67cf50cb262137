-- The trigger sending_domains_refuse_overlap: a domain and its parent and sub-domains belong to one account. Once one
-- account has verified mail.example.com, another is refused example.com and news.mail.example.com, to add or to verify
-- (an account may add the parent and sub-domains of its own domains, and add again a domain it holds: a refresh is an
-- upsert). Of overlapping claims nobody verified, the first verified wins. Checked at the insert and at verification,
-- so that two instances cannot both succeed; lib/sending-domains/data.ts turns the refusal into a clear message.
create or replace function public.sending_domains_refuse_overlap()
returns trigger
language plpgsql
as $$
begin
  -- An update that neither moves the row nor newly verifies it changes nobody's claim.
  if tg_op = 'UPDATE' and new.domain = old.domain and new.account_id = old.account_id
     and (old.verified or not new.verified) then
    return new;
  end if;
  -- Held until commit: a concurrent insert or verification in the same zone waits here, and its check below (a
  -- statement of its own, so a fresh snapshot) then sees this row.
  perform pg_advisory_xact_lock(hashtext('sending_domains'), hashtext(public.sending_domain_zone(new.domain)));
  -- An insert of a domain the account already holds is the first half of a refresh (an upsert): its update is checked.
  if (tg_op = 'UPDATE' or not exists (select 1 from public.sending_domains
                                      where account_id = new.account_id and lower(domain) = lower(new.domain)))
     and public.sending_domain_overlaps(new.account_id, new.domain) then
    raise exception '% is a parent or sub-domain of another account''s sending domain', new.domain
      using errcode = 'exclusion_violation', constraint = 'sending_domains_overlap';
  end if;
  return new;
end $$;
