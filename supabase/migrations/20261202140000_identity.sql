-- People sign in, not teams (issue 48, identity step): sessions, password resets and email changes name the person,
-- and the sign-in's email, password hash and Supabase user live on people only (copied there by 20261202130000_teams).
-- A migrated owner's person has the account's id, so each row keeps naming the same sign-in and a local session's
-- cookie (which carries that id) still works. Core SQL only: runs unchanged on PGlite, PostgreSQL 15 and Supabase.

alter table public.sessions drop constraint sessions_account_id_fkey;
alter table public.sessions rename column account_id to person_id;
alter table public.sessions add constraint sessions_person_id_fkey
  foreign key (person_id) references public.people (id) on delete cascade;
alter index public.sessions_account_idx rename to sessions_person_idx;

alter table public.password_resets drop constraint password_resets_account_id_fkey;
alter table public.password_resets rename column account_id to person_id;
alter table public.password_resets add constraint password_resets_person_id_fkey
  foreign key (person_id) references public.people (id) on delete cascade;

alter table public.email_changes drop constraint email_changes_account_id_fkey;
alter table public.email_changes rename column account_id to person_id;
alter table public.email_changes add constraint email_changes_person_id_fkey
  foreign key (person_id) references public.people (id) on delete cascade;

drop index public.accounts_email_key;
alter table public.accounts drop column email, drop column password_hash, drop column auth_user_id;

-- authenticate_and_meter now takes the person and their wanted team (supabase/sql-functions/authenticate_and_meter.sql,
-- created by the functions migration after this one); the old signature goes so no caller reaches a team by its id.
drop function public.authenticate_and_meter(text, uuid, text, timestamptz, jsonb, uuid, boolean);
