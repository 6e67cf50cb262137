-- Inserts or refreshes a catalogue template by slug, and returns its id: what `npm run db:seed` (lib/catalogue/data/seed.ts)
-- calls for each template of emails/, and what supabase/seed.sql (Branching's seed of each preview database) calls with the
-- same values, so both seed alike. p_listing: { name, description, price, category, author, preview_image_url }. The
-- variables are json, not in the jsonb record, and compared as text: the order of their keys is the form's.
-- The version moves only when the code or the variables change; updated_at also when the name, description or price
-- does.
create or replace function public.seed_catalogue_template(p_slug text, p_listing jsonb, p_code text, p_variables json)
returns uuid
language sql
as $$
  insert into public.templates (slug, name, description, is_public, price, code, variables, category, author,
                                preview_image_url, published_version)
  select p_slug, l.name, l.description, true, l.price, p_code, p_variables, l.category, l.author, l.preview_image_url, 1
  from jsonb_to_record(p_listing)
    as l(name text, description text, price numeric, category text, author text, preview_image_url text)
  on conflict (slug) where owner_account_id is null do update set
    name = excluded.name, description = excluded.description, price = excluded.price, code = excluded.code,
    variables = excluded.variables, category = excluded.category, author = excluded.author,
    preview_image_url = excluded.preview_image_url,
    version = case when templates.code is distinct from excluded.code
                        or templates.variables::text is distinct from excluded.variables::text
                   then templates.version + 1 else templates.version end,
    updated_at = case when templates.code is distinct from excluded.code
                           or templates.variables::text is distinct from excluded.variables::text
                           or templates.name is distinct from excluded.name
                           or templates.description is distinct from excluded.description
                           or templates.price is distinct from excluded.price
                      then now() else templates.updated_at end
  returning id;
$$;
