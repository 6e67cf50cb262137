-- A domain and its parent and sub-domains belong to one account: once one account has verified mail.example.com,
-- another is refused example.com and news.mail.example.com, to add or to verify (an account may add the parent and
-- sub-domains of its own domains). Only a verified domain holds its zone, so that a claim nobody proved (which sends
-- nothing) cannot keep others out; of two unverified claims the first verified wins. Checked here, at the insert and at
-- verification, so that two instances cannot both succeed; lib/db/domains.ts turns the refusal into a clear message.
-- Rows that overlapped before stay, and their owners may add them again (a refresh is an upsert). Core SQL only.

-- The last two labels. A domain and all its parent and sub-domains share them (a sending domain has two labels at
-- least), so they key both the lock that serialises such inserts and the index that finds the related rows.
create or replace function public.sending_domain_zone(p_domain text)
returns text
language sql
immutable strict parallel safe
as $$ select lower(split_part(p_domain, '.', -2) || '.' || split_part(p_domain, '.', -1)) $$;

create index sending_domains_zone_idx on public.sending_domains (public.sending_domain_zone(domain));

-- Whether an account other than p_account_id has verified a parent or a sub-domain of p_domain (the domain itself is
-- the unique index's to decide).
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

create trigger sending_domains_refuse_overlap
before insert or update of domain, account_id, verified on public.sending_domains
for each row execute function public.sending_domains_refuse_overlap();

-- Only the server calls them (as 20261122000600_hot_path_functions.sql says for the others).
do $$
declare
  f regprocedure;
  grantee text;
begin
  for f in
    select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public'
      and p.proname in ('sending_domain_zone', 'sending_domain_overlaps', 'sending_domains_refuse_overlap')
  loop
    for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
      execute format('revoke execute on function %s from %s', f, grantee);
    end loop;
  end loop;
end $$;
