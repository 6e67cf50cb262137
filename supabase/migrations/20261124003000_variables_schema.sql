-- A template's variables become a JSON Schema (2020-12) object instead of a list of flat declarations, so nested
-- objects, arrays and enums can be declared; and a user template keeps the PreviewProps read when it was saved, the
-- example GET /templates/{id} answers. The column is `json`, not `jsonb`: jsonb reorders keys, and the order of a
-- schema's properties is the order the dashboard's form shows them in.

alter table public.templates add column variables_schema json;
alter table public.templates add column preview_props json;

-- [{ name, type, required, default?, description? }] → { $schema, type, properties, required?, additionalProperties }.
-- As the render path read declarations: only objects with a declarable name count (an ASCII identifier of at most 100
-- characters, not a name every JavaScript object has), the last of two with one name wins at the first one's place,
-- an unknown type declares no type, and `required` is only ever true or false.
with declarations as (
  select t2.id, d.value, d.ordinality, d.value->>'name' as name
  from public.templates t2,
       jsonb_array_elements(case when jsonb_typeof(t2.variables) = 'array' then t2.variables else '[]'::jsonb end)
         with ordinality d
  where jsonb_typeof(d.value) = 'object' and jsonb_typeof(d.value->'name') = 'string'
    and d.value->>'name' ~ '^[A-Za-z_$][A-Za-z0-9_$]{0,99}$'
    and d.value->>'name' not in ('constructor', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable',
                                 'toString', 'toLocaleString', 'valueOf', '__proto__', '__defineGetter__',
                                 '__defineSetter__', '__lookupGetter__', '__lookupSetter__')
), named as (
  select distinct on (id, name) id, name, value, min(ordinality) over (partition by id, name) as position
  from declarations
  order by id, name, ordinality desc
), schemas as (
  select id,
         json_object_agg(
           name,
           (case when value->>'type' in ('string', 'number', 'boolean', 'array', 'object')
                 then jsonb_build_object('type', value->'type') else '{}'::jsonb end
             || case when value ? 'default' then jsonb_build_object('default', value->'default') else '{}'::jsonb end
             || case when jsonb_typeof(value->'description') = 'string'
                     then jsonb_build_object('description', value->'description') else '{}'::jsonb end)::json
           order by position) as properties,
         json_agg(name order by position) filter (where value->'required' = 'true'::jsonb) as required
  from named
  group by id
)
update public.templates t
set variables_schema = case
  when c.required is null then json_build_object(
    '$schema', 'https://json-schema.org/draft/2020-12/schema', 'type', 'object', 'properties', c.properties,
    'additionalProperties', true)
  else json_build_object(
    '$schema', 'https://json-schema.org/draft/2020-12/schema', 'type', 'object', 'properties', c.properties,
    'required', c.required, 'additionalProperties', true)
  end
from (
  select t3.id, coalesce(s.properties, '{}'::json) as properties, s.required
  from public.templates t3 left join schemas s on s.id = t3.id
) c
where c.id = t.id;

alter table public.templates drop column variables;
alter table public.templates rename column variables_schema to variables;
alter table public.templates alter column variables set default
  '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"additionalProperties":true}'::json;
alter table public.templates alter column variables set not null;

-- send_context as before (20261124000300_domain_owner_and_orphaned_sends.sql), with the variables as json.
drop function if exists public.send_context(uuid, uuid);
create function public.send_context(p_account_id uuid, p_template_id uuid)
returns table (sender_domains json, id uuid, owner_account_id uuid, slug text, version integer, compiled_code text, variables json)
language plpgsql stable
as $$
#variable_conflict use_column
begin
  return query
    select d.sender_domains, tl.* from (
      select coalesce(json_agg(json_build_object(
               'id', s.id, 'domain', s.domain, 'verified', s.verified, 'default_sender', s.default_sender,
               'created_at', s.created_at, 'verified_at', s.verified_at, 'provider_status', s.provider_status)
               order by s.created_at), '[]'::json) as sender_domains
      from public.sending_domains s where s.account_id = p_account_id
    ) d left join lateral (
      select t.id, t.owner_account_id, t.slug, t.version, t.compiled_code, t.variables
      from public.library_entries l join public.templates t on t.id = l.template_id
      where l.account_id = p_account_id and l.template_id = p_template_id
    ) tl on true;
end;
$$;

-- Dropped and made anew, send_context lost the revokes of 20261122000600_hot_path_functions.sql: only the server
-- calls it.
do $$
declare
  grantee text;
begin
  for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
    execute format('revoke execute on function public.send_context(uuid, uuid) from %s', grantee);
  end loop;
end $$;
