-- A user's template may have several files that import each other (POST/PUT /api/v1/templates). `code` stays the
-- entry's source, so everything that reads one file (the `react` render format, the dashboard) reads it as before;
-- `files` holds every file by its relative path, and `entry` names the one whose default export is the email. Both
-- are null for a template of one file, as every template saved before is. `json`, not `jsonb`: the files keep the
-- order they were given in.
alter table public.templates add column files json;
alter table public.templates add column entry text;
alter table public.templates add constraint templates_files_entry_check check ((files is null) = (entry is null));
