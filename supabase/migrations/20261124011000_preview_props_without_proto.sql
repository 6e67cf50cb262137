-- PreviewProps are a template's example: the variables GET /templates/{id} answers, for render and send to take back.
-- A request's body may not hold a `__proto__` key (copied into an object, it would set the prototype), so templates
-- are now saved without one (readPreviewProps in lib/render/sandbox); templates saved before lose theirs here, at any
-- depth. The column is json, whose key order is kept. Core SQL only.
create function public.json_without_proto_keys(value json) returns json
language sql immutable
as $$
  select case json_typeof(value)
    when 'object' then (
      select coalesce(json_object_agg(member.key, public.json_without_proto_keys(member.value) order by member.position),
                      '{}'::json)
      from json_each(value) with ordinality as member(key, value, position)
      where member.key <> '__proto__')
    when 'array' then (
      select coalesce(json_agg(public.json_without_proto_keys(element.value) order by element.position), '[]'::json)
      from json_array_elements(value) with ordinality as element(value, position))
    else value
  end
$$;

update public.templates set preview_props = public.json_without_proto_keys(preview_props)
where strpos(preview_props::text, '"__proto__"') > 0;

drop function public.json_without_proto_keys(json);
