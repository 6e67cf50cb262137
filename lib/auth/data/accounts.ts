import "server-only";
import { insertAuditEntry, planChangedEntry } from "@/lib/audit/service";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/core/errors";
import type { PlanName } from "@/lib/core/plans";
import type { Role } from "@/lib/teams/rights";

/** A team: what owns keys, templates, emails, domains, the plan and its quotas. */
export type Account = { id: string; name: string; plan: PlanName; created_at: Date };
/** Who signs in: a local sign-in or a Supabase Auth user, a member of teams. */
export type Person = { id: string; email: string };
/** A person in one of their teams. */
export type PersonTeam = { person: Person; team: (Account & { role: Role }) | null };

/** The CLI names an account by its owner's email; the payment processors by id. */
const accountNotFound = (what: string) => new AppError("NOT_FOUND", { message: `No account for ${what}` });

type PersonTeamRow = Account & { role: Role; person_id: string; person_email: string };

const toPersonTeam = ({ person_id, person_email, role, ...team }: PersonTeamRow) => ({
  person: { id: person_id, email: person_email },
  team: team.id ? { ...team, role } : null,
});

/**
 * A sign-up: the person, their own team (named after the address) and their admin membership, in one statement. An
 * address (or Supabase user) that has a sign-in already is EMAIL_TAKEN.
 */
export async function createAccount(input: {
  email: string;
  plan?: PlanName;
  passwordHash?: string | null;
  authUserId?: string | null;
}): Promise<Account & { person: Person }> {
  const email = input.email.trim();
  const [row] = await getDb()<PersonTeamRow[]>`
    with person as (
      insert into people (email, password_hash, auth_user_id)
      values (${email}, ${input.passwordHash ?? null}, ${input.authUserId ?? null})
      on conflict do nothing
      returning id, email
    ), team as (
      insert into accounts (name, plan) select left(email, 100), ${input.plan ?? "free"} from person
      returning id, name, plan, created_at
    ), membership as (
      insert into memberships (account_id, person_id, role) select team.id, person.id, 'admin' from team, person
    )
    select team.id, team.name, team.plan, team.created_at, 'admin' as role, person.id as person_id,
           person.email as person_email
    from team, person`;
  if (!row) throw new AppError("EMAIL_TAKEN", { message: `An account with the email ${email} already exists` });
  const { person, team } = toPersonTeam(row);
  const { role: _role, ...account } = team!;
  return { ...account, person };
}

export async function findPersonByEmail(email: string): Promise<(Person & { password_hash: string | null }) | null> {
  const [person] = await getDb()<(Person & { password_hash: string | null })[]>`
    select id, email, password_hash from people where lower(email) = lower(${email.trim()})`;
  return person ?? null;
}

/** The CLI's account for an email: the first team its person joined (their own, for a person the CLI created). */
export async function getAccountByEmailOrThrow(email: string): Promise<Account & { email: string }> {
  const [account] = await getDb()<(Account & { email: string })[]>`
    select a.id, a.name, a.plan, a.created_at, p.email
    from people p join memberships m on m.person_id = p.id join accounts a on a.id = m.account_id
    where lower(p.email) = lower(${email.trim()})
    order by m.joined_at, m.account_id limit 1`;
  if (!account) throw accountNotFound(email);
  return account;
}

export async function getAccountByIdOrThrow(id: string): Promise<Account> {
  const [account] = await getDb()<Account[]>`select id, name, plan, created_at from accounts where id = ${id}`;
  if (!account) throw accountNotFound(id);
  return account;
}

export async function setAccountPlan(id: string, plan: PlanName): Promise<Account> {
  const changed = await getDb().begin(async (tx) => {
    const [row] = await tx<(Account & { previous: PlanName })[]>`
      update accounts a set plan = ${plan}, updated_at = now() from accounts prior
      where prior.id = a.id and a.id = ${id}
      returning a.id, a.name, a.plan, a.created_at, prior.plan as previous`;
    if (row && row.previous !== plan) await insertAuditEntry(tx, planChangedEntry(id, row.previous, plan));
    return row;
  });
  if (!changed) throw accountNotFound(id);
  const { previous: _previous, ...account } = changed;
  return account;
}

/**
 * The person and their current team: `wantedTeamId` (the team switcher's cookie) while they are a member of it, else
 * the first team they joined; `team` null when they belong to none. With `sessionId`, only while that local session
 * of theirs lasts; null for no such person or session. One statement.
 */
export async function findPersonTeam(
  personId: string,
  sessionId: string | null,
  wantedTeamId: string | null,
): Promise<PersonTeam | null> {
  const [row] = await getDb()<PersonTeamRow[]>`
    select t.id, t.name, t.plan, t.created_at, t.role, p.id as person_id, p.email as person_email
    from people p
    left join lateral (
      select a.id, a.name, a.plan, a.created_at, m.role from memberships m join accounts a on a.id = m.account_id
      where m.person_id = p.id
      order by (m.account_id = ${wantedTeamId}::uuid) is true desc, m.joined_at, m.account_id limit 1
    ) t on true
    where p.id = ${personId}
      and (${sessionId}::uuid is null or exists (
        select 1 from sessions s where s.id = ${sessionId}::uuid and s.person_id = p.id and s.expires_at > now()))`;
  return row ? toPersonTeam(row) : null;
}

/** The Supabase Auth user a person signs in as; null for a local account (or no such person). */
export async function findAuthUserId(personId: string): Promise<string | null> {
  const [row] = await getDb()<{ auth_user_id: string | null }[]>`
    select auth_user_id from people where id = ${personId}`;
  return row?.auth_user_id ?? null;
}

/** The teams a person belongs to, in the order they joined them, with their role in each (the team switcher). */
export async function listPersonTeams(personId: string): Promise<(Account & { role: Role })[]> {
  return getDb()<(Account & { role: Role })[]>`
    select a.id, a.name, a.plan, a.created_at, m.role from memberships m join accounts a on a.id = m.account_id
    where m.person_id = ${personId} order by m.joined_at, m.account_id`;
}

/** A new team created by a signed-in person, who is its admin; the team and the membership in one statement. */
export async function createTeam(personId: string, name: string): Promise<Account> {
  const [team] = await getDb()<Account[]>`
    with team as (insert into accounts (name) values (${name}) returning id, name, plan, created_at),
    membership as (insert into memberships (account_id, person_id, role) select id, ${personId}, 'admin' from team)
    select * from team`;
  return team;
}

/**
 * The person of a Supabase Auth user: found by its auth user id (on every request after the first), else an
 * operator-created person with the same email and no auth user yet is linked, else a new person is created with their
 * own team. Null when the email already belongs to another auth user.
 *
 * The person's email follows the user's (a change of email confirmed in Supabase), in the same statement that finds
 * it: `email` is what Supabase said at `asOf` (a session's access token, when it was issued), and only news newer than
 * the row's last change moves it, so a session opened before the change, still valid elsewhere, never puts the old
 * address back. An address another person holds stays with that person, and this one keeps its own.
 */
export async function getOrCreatePersonForAuthUser(
  authUserId: string,
  email: string | null,
  asOf: Date | null,
): Promise<Person | null> {
  const db = getDb();
  const existing = await findSyncedAuthUserPerson(authUserId, email, asOf);
  if (existing) return existing;
  const address = email ?? `${authUserId}@users.supabase`;
  const [person] = await db<Person[]>`
    with linked as (
      update people set auth_user_id = ${authUserId}, updated_at = now()
      where lower(email) = lower(${address}) and auth_user_id is null
      returning id, email
    ), inserted as (
      insert into people (email, auth_user_id)
      select ${address}, ${authUserId} where not exists (select 1 from linked)
      on conflict do nothing
      returning id, email
    ), team as (
      insert into accounts (name) select left(email, 100) from inserted returning id
    ), membership as (
      insert into memberships (account_id, person_id, role) select team.id, inserted.id, 'admin' from team, inserted
    )
    select * from linked union all select * from inserted`;
  return person ?? null;
}

async function findSyncedAuthUserPerson(
  authUserId: string,
  email: string | null,
  asOf: Date | null,
): Promise<Person | null> {
  const db = getDb();
  try {
    const [person] = await db<Person[]>`
      with synced as (
        update people a set email = ${email}::text, updated_at = now()
        where a.auth_user_id = ${authUserId} and a.email <> ${email}::text and a.updated_at < ${asOf}::timestamptz
          and not exists (select 1 from people b where lower(b.email) = lower(${email}::text) and b.id <> a.id)
        returning a.id, a.email
      )
      select * from synced
      union all
      select id, email from people where auth_user_id = ${authUserId} and not exists (select 1 from synced)`;
    return person ?? null;
  } catch (error) {
    // Another person took the address between the check and the update: this one keeps its own.
    if ((error as { code?: string }).code !== "23505") throw error;
    const [person] = await db<Person[]>`select id, email from people where auth_user_id = ${authUserId}`;
    return person ?? null;
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
 * Sets a local person's password and ends every session of theirs but `keepSessionId` (the browser that changed it),
 * in one statement.
 */
export async function setPersonPassword(personId: string, passwordHash: string, keepSessionId: string | null) {
  await getDb()`
    with updated as (
      update people set password_hash = ${passwordHash}, updated_at = now() where id = ${personId} returning id
    )
    delete from sessions where person_id in (select id from updated) and id is distinct from ${keepSessionId}::uuid`;
}
