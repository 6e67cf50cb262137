-- The domain of an address as a sender writes it (`hi@acme.com` or `Acme <hi@acme.com>`), in lower case; '' when it
-- has none. What GET /metrics groups by domain.
create or replace function public.email_address_domain(p_address text) returns text
language sql
immutable
as $$
  select coalesce(lower(substring(p_address from '@([^@<>[:space:]]+)>?[[:space:]]*$')), '');
$$;
