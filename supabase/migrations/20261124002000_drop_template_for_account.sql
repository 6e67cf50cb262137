-- Render access reads the template and its library entry with a parameterised statement of its own
-- (lib/db/templates.ts, findTemplateForAccount); nothing calls this function any more.
drop function if exists public.template_for_account(uuid, uuid);
