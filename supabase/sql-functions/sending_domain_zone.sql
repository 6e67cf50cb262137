-- The last two labels of a domain. A domain and all its parent and sub-domains share them (a sending domain has two
-- labels at least), so they key both the lock that serialises inserts of related domains
-- (sending_domains_refuse_overlap) and the index that finds the related rows (sending_domains_zone_idx, which is why
-- it is immutable).
create or replace function public.sending_domain_zone(p_domain text)
returns text
language sql
immutable strict parallel safe
as $$ select lower(split_part(p_domain, '.', -2) || '.' || split_part(p_domain, '.', -1)) $$;
