-- A template purchase can be taken back: Stripe's full refund of its charge, or a dispute (chargeback) of it, revokes
-- the purchase (lib/payments/stripe.ts, revokePurchase in lib/db/billing.ts): the template leaves the account's library
-- and no longer counts as bought, so adding it again needs a new purchase. A charge names the PaymentIntent that made
-- it, so a completed purchase keeps its PaymentIntent (purchases completed before this have none: a refund finds them
-- through the purchase id in the charge's metadata, when it carries one).
alter table public.purchases add column payment_intent text;
create unique index purchases_payment_intent_key on public.purchases (processor, payment_intent)
  where payment_intent is not null;

-- What revoked it and when: 'refund' or 'dispute', and the processor's event that said so.
alter table public.purchases add column revoked_at timestamptz;
alter table public.purchases add column revoked_because text check (revoked_because in ('refund', 'dispute'));
alter table public.purchases add column revoked_by_event text;

alter table public.purchases drop constraint purchases_status_check;
alter table public.purchases add constraint purchases_status_check
  check (status in ('pending', 'completed', 'failed', 'expired', 'revoked'));
alter table public.purchases add constraint purchases_revoked_check
  check ((status = 'revoked') = (revoked_at is not null and revoked_because is not null));
