-- Teams (issue 48): a person signs in; an account is a team; memberships join them with a role. Core SQL only: runs
-- unchanged on PGlite, PostgreSQL 15 and Supabase.
--
-- Each existing account becomes a team whose one member, its admin, is the person who owned it. That person keeps the
-- account's id, so what names the account's owner today (a local session's cookie, a password reset) names the person;
-- every key, template, email, domain and counter stays with the account, as do its plan and quotas.

create table public.people (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  -- Local (embedded) sign-in only; Supabase Auth users have auth_user_id instead.
  password_hash text,
  auth_user_id uuid unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index people_email_key on public.people (lower(email));

insert into public.people (id, email, password_hash, auth_user_id, created_at, updated_at)
  select id, email, password_hash, auth_user_id, created_at, updated_at from public.accounts;

-- A migrated team is named after its owner's address until an admin renames it.
alter table public.accounts add column name text not null default 'My team';
update public.accounts set name = left(email, 100);
alter table public.accounts add constraint accounts_name_length check (char_length(name) between 1 and 100);

create table public.memberships (
  account_id uuid not null references public.accounts (id) on delete cascade,
  person_id uuid not null references public.people (id) on delete cascade,
  role text not null check (role in ('admin', 'member')),
  joined_at timestamptz not null default now(),
  primary key (account_id, person_id)
);
-- A person's teams in the order they joined them: the first is the team a session without a choice opens.
create index memberships_person_idx on public.memberships (person_id, joined_at, account_id);

insert into public.memberships (account_id, person_id, role, joined_at)
  select id, id, 'admin', created_at from public.accounts;

-- An invitation's link carries a random token, stored only as its SHA-256 digest. Pending while neither accepted nor
-- revoked and unexpired; at most one pending invitation per address and team.
create table public.invitations (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  email text not null,
  role text not null check (role in ('admin', 'member')),
  token_hash text not null unique,
  invited_by uuid references public.people (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by uuid references public.people (id) on delete set null,
  revoked_at timestamptz
);
create unique index invitations_open_email_key on public.invitations (account_id, lower(email))
  where accepted_at is null and revoked_at is null;
create index invitations_account_idx on public.invitations (account_id, created_at desc);

-- Keys belong to the team; the dashboard shows who created each (null once that person is gone, or for the CLI's).
alter table public.api_keys add column created_by uuid references public.people (id) on delete set null;
update public.api_keys set created_by = account_id;

-- The audit log: written in the transaction of each change, never edited. Actor and target are copied as text (id and
-- label as of the change), so an entry outlives the person, key or thing it names; only the team's own deletion
-- removes its entries (the trigger below).
create table public.audit_log (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  action text not null check (action in (
    'api_key.created', 'api_key.revoked', 'domain.added', 'domain.verified', 'domain.removed', 'webhook.created',
    'webhook.updated', 'webhook.deleted', 'webhook.secret_rotated', 'member.invited', 'member.joined',
    'member.role_changed', 'member.removed', 'invitation.revoked', 'plan.changed', 'template.created',
    'template.published', 'template.restored', 'template.deleted', 'library.added', 'library.removed',
    'suppression.removed')),
  actor_type text not null check (actor_type in ('user', 'api_key', 'system')),
  actor_id text,
  actor_label text not null,
  target_type text not null,
  target_id text,
  target_label text,
  ip text,
  details jsonb,
  created_at timestamptz not null default now()
);
create index audit_log_account_idx on public.audit_log (account_id, created_at desc, id desc);
create index audit_log_account_action_idx on public.audit_log (account_id, action, created_at desc, id desc);
create index audit_log_account_actor_idx on public.audit_log (account_id, actor_id, created_at desc, id desc);

-- No UPDATE, DELETE or TRUNCATE reaches an entry, whatever the role: a row goes only with its team (the cascade of the
-- account's delete, which runs after the account row is gone). The function's current definition is
-- supabase/sql-functions/audit_log_refuse_change.sql; this creates what the triggers need before that file is applied.
create or replace function public.audit_log_refuse_change() returns trigger
language plpgsql
as $$
begin
  if tg_op = 'DELETE' and not exists (select 1 from public.accounts where id = old.account_id) then
    return old;
  end if;
  raise exception 'audit_log entries cannot be changed or deleted' using errcode = '42501';
end;
$$;
create trigger audit_log_refuse_update before update on public.audit_log
  for each row execute function public.audit_log_refuse_change();
create trigger audit_log_refuse_delete before delete on public.audit_log
  for each row execute function public.audit_log_refuse_change();
create trigger audit_log_refuse_truncate before truncate on public.audit_log
  for each statement execute function public.audit_log_refuse_change();

do $$
declare t text;
begin
  foreach t in array array['people', 'memberships', 'invitations', 'audit_log'] loop
    execute format('alter table public.%I enable row level security', t);
    if exists (select 1 from pg_roles where rolname = 'anon') then
      execute format('revoke all on public.%I from anon', t);
    end if;
    if exists (select 1 from pg_roles where rolname = 'authenticated') then
      execute format('revoke all on public.%I from authenticated', t);
    end if;
  end loop;
end $$;
