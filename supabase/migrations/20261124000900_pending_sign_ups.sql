-- Local sign-up by confirmed email: a sign-up is held here until the link sent to its address is followed, so the
-- form answers every address alike and no account exists for an address its owner never confirmed. Core SQL only:
-- runs unchanged on PGlite, PostgreSQL 15 and Supabase.

-- One row per address (lower-cased by the form): a newer request replaces the older, whose link then stops working.
-- The link's token is stored only as its SHA-256 digest; the password only as its scrypt hash.
create table public.pending_sign_ups (
  email text primary key,
  password_hash text not null,
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index pending_sign_ups_expires_idx on public.pending_sign_ups (expires_at);

alter table public.pending_sign_ups enable row level security;
do $$
declare role_name text;
begin
  for role_name in select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
    execute format('revoke all on public.pending_sign_ups from %I', role_name);
  end loop;
end $$;
