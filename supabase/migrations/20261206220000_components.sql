-- Shared components (API v1.3): React modules of an account that its templates import as `@components/<name>`. Each
-- save is a version; a template's saved content (its published versions, its current content and its draft) records
-- the component versions it was compiled with, `[{ "name", "version" }]` by name (null: none), and its compiled code
-- holds their code, so a published version renders as it did whatever becomes of the components.

create table public.components (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  name text not null check (name ~ '^[a-z][a-z0-9-]{0,63}$'),
  description text not null default '',
  -- The version templates compile with, and the draft (a later version) their drafts compile with; null: none.
  version integer not null check (version > 0),
  draft_version integer check (draft_version > version),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (account_id, name)
);

create table public.component_versions (
  component_id uuid not null references public.components (id) on delete cascade,
  version integer not null check (version > 0),
  files json not null,
  entry text not null,
  -- The names of the components this version imports.
  imports text[] not null default '{}',
  -- Saved with "publish": false: only templates' drafts are built with it (a publish saves a version of its own).
  draft boolean not null default false,
  created_at timestamptz not null default now(),
  primary key (component_id, version)
);

alter table public.templates add column components jsonb;
-- Why a version was published by Letterpress itself ("component footer v3"); null when someone published it.
alter table public.template_versions add column components jsonb, add column reason text;
alter table public.template_drafts add column components jsonb;

do $$
declare
  t text;
  role_name text;
begin
  foreach t in array array['components', 'component_versions'] loop
    execute format('alter table public.%I enable row level security', t);
    for role_name in select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
      execute format('revoke all on public.%I from %I', t, role_name);
    end loop;
  end loop;
end $$;
