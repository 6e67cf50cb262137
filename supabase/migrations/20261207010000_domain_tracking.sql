-- Open and click tracking per sending domain (API v1.3, Engagement): off until the account turns them on, through
-- PATCH /domains/{id} or the dashboard's Domains page; with Resend they are Resend's switches for the domain.
alter table public.sending_domains
  add column if not exists open_tracking boolean not null default false,
  add column if not exists click_tracking boolean not null default false;
