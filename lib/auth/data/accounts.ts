import "server-only";
import { insertAuditEntry, planChangedEntry } from "@/lib/audit/service";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/core/errors";
import type { PlanName } from "@/lib/core/plans";

export type Account = { id: string; email: string; plan: PlanName; created_at: Date };

/** The CLI names an account by email; the payment processors by id. */
const accountNotFound = (what: string) => new AppError("NOT_FOUND", { message: `No account for ${what}` });

export async function createAccount(input: {
  email: string;
  plan?: PlanName;
  passwordHash?: string | null;
  authUserId?: string | null;
}): Promise<Account> {
  const email = input.email.trim();
  const [account] = await getDb()<Account[]>`
    insert into accounts (email, plan, password_hash, auth_user_id)
    values (${email}, ${input.plan ?? "free"}, ${input.passwordHash ?? null}, ${input.authUserId ?? null})
    on conflict ((lower(email))) do nothing
    returning id, email, plan, created_at`;
  if (!account) throw new AppError("EMAIL_TAKEN", { message: `An account with the email ${email} already exists` });
  return account;
}

export async function findAccountByEmail(email: string): Promise<(Account & { password_hash: string | null }) | null> {
  const [account] = await getDb()<(Account & { password_hash: string | null })[]>`
    select id, email, plan, created_at, password_hash from accounts where lower(email) = lower(${email.trim()})`;
  return account ?? null;
}

export async function getAccountByEmailOrThrow(email: string): Promise<Account> {
  const account = await findAccountByEmail(email);
  if (!account) throw accountNotFound(email);
  const { password_hash: _omit, ...rest } = account;
  return rest;
}

export async function getAccountByIdOrThrow(id: string): Promise<Account> {
  const [account] = await getDb()<Account[]>`select id, email, plan, created_at from accounts where id = ${id}`;
  if (!account) throw accountNotFound(id);
  return account;
}

export async function setAccountPlan(id: string, plan: PlanName): Promise<Account> {
  const changed = await getDb().begin(async (tx) => {
    const [row] = await tx<(Account & { previous: PlanName })[]>`
      update accounts a set plan = ${plan}, updated_at = now() from accounts prior
      where prior.id = a.id and a.id = ${id}
      returning a.id, a.email, a.plan, a.created_at, prior.plan as previous`;
    if (row && row.previous !== plan) await insertAuditEntry(tx, planChangedEntry(id, row.previous, plan));
    return row;
  });
  if (!changed) throw accountNotFound(id);
  const { previous: _previous, ...account } = changed;
  return account;
}

/**
 * The account of a Supabase Auth user: found by its auth user id (on every request after the first), else an
 * operator-created account with the same email and no auth user yet is linked, else a new account is created. Null
 * when the email already belongs to another auth user.
 *
 * The account's email follows the user's (a change of email confirmed in Supabase), in the same statement that finds
 * it: `email` is what Supabase said at `asOf` (a session's access token, when it was issued), and only news newer than
 * the row's last change moves it, so a session opened before the change, still valid elsewhere, never puts the old
 * address back. An address another account holds stays with that account, and this one keeps its own.
 */
export async function getOrCreateAccountForAuthUser(
  authUserId: string,
  email: string | null,
  asOf: Date | null,
): Promise<Account | null> {
  const db = getDb();
  const existing = await findSyncedAuthUserAccount(authUserId, email, asOf);
  if (existing) return existing;
  const address = email ?? `${authUserId}@users.supabase`;
  const [account] = await db<Account[]>`
    with linked as (
      update accounts set auth_user_id = ${authUserId}, updated_at = now()
      where lower(email) = lower(${address}) and auth_user_id is null
      returning id, email, plan, created_at
    ), inserted as (
      insert into accounts (email, auth_user_id)
      select ${address}, ${authUserId} where not exists (select 1 from linked)
      on conflict do nothing
      returning id, email, plan, created_at
    )
    select * from linked union all select * from inserted`;
  return account ?? null;
}

async function findSyncedAuthUserAccount(
  authUserId: string,
  email: string | null,
  asOf: Date | null,
): Promise<Account | null> {
  const db = getDb();
  try {
    const [account] = await db<Account[]>`
      with synced as (
        update accounts a set email = ${email}::text, updated_at = now()
        where a.auth_user_id = ${authUserId} and a.email <> ${email}::text and a.updated_at < ${asOf}::timestamptz
          and not exists (select 1 from accounts b where lower(b.email) = lower(${email}::text) and b.id <> a.id)
        returning a.id, a.email, a.plan, a.created_at
      )
      select * from synced
      union all
      select id, email, plan, created_at from accounts
      where auth_user_id = ${authUserId} and not exists (select 1 from synced)`;
    return account ?? null;
  } catch (error) {
    // Another account took the address between the check and the update: this one keeps its own.
    if ((error as { code?: string }).code !== "23505") throw error;
    const [account] = await db<Account[]>`
      select id, email, plan, created_at from accounts where auth_user_id = ${authUserId}`;
    return account ?? null;
  }
}

/** The dashboard's first steps, each taken or not. */
export type OnboardingState = { hasKey: boolean; hasTemplate: boolean; hasVerifiedDomain: boolean; hasSent: boolean };

/**
 * Which first steps the account has taken: a live API key, a template in its library, a domain verified for sending
 * (with `resendConfigured`, verified by Resend), an email sent.
 */
export async function findOnboardingState(
  accountId: string,
  { resendConfigured }: { resendConfigured: boolean },
): Promise<OnboardingState> {
  const [row] = await getDb()<{ keys: boolean; templates: boolean; domains: boolean; sent: boolean }[]>`
    select exists (select 1 from api_keys where account_id = ${accountId} and revoked_at is null) as keys,
           exists (select 1 from library_entries where account_id = ${accountId}) as templates,
           exists (select 1 from sending_domains where account_id = ${accountId} and verified
                   and (not ${resendConfigured} or provider_status = 'verified')) as domains,
           exists (select 1 from sent_emails where account_id = ${accountId}) as sent`;
  return { hasKey: row.keys, hasTemplate: row.templates, hasVerifiedDomain: row.domains, hasSent: row.sent };
}

/**
 * Sets a local account's password and ends every session of it but `keepSessionId` (the browser that changed it), in
 * one statement.
 */
export async function setAccountPassword(accountId: string, passwordHash: string, keepSessionId: string | null) {
  await getDb()`
    with updated as (
      update accounts set password_hash = ${passwordHash}, updated_at = now() where id = ${accountId} returning id
    )
    delete from sessions where account_id in (select id from updated) and id is distinct from ${keepSessionId}::uuid`;
}
