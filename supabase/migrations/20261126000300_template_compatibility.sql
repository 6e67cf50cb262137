-- Email client support of a template's saved content (lib/render/compatibility.ts): the findings of its example's
-- render, `[{ feature, unsupported, partial, elements, url }]`, computed once when the content is saved and kept with
-- it, on the template (what GET /templates/{id} answers), each version and the draft. Content saved before has none:
-- GET /templates/{id} computes it on first read and keeps it on the template (lib/template-details.ts).
alter table public.templates add column compatibility jsonb;
alter table public.template_versions add column compatibility jsonb;
alter table public.template_drafts add column compatibility jsonb;
