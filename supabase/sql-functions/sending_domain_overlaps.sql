-- Whether an account other than p_account_id has verified a parent or a sub-domain of p_domain (the domain itself is
-- the unique index's to decide). Only a verified domain holds its zone: a claim nobody proved sends nothing, and must
-- not keep others out.
create or replace function public.sending_domain_overlaps(p_account_id uuid, p_domain text)
returns boolean
language sql
stable
as $$
  select exists (
    select 1 from public.sending_domains s
    where public.sending_domain_zone(s.domain) = public.sending_domain_zone(p_domain)
      and s.account_id <> p_account_id
      and s.verified
      and (right(lower(s.domain), length(p_domain) + 1) = '.' || lower(p_domain)
           or right(lower(p_domain), length(s.domain) + 1) = '.' || lower(s.domain)))
$$;
