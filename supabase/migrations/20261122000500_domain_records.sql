-- Sending domains registered with Resend: the provider's status for the domain (`not_started`, `pending`,
-- `verified`, `failed`, `partially_verified`, `partially_failed`, `temporary_failure`, ...) and the DNS records it asks
-- the owner to publish, as Resend returned them. Both stay null in the embedded default, where DNS is simulated.
-- `verified` remains the flag sending checks; with Resend it is true exactly when provider_status is 'verified'.
-- Core SQL only: runs unchanged on PGlite, PostgreSQL 15 and Supabase.
alter table public.sending_domains add column if not exists provider_status text;
alter table public.sending_domains add column if not exists dns_records jsonb;
