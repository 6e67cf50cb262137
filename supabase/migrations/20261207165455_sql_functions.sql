-- Written by `npm run db:functions` (scripts/db-functions.ts) from supabase/sql-functions/: the current
-- definition of each function the migrations before it define otherwise, as Supabase's tooling (supabase db push, the
-- GitHub integration, Branching) applies supabase/migrations/ alone. Not edited by hand: change the function's file
-- and run the command again.

-- supabase/sql-functions/delete_team.sql
-- Deleting a team: its accounts row goes and every table referencing it cascades (templates, emails, keys, domains,
-- webhooks, memberships, invitations, audit entries...), in this one statement. The row is locked first so a change
-- racing the delete waits for it, and then its webhook endpoints in id order, the order in which a statement
-- recording webhook attempts locks them (finish_webhook_attempts), so the cascade and such a statement never deadlock.
-- Returns whether the team existed.
create or replace function public.delete_team(p_account_id uuid)
returns boolean
language plpgsql
as $$
begin
  perform 1 from public.accounts where id = p_account_id for update;
  if not found then
    return false;
  end if;
  perform 1 from public.webhook_endpoints where account_id = p_account_id order by id for update;
  delete from public.accounts where id = p_account_id;
  return true;
end;
$$;

-- supabase/sql-functions/finish_webhook_attempts.sql
-- Records the attempts of several claims in one statement (an account's attempts that ended together): each element
-- of p_attempts is { delivery_id, claim_token, now, outcome, jitter }, recorded by finish_webhook_attempt as it would
-- be alone, and answered by a row with its item number (its place in p_attempts, from 1). Every endpoint's row is
-- locked first, in id order (as delete_team locks a team's), so two calls, or a call and a deletion of an endpoint or
-- a team (its endpoints, then their deliveries), wait for each other instead of deadlocking: every lock a call takes
-- on a delivery it takes holding that delivery's endpoint. The attempts are then finished in the order they ended,
-- so a success and a failure of one endpoint leave it as they would have one after the other. An error (a jitter out
-- of range) records none of them.
create or replace function public.finish_webhook_attempts(
  p_attempts jsonb
) returns table (
  item integer,
  recorded boolean,
  status text,
  attempts integer,
  next_attempt_at timestamptz,
  endpoint_disabled boolean,
  account_email text,
  endpoint_id uuid,
  endpoint_url text
)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_attempt jsonb;
  v_item integer;
begin
  perform 1 from public.webhook_endpoints w
    where w.id = any (array(select d.endpoint_id from public.webhook_deliveries d
                            where d.id = any (array(select (a ->> 'delivery_id')::uuid
                                                    from jsonb_array_elements(p_attempts) a))))
    order by w.id
    for no key update;
  for v_attempt, v_item in
    select a, n from jsonb_array_elements(p_attempts) with ordinality x (a, n) order by (a ->> 'now')::timestamptz, n
  loop
    return query
      select v_item, f.*
      from public.finish_webhook_attempt((v_attempt ->> 'delivery_id')::uuid, (v_attempt ->> 'claim_token')::uuid,
                                         (v_attempt ->> 'now')::timestamptz, v_attempt -> 'outcome',
                                         (v_attempt ->> 'jitter')::double precision) f;
  end loop;
end;
$$;

-- Only the server calls them: on Supabase, PostgREST would offer every function in public to the anon and
-- authenticated roles as an RPC (they get EXECUTE by default, as PUBLIC does everywhere). Functions of extensions are
-- theirs to grant.
do $$
declare
  f regprocedure;
  grantee text;
begin
  for f in
    select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public'
      and not exists (select 1 from pg_depend d
                      where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
  loop
    for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated')
    loop
      execute format('revoke execute on function %s from %s', f, grantee);
    end loop;
  end loop;
end $$;
