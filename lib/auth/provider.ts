import "server-only";
import { cookies } from "next/headers";
import { AuthError, WRONG_CREDENTIALS_MESSAGE, type Credentials } from "@/lib/auth/credentials";
import { authenticateLocalAccount, registerLocalAccount } from "@/lib/auth/local";
import {
  createLocalSessionToken,
  LOCAL_SESSION_COOKIE,
  SESSION_MAX_AGE_SECONDS,
  verifyLocalSessionToken,
} from "@/lib/auth/session";
import { getConfig } from "@/lib/config";
import { getOrCreateAccountForAuthUser } from "@/lib/db/accounts";

// Browser sessions behind one interface: Supabase Auth when NEXT_PUBLIC_SUPABASE_URL and its publishable key are set,
// local accounts with a signed cookie otherwise. Server Actions, Route Handlers and Server Components use this; the
// API's own credential check (lib/api/with-api-auth.ts → readSessionAccountId) reads the same cookies.

export type SignUpResult = { status: "signed_in" } | { status: "check_email" };

export interface AuthProvider {
  readonly name: "local" | "supabase";
  signUp(credentials: Credentials): Promise<SignUpResult>;
  /** Throws AuthError("INVALID_CREDENTIALS") for a wrong email or password. */
  signIn(credentials: Credentials): Promise<void>;
  signOut(): Promise<void>;
  /** The signed-in account's id from the request's cookies, or null. */
  currentAccountId(): Promise<string | null>;
}

const localProvider: AuthProvider = {
  name: "local",
  async signUp(credentials) {
    const account = await registerLocalAccount(credentials);
    await setLocalSession(account.id);
    return { status: "signed_in" };
  },
  async signIn(credentials) {
    const account = await authenticateLocalAccount(credentials);
    await setLocalSession(account.id);
  },
  async signOut() {
    (await cookies()).delete(LOCAL_SESSION_COOKIE);
  },
  async currentAccountId() {
    const token = (await cookies()).get(LOCAL_SESSION_COOKIE)?.value;
    return token ? verifyLocalSessionToken(token) : null;
  },
};

async function setLocalSession(accountId: string): Promise<void> {
  (await cookies()).set(LOCAL_SESSION_COOKIE, createLocalSessionToken(accountId), {
    httpOnly: true,
    sameSite: "lax",
    secure: getConfig().siteUrl.startsWith("https://"),
    path: "/",
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

const supabaseProvider: AuthProvider = {
  name: "supabase",
  async signUp(credentials) {
    const supabase = await supabaseClient();
    const { data, error } = await supabase.auth.signUp({
      email: credentials.email,
      password: credentials.password,
      options: { emailRedirectTo: `${getConfig().siteUrl}/auth/callback?next=/dashboard` },
    });
    if (error) throw mapSupabaseError(error);
    // With email confirmation on, Supabase answers without a session (and, for an email already registered, with a
    // user that has no identities: deliberately the same answer, so sign-up does not reveal who has an account).
    if (!data.session || !data.user) return { status: "check_email" };
    await linkAccountOrThrow(data.user.id, data.user.email ?? credentials.email);
    return { status: "signed_in" };
  },
  async signIn(credentials) {
    const supabase = await supabaseClient();
    const { data, error } = await supabase.auth.signInWithPassword(credentials);
    if (error) throw mapSupabaseError(error);
    await linkAccountOrThrow(data.user.id, data.user.email ?? credentials.email);
  },
  async signOut() {
    const supabase = await supabaseClient();
    await supabase.auth.signOut();
  },
  async currentAccountId() {
    const store = await cookies();
    if (!store.getAll().some((cookie) => /^sb-.+-auth-token(\.\d+)?$/.test(cookie.name))) return null;
    const supabase = await supabaseClient();
    const { data, error } = await supabase.auth.getClaims();
    if (error || !data?.claims?.sub) return null;
    const email = typeof data.claims.email === "string" ? data.claims.email : `${data.claims.sub}@users.supabase`;
    return (await getOrCreateAccountForAuthUser(data.claims.sub, email))?.id ?? null;
  },
};

// An email can belong to one sign-in only: a second Supabase user with an account's email is refused, not merged.
async function linkAccountOrThrow(authUserId: string, email: string): Promise<void> {
  if (!(await getOrCreateAccountForAuthUser(authUserId, email))) {
    throw new AuthError("EMAIL_TAKEN", "An account with this email already exists. Sign in with the method you used before.");
  }
}

async function supabaseClient() {
  const { createSupabaseServerClient } = await import("@/lib/supabase/server");
  return createSupabaseServerClient();
}

function mapSupabaseError(error: { message: string; code?: string; status?: number }): AuthError {
  const code = error.code ?? "";
  if (code === "invalid_credentials" || /invalid login credentials/i.test(error.message)) {
    return new AuthError("INVALID_CREDENTIALS", WRONG_CREDENTIALS_MESSAGE);
  }
  if (code === "email_not_confirmed" || /email not confirmed/i.test(error.message)) {
    return new AuthError("EMAIL_NOT_CONFIRMED", "Confirm your email address first: follow the link we sent you.");
  }
  if (code === "user_already_exists" || code === "email_exists") {
    return new AuthError("EMAIL_TAKEN", "An account with this email already exists. Sign in instead.", {
      email: "An account with this email already exists",
    });
  }
  if (code === "weak_password") return new AuthError("INVALID_INPUT", error.message, { password: error.message });
  if (code === "over_request_rate_limit" || error.status === 429) {
    return new AuthError("PROVIDER_ERROR", "Too many attempts. Wait a minute and try again.");
  }
  return new AuthError("PROVIDER_ERROR", `Sign-in is unavailable right now (${error.message}).`);
}

export function getAuthProvider(): AuthProvider {
  return getConfig().supabase ? supabaseProvider : localProvider;
}
