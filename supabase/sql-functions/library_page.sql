-- GET /library: one page of the account's library and its total, as the response's JSON. Timestamps are written as
-- Date#toISOString() writes them. A function because the server talks the simple query protocol on Supabase's
-- transaction pooler, where a statement sent as text is planned on every call; a PL/pgSQL function keeps its plans for
-- the life of the connection (20261122000600_hot_path_functions.sql has the measurements).
create or replace function public.library_page(p_account_id uuid, p_limit integer, p_offset integer) returns json
language plpgsql stable
as $$
begin
  return json_build_object(
    'total', (select count(*)::int from public.library_entries where account_id = p_account_id),
    'templates', coalesce((
      select json_agg(json_build_object(
        'id', page.id, 'name', page.name, 'description', page.description, 'is_public', page.is_public,
        'price', page.price, 'slug', page.slug, 'category', page.category, 'author', page.author,
        'added_via', page.added_via,
        'added_at', to_char(page.added_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'updated_at', to_char(page.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'preview_url', page.preview_image_url
      ) order by page.added_at desc, page.template_id)
      from (
        select t.id, t.name, t.description, t.is_public, t.price, t.slug, t.category, t.author, t.updated_at,
               t.preview_image_url, l.added_via, l.added_at, l.template_id
        from public.library_entries l join public.templates t on t.id = l.template_id
        where l.account_id = p_account_id
        order by l.added_at desc, l.template_id
        limit p_limit offset p_offset
      ) page
    ), '[]'::json));
end;
$$;
