-- Deleting a team (issue 48, item 9): another team's purchase of one of this team's templates no longer blocks the
-- delete. The buyer keeps the purchase (their payment record, refunds) without the template; their library copy goes
-- with the template, as the library's cascade already does.
alter table public.purchases alter column template_id drop not null;
alter table public.purchases drop constraint purchases_template_id_fkey;
alter table public.purchases add constraint purchases_template_id_fkey
  foreign key (template_id) references public.templates (id) on delete set null;
