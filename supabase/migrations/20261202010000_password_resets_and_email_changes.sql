-- Local accounts' way back in (issue 46): a password reset, and a change of sign-in email, each held here until the
-- link mailed for it is followed. Core SQL only: runs unchanged on PGlite, PostgreSQL 15 and Supabase.

-- One row per account in each table: a newer request replaces the older, whose link then stops working. A link's token
-- is stored only as its SHA-256 digest.
create table public.password_resets (
  account_id uuid primary key references public.accounts (id) on delete cascade,
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);

create table public.email_changes (
  account_id uuid primary key references public.accounts (id) on delete cascade,
  new_email text not null,
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);

alter table public.password_resets enable row level security;
alter table public.email_changes enable row level security;
do $$
declare role_name text;
begin
  for role_name in select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
    execute format('revoke all on public.password_resets from %I', role_name);
    execute format('revoke all on public.email_changes from %I', role_name);
  end loop;
end $$;
