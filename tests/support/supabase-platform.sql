-- What a new Supabase project holds before any migration of ours, as Supabase's Postgres image sets it up (its
-- init scripts: roles, the API roles' grants and default privileges, the auth schema): the database `supabase db push`
-- and Branching apply supabase/migrations/ to. Roles are the cluster's, so each is created only when missing.
do $$
begin
  -- PostgREST's roles: a request runs as anon (no session) or authenticated (a signed-in user's JWT); service_role is
  -- the secret key's, past row-level security. authenticator is the one that logs in and switches to them.
  if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit;
  end if;
  -- Supabase's postgres role, which `supabase db push` and Branching run the migrations as, and which is no superuser
  -- (the name postgres is this cluster's superuser's).
  if not exists (select 1 from pg_roles where rolname = 'supabase_postgres') then
    create role supabase_postgres login createdb createrole bypassrls;
  end if;
  execute format('grant create on database %I to supabase_postgres', current_database());
end $$;

grant anon, authenticated, service_role to authenticator;
grant create on schema public to supabase_postgres;

grant usage on schema public to anon, authenticated, service_role;
-- Every table, function and sequence that postgres creates in public is the API roles' unless a migration takes it
-- back: row-level security, and the revokes of each migration, are what keep them out.
alter default privileges for role supabase_postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role supabase_postgres in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role supabase_postgres in schema public grant all on sequences to anon, authenticated, service_role;

create schema auth;
-- The signed-in user's id, from the request's JWT (as Supabase Auth defines it).
create function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;
grant usage on schema auth to anon, authenticated, service_role;
