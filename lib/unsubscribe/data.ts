import "server-only";
import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";

/**
 * The server's key for `purpose`, made the first time any instance asks (32 random bytes; a concurrent first ask keeps
 * one): so no deployment has to be given one, and every instance signs and checks with the same.
 */
export async function readSigningKey(purpose: string): Promise<Buffer> {
  const db = getDb();
  await db`insert into signing_keys (purpose, key) values (${purpose}, ${randomBytes(32)}) on conflict (purpose) do nothing`;
  const [{ key }] = await db<{ key: Buffer }[]>`select key from signing_keys where purpose = ${purpose}`;
  return key;
}

/**
 * Suppresses `address` for the account's sends of `group` ('' the unnamed list) and emits email.unsubscribed the first
 * time (`unsubscribe_recipient`); false when it was already, or the account is gone.
 */
export async function unsubscribeRecipient(
  accountId: string,
  address: string,
  group: string,
  listUnsubscribe: string,
): Promise<boolean> {
  const [{ applied }] = await getDb()<{ applied: boolean }[]>`
    select unsubscribe_recipient(${accountId}::uuid, ${address}::text, ${group}::text, ${listUnsubscribe}::text)
      as applied`;
  return applied;
}

/** Whether `address` is unsubscribed from the account's sends of `group` already. */
export async function isUnsubscribed(accountId: string, address: string, group: string): Promise<boolean> {
  const [{ unsubscribed }] = await getDb()<{ unsubscribed: boolean }[]>`
    select exists (select 1 from email_suppressions
                   where account_id = ${accountId} and email = ${address.toLowerCase()}
                     and unsubscribe_group = ${group}) as unsubscribed`;
  return unsubscribed;
}
