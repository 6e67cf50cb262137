-- A user template's lifecycle: published versions 1, 2, 3, … kept with their own source and what was derived from it
-- (a render of version n uses version n's compiled code and variables schema), and at most one draft.
--
-- `templates` keeps the content renders and sends use by default, so they stay one query: the published version's,
-- or the draft's before a first publish (`published_version` null). `version` stays the internal counter of that
-- content (the sandbox's cache key for it). `draft_revision` is the last revision given to a draft: every draft save
-- takes the next one, so a revision names one draft's content for the life of the template, even after it was
-- published. Catalogue templates are version 1 (their code lives in emails/, not here).
alter table public.templates add column published_version integer;
alter table public.templates add column draft_revision integer not null default 0;

create table public.template_versions (
  template_id uuid not null references public.templates (id) on delete cascade,
  version integer not null check (version > 0),
  code text not null,
  files json,
  entry text,
  compiled_code text,
  variables json not null,
  preview_props json,
  -- When its content was saved (a draft's last save) and when it became a version.
  created_at timestamptz not null default now(),
  published_at timestamptz not null default now(),
  -- Who published it: an API key (which one), a signed-in session (the dashboard, or the API from the browser) or the
  -- admin CLI; null for the versions this migration makes.
  published_via text check (published_via in ('api_key', 'session', 'cli')),
  published_by_key_id uuid references public.api_keys (id) on delete set null,
  check ((published_by_key_id is null) or (published_via = 'api_key')),
  primary key (template_id, version),
  check ((files is null) = (entry is null))
);

create table public.template_drafts (
  template_id uuid primary key references public.templates (id) on delete cascade,
  revision integer not null check (revision > 0),
  code text not null,
  files json,
  entry text,
  compiled_code text,
  variables json not null,
  preview_props json,
  updated_at timestamptz not null default now(),
  check ((files is null) = (entry is null))
);

do $$
declare t text;
begin
  foreach t in array array['template_versions', 'template_drafts'] loop
    execute format('alter table public.%I enable row level security', t);
    if exists (select 1 from pg_roles where rolname = 'anon') then
      execute format('revoke all on public.%I from anon', t);
    end if;
    if exists (select 1 from pg_roles where rolname = 'authenticated') then
      execute format('revoke all on public.%I from authenticated', t);
    end if;
  end loop;
end $$;

-- Every template saved before is version 1, published, with its current files: what it sends does not change.
update public.templates set published_version = 1;
insert into public.template_versions (template_id, version, code, files, entry, compiled_code, variables,
                                      preview_props, created_at, published_at)
  select id, 1, code, files, entry, compiled_code, variables, preview_props, updated_at, updated_at
  from public.templates where owner_account_id is not null;

-- The version an email was rendered from: a number, or 'draft'; null for emails sent before versions existed.
alter table public.sent_emails add column template_version text
  check (template_version is null or template_version = 'draft' or template_version ~ '^[1-9][0-9]*$');
