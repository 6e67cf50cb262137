-- The trigger sending_domains_refuse_overlap: a domain and its parent and sub-domains belong to one account. While one
-- account holds mail.example.com, another is refused example.com and news.mail.example.com (an account may add the
-- parent and sub-domains of its own domains, and add again a domain it holds: a refresh is an upsert). Checked at the
-- insert, so that two instances adding example.com and mail.example.com at once cannot both succeed; lib/db/domains.ts
-- turns the refusal into a clear message.
create or replace function public.sending_domains_refuse_overlap()
returns trigger
language plpgsql
as $$
begin
  -- Held until commit: a concurrent insert in the same zone waits here, and its check below (a statement of its own,
  -- so a fresh snapshot) then sees this row.
  perform pg_advisory_xact_lock(hashtext('sending_domains'), hashtext(public.sending_domain_zone(new.domain)));
  if not exists (select 1 from public.sending_domains
                 where account_id = new.account_id and lower(domain) = lower(new.domain))
     and public.sending_domain_overlaps(new.account_id, new.domain) then
    raise exception '% is a parent or sub-domain of another account''s sending domain', new.domain
      using errcode = 'exclusion_violation', constraint = 'sending_domains_overlap';
  end if;
  return new;
end $$;
