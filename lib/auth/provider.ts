import "server-only";
import { cookies } from "next/headers";
import { AppError } from "@/lib/core/errors";
import { SIGN_UP_FAILED_MESSAGE, WRONG_CREDENTIALS_MESSAGE, type Credentials } from "@/lib/auth/credentials";
import { authenticateLocalAccount, requestLocalSignUp } from "@/lib/auth/local";
import {
  changeLocalPassword,
  CURRENT_PASSWORD_WRONG_MESSAGE,
  requestLocalEmailChange,
  requestLocalPasswordReset,
} from "@/lib/auth/local-recovery";
import {
  createLocalSessionToken,
  LOCAL_SESSION_COOKIE,
  readLocalSessionClaims,
  readTeamChoice,
  SESSION_MAX_AGE_SECONDS,
} from "@/lib/auth/session";
import { withNextPath } from "@/lib/auth/next-path";
import { getConfig } from "@/lib/core/config";
import { findAuthUserId, findPersonTeam, type Person, type PersonTeam } from "@/lib/auth/data/accounts";
import { createSession, deletePersonSessions, deleteSession } from "@/lib/auth/data/sessions";
import type { SystemEmailDelivery } from "@/lib/mail-transport/system";

// Browser sessions behind one interface: Supabase Auth when NEXT_PUBLIC_SUPABASE_URL and its publishable key are set,
// local accounts with a signed cookie naming a server-side session otherwise. Server Actions, Route Handlers and Server
// Components use this; the API's own credential check (lib/api/with-api-auth.ts → readSession) reads the same cookies.

/** `check_email`: the link went to the address's inbox, or (local accounts with no email provider) the server log. */
export type SignUpResult = { status: "signed_in" } | { status: "check_email"; linkIn: SystemEmailDelivery };

/**
 * `linkOrigin`: the origin the browser asked (lib/api/client-address.ts, linkOrigin), where Supabase's email links
 * come back to, since the browser keeps the link's PKCE verifier as a cookie of that host. Local accounts' links go to
 * the site's URL, and need no cookie of the browser that asked.
 */
export interface AuthProvider {
  readonly name: "local" | "supabase";
  /** `next`, a path safeNextPath gave, is where the emailed link ends (after creating the account). */
  signUp(credentials: Credentials, linkOrigin: string, next: string): Promise<SignUpResult>;
  /** Throws an INVALID_CREDENTIALS AppError for a wrong email or password. */
  signIn(credentials: Credentials): Promise<void>;
  /** Ends this browser's session on the server too. */
  signOut(): Promise<void>;
  /** Ends every session of the signed-in person, this browser's included. */
  signOutEverywhere(): Promise<void>;
  /** The signed-in person from the request's cookies, in the team the switcher chose (else their first), or null. */
  currentSession(): Promise<PersonTeam | null>;
  /** "Forgot password?": mails the address a way to choose a new password, answering alike whether it has an account. */
  requestPasswordReset(email: string, linkOrigin: string): Promise<SystemEmailDelivery>;
  /**
   * Settings' change of password: the current one is checked (a wrong one is an INVALID_CREDENTIALS AppError on the
   * `currentPassword` field), and every other session of the account ends.
   */
  changePassword(person: Person, change: { currentPassword: string; password: string }): Promise<void>;
  /** Settings' change of email, after the current password: the new address is mailed a link that makes it. */
  changeEmail(
    person: Person,
    change: { email: string; currentPassword: string },
    linkOrigin: string,
  ): Promise<SystemEmailDelivery>;
  /**
   * The deletion of a person's sign-in, around the deletion of their row: checked before anything is deleted (an
   * AUTH_PROVIDER_ERROR AppError when it cannot be finished), it answers the step that ends the sign-in at the
   * provider once the row is gone.
   */
  prepareSignInDeletion(personId: string): Promise<() => Promise<void>>;
}

export const SIGN_IN_DELETION_UNAVAILABLE_MESSAGE =
  "Deleting a sign-in is not available on this server yet: it needs the Supabase project's secret key (SUPABASE_SECRET_KEY). Nothing was deleted; ask whoever runs this Letterpress server.";

const localProvider: AuthProvider = {
  name: "local",
  // The account is created, and signed in, from the page of the link sent to the address (app/(auth)/auth/confirm).
  async signUp(credentials, _linkOrigin, next) {
    return { status: "check_email", linkIn: await requestLocalSignUp(credentials, next) };
  },
  async signIn(credentials) {
    const person = await authenticateLocalAccount(credentials);
    await setLocalSession(person.id);
  },
  async signOut() {
    const claims = await localSessionClaims();
    if (claims) await deleteSession(claims.sessionId);
    (await cookies()).delete(LOCAL_SESSION_COOKIE);
  },
  async signOutEverywhere() {
    const claims = await localSessionClaims();
    if (claims) await deletePersonSessions(claims.sessionId);
    (await cookies()).delete(LOCAL_SESSION_COOKIE);
  },
  async currentSession() {
    const claims = await localSessionClaims();
    return claims ? findPersonTeam(claims.personId, claims.sessionId, readTeamChoice(await cookies())) : null;
  },
  // The link opens app/(auth)/auth/reset-password, whose form sets the password (lib/auth/local-recovery.ts).
  requestPasswordReset: requestLocalPasswordReset,
  async changePassword(person, change) {
    await changeLocalPassword(person, change, (await localSessionClaims())?.sessionId ?? null);
  },
  changeEmail: requestLocalEmailChange,
  // The person's sessions are rows of theirs: they go with the person.
  async prepareSignInDeletion() {
    return async () => {};
  },
};

async function localSessionClaims() {
  return readLocalSessionClaims(await cookies());
}

/** Starts a local session for the person and sets its cookie: sign-in, and a followed sign-up link. */
export async function setLocalSession(personId: string): Promise<void> {
  const session = await createSession(personId, SESSION_MAX_AGE_SECONDS);
  const token = createLocalSessionToken({ personId, sessionId: session.id, expiresAt: session.expires_at });
  (await cookies()).set(LOCAL_SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: getConfig().siteUrl.startsWith("https://"),
    path: "/",
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

const supabaseProvider: AuthProvider = {
  name: "supabase",
  async signUp(credentials, linkOrigin, next) {
    const supabase = await supabaseClient();
    const { data, error } = await supabase.auth.signUp({
      email: credentials.email,
      password: credentials.password,
      // The callback continues to `next` (the dashboard by default, with no query string). The README's Redirect URL
      // patterns end in `/**`, which admits `?next=/invite/…`; the callback checks `next` again.
      options: { emailRedirectTo: `${linkOrigin}${withNextPath("/auth/callback", next)}` },
    });
    if (error) throw mapSupabaseError(error);
    // With email confirmation on, Supabase answers without a session (and, for an email already registered, with a
    // user that has no identities: deliberately the same answer, so sign-up does not reveal who has an account).
    if (!data.session || !data.user) return { status: "check_email", linkIn: "inbox" };
    await linkAccountOrThrow({ id: data.user.id, email: data.user.email ?? credentials.email });
    return { status: "signed_in" };
  },
  async signIn(credentials) {
    const supabase = await supabaseClient();
    const { data, error } = await supabase.auth.signInWithPassword(credentials);
    if (error) throw mapSupabaseError(error);
    await linkAccountOrThrow({ id: data.user.id, email: data.user.email ?? credentials.email });
  },
  // Supabase revokes the refresh token(s); an access token already issued stays valid until it expires.
  async signOut() {
    const supabase = await supabaseClient();
    await supabase.auth.signOut({ scope: "local" });
  },
  async signOutEverywhere() {
    const supabase = await supabaseClient();
    await supabase.auth.signOut({ scope: "global" });
  },
  async currentSession() {
    const { currentSupabasePerson } = await import("@/lib/auth/supabase");
    const person = await currentSupabasePerson();
    return person ? findPersonTeam(person.id, null, readTeamChoice(await cookies())) : null;
  },
  // Supabase mails the link; it signs the browser in through the callback, which continues to the page that sets the
  // new password (setSupabasePassword). Supabase answers alike for addresses without a user.
  async requestPasswordReset(email, linkOrigin) {
    const supabase = await supabaseClient();
    const { error } = await supabase.auth.resetPasswordForEmail(email, {
      redirectTo: `${linkOrigin}/auth/callback?next=/auth/reset-password`,
    });
    if (error) throw mapSupabaseError(error);
    return "inbox";
  },
  async changePassword(person, change) {
    const supabase = await checkSupabasePassword(person, change.currentPassword);
    const { error } = await supabase.auth.updateUser({ password: change.password });
    if (error) throw mapSupabaseError(error);
    const { error: signOutError } = await supabase.auth.signOut({ scope: "others" });
    if (signOutError) throw mapSupabaseError(signOutError);
  },
  // Supabase mails the new address (and, with Secure email change on, the old one) its confirmation links.
  async changeEmail(person, change, linkOrigin) {
    const supabase = await checkSupabasePassword(person, change.currentPassword);
    const { error } = await supabase.auth.updateUser(
      { email: change.email },
      { emailRedirectTo: `${linkOrigin}/auth/callback?next=/dashboard/settings` },
    );
    if (error) throw mapSupabaseError(error);
    return "inbox";
  },
  // The Auth user goes too (the admin API, with the secret key), or its next sign-in would make a new, empty person.
  async prepareSignInDeletion(personId) {
    const secretKey = getConfig().supabase?.secretKey;
    if (!secretKey) throw new AppError("AUTH_PROVIDER_ERROR", { message: SIGN_IN_DELETION_UNAVAILABLE_MESSAGE });
    const authUserId = await findAuthUserId(personId);
    return async () => {
      if (!authUserId) return;
      // This browser's session first, while its user exists: its cookies would sign a new person in until they expire.
      await (await supabaseClient()).auth.signOut({ scope: "local" });
      const { createSupabaseAdminClient } = await import("@/lib/auth/supabase-client/admin");
      const { error } = await createSupabaseAdminClient(secretKey).auth.admin.deleteUser(authUserId);
      // A user deleted already (from Supabase's dashboard, say) is what was wanted.
      if (error && error.status !== 404) throw mapSupabaseError(error);
    };
  },
};

/**
 * The reset page's new password with Supabase: the browser was signed in by the reset link (through /auth/callback),
 * and every other session ends.
 */
export async function setSupabasePassword(password: string): Promise<void> {
  const supabase = await supabaseClient();
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw mapSupabaseError(error);
  await supabase.auth.signOut({ scope: "others" });
}

/** Supabase checks a password only by signing in with it: a fresh session of the same user, which the change keeps. */
async function checkSupabasePassword(person: Person, currentPassword: string) {
  const supabase = await supabaseClient();
  const { error } = await supabase.auth.signInWithPassword({ email: person.email, password: currentPassword });
  if (error) {
    const mapped = mapSupabaseError(error);
    if (mapped.code !== "INVALID_CREDENTIALS") throw mapped;
    throw new AppError("INVALID_CREDENTIALS", {
      message: CURRENT_PASSWORD_WRONG_MESSAGE,
      details: [{ field: "currentPassword", message: CURRENT_PASSWORD_WRONG_MESSAGE }],
    });
  }
  return supabase;
}

// An email can belong to one sign-in only: a second Supabase user with a person's email is refused, not merged.
// The user is the one Supabase has just answered with: its email is as of now.
async function linkAccountOrThrow(user: { id: string; email: string }): Promise<void> {
  const { personForSupabaseUser } = await import("@/lib/auth/supabase");
  if (!(await personForSupabaseUser(user, new Date()))) {
    throw new AppError("EMAIL_TAKEN", {
      message: "We couldn't sign you in with that email. Sign in the way you did before, or contact support.",
    });
  }
}

async function supabaseClient() {
  const { createSupabaseServerClient } = await import("@/lib/auth/supabase-client/server");
  return createSupabaseServerClient();
}

function mapSupabaseError(error: { message: string; code?: string; status?: number }): AppError {
  const code = error.code ?? "";
  if (code === "invalid_credentials" || /invalid login credentials/i.test(error.message)) {
    return new AppError("INVALID_CREDENTIALS", { message: WRONG_CREDENTIALS_MESSAGE });
  }
  if (code === "email_not_confirmed" || /email not confirmed/i.test(error.message)) {
    return new AppError("EMAIL_NOT_CONFIRMED", {
      message: "Confirm your email address first: follow the link we sent you.",
    });
  }
  // Only with email confirmation off does Supabase tell sign-up that an address is registered; our answer names no account.
  if (code === "user_already_exists" || code === "email_exists")
    return new AppError("INVALID_CREDENTIALS", { message: SIGN_UP_FAILED_MESSAGE });
  if (code === "weak_password")
    return new AppError("VALIDATION_ERROR", {
      message: error.message,
      details: [{ field: "password", message: error.message }],
    });
  if (code === "over_request_rate_limit" || error.status === 429) {
    return new AppError("AUTH_PROVIDER_ERROR", { message: "Too many attempts. Wait a minute and try again." });
  }
  return new AppError("AUTH_PROVIDER_ERROR", { message: `Sign-in is unavailable right now (${error.message}).` });
}

export function getAuthProvider(): AuthProvider {
  return getConfig().supabase ? supabaseProvider : localProvider;
}
