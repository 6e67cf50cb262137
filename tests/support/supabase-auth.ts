import { createHash, createHmac, generateKeyPairSync, randomBytes, randomUUID, sign, verify } from "node:crypto";
import type { KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { envForSuite } from "./env";

// A stand-in for a Supabase project's Auth (GoTrue behind Supabase's API gateway) on 127.0.0.1, for @supabase/ssr to
// talk to as it talks to a real project: access tokens are ES256 JWTs whose public keys are published at
// `/auth/v1/.well-known/jwks.json`, the password, refresh-token and PKCE grants of `/auth/v1/token`, `/auth/v1/user`,
// sign-up, password recovery and a change of email with their links (`/auth/v1/verify`) and sign-out answer with GoTrue's shapes (internal/api in
// supabase/auth: AccessTokenResponse, models.User, and errors as `{ code, message }` for a client that sends
// X-Supabase-Api-Version 2024-01-01, as auth-js does), refresh tokens are single-use (a project whose reuse interval is
// 0), and every request but the public ones must carry the project's API key, as the gateway requires.

export type StandInUser = {
  id: string;
  email: string;
  password: string;
  userMetadata: Record<string, unknown>;
  confirmedAt: string | null;
  createdAt: string;
};

/** A session as GoTrue answers it and as supabase-js stores it in the `sb-<ref>-auth-token` cookie. */
export type StandInSession = {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
};

/**
 * An email GoTrue would send: the link of a sign-up's confirmation, a password recovery or a change of email (to the
 * new address), and where that link continues to.
 */
export type StandInEmail = {
  type: LinkType;
  to: string;
  confirmationUrl: string;
  redirectTo: string;
  tokenHash: string;
};

type LinkType = "signup" | "recovery" | "email_change";
type Confirmation = {
  type: LinkType;
  userId: string;
  redirectTo: string;
  challenge: string | null;
  method: string | null;
  /** A change of email's new address, which the user's becomes when the link is followed. */
  newEmail: string | null;
};

type SigningKey = { kid: string; privateKey: KeyObject; publicKey: KeyObject };

const API_VERSION_HEADER = "x-supabase-api-version";
// Unlike the rest of /auth/v1, the gateway lets these through without an API key: the JWKS is public, and a
// confirmation link is opened by the person's mail client.
const PUBLIC_ROUTES = new Set(["GET /auth/v1/.well-known/jwks.json", "GET /auth/v1/verify"]);

class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class SupabaseAuthStandIn {
  /** The project URL (NEXT_PUBLIC_SUPABASE_URL); set once the stand-in listens. */
  url = "";
  /** The project's legacy anon key, as the Supabase integration for Vercel sets NEXT_PUBLIC_SUPABASE_ANON_KEY. */
  readonly anonKey: string;
  /** Its legacy service_role key (SUPABASE_SERVICE_ROLE_KEY): the only key the Auth admin API takes. */
  readonly serviceRoleKey: string;
  /** The users deleted through the admin API, in order. */
  readonly deletedUsers: string[] = [];
  /** While true, the admin API answers 500, as GoTrue does when its database fails. */
  adminOutage = false;
  /** Every request, as `METHOD /path?query`, and the API key it carried. */
  readonly requests: string[] = [];
  readonly apiKeys: (string | undefined)[] = [];
  /** Every session issued (sign-in, refresh, confirmation), newest last. */
  readonly issued: StandInSession[] = [];
  /** The emails sent, newest last. */
  readonly emails: StandInEmail[] = [];
  /** The changes of email asked for through updateUser, newest last (each also mails the new address its link). */
  readonly emailChanges: { userId: string; email: string }[] = [];
  /** The project's URL configuration (Authentication → URL Configuration) and whether sign-up waits for the email. */
  readonly settings = {
    siteUrl: "http://localhost:3000",
    redirectUrls: [] as string[],
    confirmEmail: false,
  };
  /** A key of another project: tokens signed with it must be refused. */
  readonly foreignKey: KeyObject = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;

  private server: Server | undefined;
  private readonly keys: SigningKey[] = [];
  private readonly users = new Map<string, StandInUser>();
  private readonly sessions = new Map<string, { userId: string }>();
  private readonly refreshTokens = new Map<string, { sessionId: string; used: boolean }>();
  private readonly confirmations = new Map<string, Confirmation>();
  private readonly authCodes = new Map<string, { userId: string; challenge: string; method: string }>();

  constructor() {
    this.rotateSigningKey();
    const now = Math.floor(Date.now() / 1000);
    this.anonKey = hs256(
      { iss: "supabase", ref: "standin", role: "anon", iat: now, exp: now + 10 * 365 * 86400 },
      "the-project-jwt-secret",
    );
    this.serviceRoleKey = hs256(
      { iss: "supabase", ref: "standin", role: "service_role", iat: now, exp: now + 10 * 365 * 86400 },
      "the-project-jwt-secret",
    );
  }

  /** @supabase/ssr's cookie name: `sb-` + the first label of the project's host + `-auth-token`. */
  get cookieName(): string {
    return `sb-${new URL(this.url).hostname.split(".")[0]}-auth-token`;
  }

  /** The signing key tokens are issued with now. */
  get kid(): string {
    return this.keys.at(-1)!.kid;
  }

  /** How many times the JWKS was fetched. */
  get jwksFetches(): number {
    return this.requests.filter((line) => line === "GET /auth/v1/.well-known/jwks.json").length;
  }

  /** Rotates the signing key as a project does: the new one signs from now on, the old ones stay in the JWKS. */
  rotateSigningKey(): string {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const kid = randomUUID();
    this.keys.push({ kid, privateKey, publicKey });
    return kid;
  }

  async listen(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A user of the project (confirmed unless told otherwise), as the dashboard or sign-up would create one. */
  createUser(
    options: { email?: string; password?: string; userMetadata?: Record<string, unknown>; confirmed?: boolean } = {},
  ): StandInUser {
    const now = new Date().toISOString();
    const user: StandInUser = {
      id: randomUUID(),
      email: options.email ?? `sb-${randomUUID().slice(0, 8)}@example.com`,
      password: options.password ?? "correct horse battery staple",
      userMetadata: options.userMetadata ?? {},
      confirmedAt: options.confirmed === false ? null : now,
      createdAt: now,
    };
    this.users.set(user.id, user);
    return user;
  }

  /** Whether the project still has the user. */
  hasUser(id: string): boolean {
    return this.users.has(id);
  }

  /** A JWT signed with the current key (or `key`, under `kid`), as the project signs access tokens. */
  signToken(claims: Record<string, unknown>, options: { key?: KeyObject; kid?: string } = {}): string {
    const current = this.keys.at(-1)!;
    const header = b64url(JSON.stringify({ alg: "ES256", kid: options.kid ?? current.kid, typ: "JWT" }));
    const payload = b64url(JSON.stringify(claims));
    // JWS wants the raw r||s signature (IEEE P1363), not DER.
    const signature = sign("sha256", Buffer.from(`${header}.${payload}`), {
      key: options.key ?? current.privateKey,
      dsaEncoding: "ieee-p1363",
    });
    return `${header}.${payload}.${b64url(signature)}`;
  }

  /** The claims GoTrue puts in a user's access token. */
  accessTokenClaims(
    user: Pick<StandInUser, "id" | "email"> & Partial<StandInUser>,
    options: { expiresIn?: number; sessionId?: string } = {},
  ) {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: `${this.url}/auth/v1`,
      sub: user.id,
      aud: "authenticated",
      exp: now + (options.expiresIn ?? 3600),
      iat: now - 10,
      email: user.email,
      phone: "",
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: user.userMetadata ?? {},
      role: "authenticated",
      aal: "aal1",
      amr: [{ method: "password", timestamp: now - 10 }],
      session_id: options.sessionId ?? randomUUID(),
      is_anonymous: false,
    };
  }

  /** Starts a session for the user as a sign-in does; `expiresIn` below 0 gives one whose access token has expired. */
  issueSession(user: StandInUser, options: { expiresIn?: number } = {}): StandInSession {
    return this.sessionResponse(user, this.newSession(user), options.expiresIn ?? 3600);
  }

  /** A confirmation email for a new, unconfirmed user, as sign-up sends one: its token hash works once. */
  pendingConfirmation(user: StandInUser, redirectTo = this.settings.siteUrl): StandInEmail {
    return this.mailConfirmation(user, { type: "signup", redirectTo, challenge: null, method: null, newEmail: null });
  }

  private sessionResponse(user: StandInUser, sessionId: string, expiresIn: number): StandInSession {
    const refreshToken = randomBytes(9).toString("base64url");
    this.refreshTokens.set(refreshToken, { sessionId, used: false });
    const session: StandInSession = {
      access_token: this.signToken(this.accessTokenClaims(user, { expiresIn, sessionId })),
      token_type: "bearer",
      expires_in: expiresIn,
      expires_at: Math.floor(Date.now() / 1000) + expiresIn,
      refresh_token: refreshToken,
      user: userJson(user),
    };
    this.issued.push(session);
    return session;
  }

  private mailConfirmation(user: StandInUser, confirmation: Omit<Confirmation, "userId">): StandInEmail {
    const tokenHash = createHash("sha224").update(randomBytes(16)).digest("hex");
    this.confirmations.set(tokenHash, { ...confirmation, userId: user.id });
    const { type, redirectTo } = confirmation;
    const link = new URL(`${this.url}/auth/v1/verify`);
    link.search = new URLSearchParams({ token: tokenHash, type, redirect_to: redirectTo }).toString();
    const email = {
      type,
      to: confirmation.newEmail ?? user.email,
      confirmationUrl: link.toString(),
      redirectTo,
      tokenHash,
    };
    this.emails.push(email);
    return email;
  }

  /**
   * GoTrue's GetReferrer: the redirect the client asked for (`redirect_to`) when the project allows it, else the Site
   * URL; and the PKCE challenge the client sent with the request, which the link's code is exchanged against.
   */
  private linkFor(type: LinkType, url: URL, body: Record<string, unknown>, newEmail: string | null = null) {
    const asked = url.searchParams.get("redirect_to");
    return {
      type,
      redirectTo: asked && isRedirectUrlAllowed(this.settings, asked) ? asked : this.settings.siteUrl,
      challenge: typeof body.code_challenge === "string" ? body.code_challenge : null,
      method: typeof body.code_challenge_method === "string" ? body.code_challenge_method : null,
      newEmail,
    };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const route = `${request.method} ${url.pathname}`;
    const apiKey = headerValue(request, "apikey");
    this.requests.push(`${request.method} ${request.url}`);
    this.apiKeys.push(apiKey);
    const versioned = headerValue(request, API_VERSION_HEADER) === "2024-01-01";
    if (versioned) response.setHeader(API_VERSION_HEADER, "2024-01-01");
    response.setHeader("content-type", "application/json");
    try {
      if (!PUBLIC_ROUTES.has(route) && apiKey !== this.anonKey && apiKey !== this.serviceRoleKey) {
        // The gateway's own answer, before GoTrue sees the request.
        response.statusCode = 401;
        response.end(JSON.stringify({ message: apiKey ? "Invalid API key" : "No API key found in request" }));
        return;
      }
      const body = request.method === "POST" || request.method === "PUT" ? await readJson(request) : {};
      const answer = url.pathname.startsWith("/auth/v1/admin/")
        ? this.adminRoute(route, apiKey)
        : this.route(route, url, body, request);
      if (answer === undefined) throw new AuthError(404, "not_found", "Not Found");
      if ("redirect" in answer) {
        response.statusCode = 303;
        response.setHeader("location", answer.redirect);
        response.end();
      } else if (answer.json === null) {
        response.statusCode = 204;
        response.end();
      } else {
        response.end(JSON.stringify(answer.json));
      }
    } catch (error) {
      const failure = error instanceof AuthError ? error : new AuthError(500, "unexpected_failure", String(error));
      response.statusCode = failure.status;
      response.end(
        JSON.stringify(
          versioned
            ? { code: failure.code, message: failure.message }
            : { code: failure.status, error_code: failure.code, msg: failure.message },
        ),
      );
    }
  }

  private route(
    route: string,
    url: URL,
    body: Record<string, unknown>,
    request: IncomingMessage,
  ): { json: unknown } | { redirect: string } | undefined {
    switch (route) {
      case "GET /auth/v1/.well-known/jwks.json":
        return {
          json: {
            keys: this.keys.map(({ kid, publicKey }) => ({
              ...publicKey.export({ format: "jwk" }),
              kid,
              alg: "ES256",
              use: "sig",
              key_ops: ["verify"],
            })),
          },
        };
      case "POST /auth/v1/token":
        return { json: this.grant(url.searchParams.get("grant_type"), body) };
      case "GET /auth/v1/user":
        return { json: userJson(this.userOfToken(bearer(request))) };
      // updateUser: a new password takes effect at once; a new email when the link mailed to it is followed (a project
      // with Secure email change off: with it on, GoTrue also waits for a link mailed to the old address).
      case "PUT /auth/v1/user": {
        const user = this.userOfToken(bearer(request));
        if (typeof body.password === "string") user.password = body.password;
        if (typeof body.email === "string") {
          const email = body.email.toLowerCase();
          this.emailChanges.push({ userId: user.id, email });
          this.mailConfirmation(user, this.linkFor("email_change", url, body, email));
        }
        return { json: userJson(user) };
      }
      // resetPasswordForEmail: GoTrue answers every address alike, and mails only an address with a user.
      case "POST /auth/v1/recover": {
        const user = [...this.users.values()].find((candidate) => candidate.email === body.email);
        if (user) this.mailConfirmation(user, this.linkFor("recovery", url, body));
        return { json: {} };
      }
      case "POST /auth/v1/signup":
        return { json: this.signUp(body, url) };
      case "POST /auth/v1/verify": {
        const { user } = this.confirm(String(body.token_hash ?? ""));
        return { json: this.sessionResponse(user, this.newSession(user), 3600) };
      }
      case "GET /auth/v1/verify":
        return { redirect: this.followConfirmationLink(url) };
      case "POST /auth/v1/logout": {
        const claims = this.verifiedClaims(bearer(request));
        const scope = url.searchParams.get("scope") ?? "global";
        for (const [id, session] of this.sessions) {
          const ended =
            scope === "global"
              ? session.userId === claims.sub
              : scope === "others"
                ? session.userId === claims.sub && id !== claims.session_id
                : id === claims.session_id;
          if (ended) this.sessions.delete(id);
        }
        return { json: null };
      }
      default:
        return undefined;
    }
  }

  /**
   * GoTrue's admin API (internal/api/admin.go): reading a user (auth-js's deleteUser reads it first, to answer it) and
   * deleting one (a hard delete), which ends its sessions too.
   */
  private adminRoute(route: string, apiKey: string | undefined): { json: unknown } | undefined {
    if (apiKey !== this.serviceRoleKey) throw new AuthError(403, "not_admin", "User not allowed");
    const [, method, id] = /^(GET|DELETE) \/auth\/v1\/admin\/users\/([^/]+)$/.exec(route) ?? [];
    if (!id) return undefined;
    const user = this.users.get(id);
    if (!user) throw new AuthError(404, "user_not_found", "User not found");
    if (method === "GET") return { json: userJson(user) };
    if (this.adminOutage) throw new AuthError(500, "unexpected_failure", "Database error deleting user");
    this.users.delete(id);
    for (const [sessionId, session] of this.sessions) if (session.userId === id) this.sessions.delete(sessionId);
    this.deletedUsers.push(id);
    return { json: {} };
  }

  private grant(type: string | null, body: Record<string, unknown>): StandInSession {
    if (type === "password") {
      const user = [...this.users.values()].find((candidate) => candidate.email === body.email);
      if (!user || user.password !== body.password)
        throw new AuthError(400, "invalid_credentials", "Invalid login credentials");
      if (!user.confirmedAt) throw new AuthError(400, "email_not_confirmed", "Email not confirmed");
      return this.sessionResponse(user, this.newSession(user), 3600);
    }
    if (type === "refresh_token") {
      const token = this.refreshTokens.get(String(body.refresh_token ?? ""));
      if (!token || !this.sessions.has(token.sessionId))
        throw new AuthError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
      if (token.used) throw new AuthError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
      token.used = true;
      const user = this.users.get(this.sessions.get(token.sessionId)!.userId)!;
      return this.sessionResponse(user, token.sessionId, 3600);
    }
    if (type === "pkce") {
      const code = this.authCodes.get(String(body.auth_code ?? ""));
      if (!code) throw new AuthError(404, "flow_state_not_found", "invalid flow state, no valid flow state found");
      this.authCodes.delete(String(body.auth_code));
      if (pkceChallenge(String(body.code_verifier ?? ""), code.method) !== code.challenge)
        throw new AuthError(400, "bad_code_verifier", "code challenge does not match previously saved code verifier");
      const user = this.users.get(code.userId)!;
      return this.sessionResponse(user, this.newSession(user), 3600);
    }
    throw new AuthError(400, "validation_failed", "unsupported_grant_type");
  }

  private signUp(body: Record<string, unknown>, url: URL): unknown {
    const email = String(body.email ?? "").toLowerCase();
    const existing = [...this.users.values()].find((user) => user.email === email);
    if (!this.settings.confirmEmail) {
      if (existing) throw new AuthError(422, "user_already_exists", "User already registered");
      const user = this.createUser({ email, password: String(body.password ?? "") });
      return this.sessionResponse(user, this.newSession(user), 3600);
    }
    // With confirmation on, an address already registered gets the same answer, without identities, and no email.
    if (existing) return { ...userJson(existing), identities: [] };
    const user = this.createUser({ email, password: String(body.password ?? ""), confirmed: false });
    this.mailConfirmation(user, this.linkFor("signup", url, body));
    return userJson(user);
  }

  private confirm(tokenHash: string): { user: StandInUser } & Pick<Confirmation, "type" | "challenge" | "method"> {
    const confirmation = this.confirmations.get(tokenHash);
    if (!confirmation) throw new AuthError(403, "otp_expired", "Email link is invalid or has expired");
    this.confirmations.delete(tokenHash);
    const user = this.users.get(confirmation.userId)!;
    user.confirmedAt ??= new Date().toISOString();
    if (confirmation.newEmail) user.email = confirmation.newEmail;
    return { user, type: confirmation.type, challenge: confirmation.challenge, method: confirmation.method };
  }

  /** The link in the email: confirms, then continues to the redirect with a PKCE code (or the session, implicit flow). */
  private followConfirmationLink(url: URL): string {
    const redirectTo = url.searchParams.get("redirect_to") ?? this.settings.siteUrl;
    const { user, type, challenge, method } = this.confirm(url.searchParams.get("token") ?? "");
    const target = new URL(redirectTo);
    if (challenge && method) {
      const code = randomUUID();
      this.authCodes.set(code, { userId: user.id, challenge, method });
      target.searchParams.set("code", code);
    } else {
      const session = this.sessionResponse(user, this.newSession(user), 3600);
      target.hash = new URLSearchParams({
        access_token: session.access_token,
        refresh_token: session.refresh_token,
        expires_in: String(session.expires_in),
        token_type: "bearer",
        type,
      }).toString();
    }
    return target.toString();
  }

  private newSession(user: StandInUser): string {
    const sessionId = randomUUID();
    this.sessions.set(sessionId, { userId: user.id });
    return sessionId;
  }

  private verifiedClaims(token: string | null): { sub: string; session_id: string } {
    if (!token) throw new AuthError(401, "no_authorization", "This endpoint requires a valid Bearer token");
    const invalid = (reason: string) =>
      new AuthError(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${reason}`);
    const [rawHeader, rawPayload, signature] = token.split(".");
    let header: { alg?: string; kid?: string };
    let claims: { sub?: string; session_id?: string; exp?: number };
    try {
      header = JSON.parse(Buffer.from(rawHeader, "base64url").toString("utf8"));
      claims = JSON.parse(Buffer.from(rawPayload, "base64url").toString("utf8"));
    } catch {
      throw invalid("token is malformed");
    }
    const key = this.keys.find(({ kid }) => kid === header.kid);
    const valid =
      header.alg === "ES256" &&
      key !== undefined &&
      signature !== undefined &&
      verify(
        "sha256",
        Buffer.from(`${rawHeader}.${rawPayload}`),
        {
          key: key.publicKey,
          dsaEncoding: "ieee-p1363",
        },
        Buffer.from(signature, "base64url"),
      );
    if (!valid) throw invalid("token signature is invalid");
    if (typeof claims.exp !== "number" || claims.exp <= Date.now() / 1000)
      throw invalid("token has invalid claims: token is expired");
    if (!claims.sub || !claims.session_id || !this.sessions.has(claims.session_id))
      throw new AuthError(403, "session_not_found", "Session from session_id claim in JWT does not exist");
    return { sub: claims.sub, session_id: claims.session_id };
  }

  private userOfToken(token: string | null): StandInUser {
    const user = this.users.get(this.verifiedClaims(token).sub);
    if (!user) throw new AuthError(403, "user_not_found", "User from sub claim in JWT does not exist");
    return user;
  }
}

/**
 * Supabase Auth as the Supabase integration for Vercel configures it, for the calling file's tests: the stand-in's URL
 * as NEXT_PUBLIC_SUPABASE_URL and its anon key as NEXT_PUBLIC_SUPABASE_ANON_KEY, with no publishable key set.
 */
export function useSupabaseAuthStandIn(): SupabaseAuthStandIn {
  const standIn = new SupabaseAuthStandIn();
  beforeAll(() => standIn.listen());
  afterAll(() => standIn.close());
  envForSuite(() => ({
    NEXT_PUBLIC_SUPABASE_URL: standIn.url,
    NEXT_PUBLIC_SUPABASE_ANON_KEY: standIn.anonKey,
    NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: undefined,
  }));
  return standIn;
}

/**
 * The cookies @supabase/ssr writes for a session: `base64-` and the base64url of its JSON, under `name`, or split into
 * `name.0`, `name.1`, … when longer than 3,180 characters (its MAX_CHUNK_SIZE; base64url needs no URI escaping).
 */
export function sessionCookies(name: string, session: unknown): { name: string; value: string }[] {
  const value = `base64-${b64url(JSON.stringify(session))}`;
  if (value.length <= 3180) return [{ name, value }];
  const chunks: { name: string; value: string }[] = [];
  for (let offset = 0; offset < value.length; offset += 3180)
    chunks.push({ name: `${name}.${chunks.length}`, value: value.slice(offset, offset + 3180) });
  return chunks;
}

/** A Cookie header holding the cookies. */
export function cookieHeader(cookies: Iterable<{ name: string; value: string }> | Map<string, string>): string {
  const pairs = cookies instanceof Map ? [...cookies].map(([name, value]) => ({ name, value })) : [...cookies];
  return pairs.map(({ name, value }) => `${name}=${value}`).join("; ");
}

/** The session the cookies hold, read back as @supabase/ssr reads it (the whole cookie, else its chunks in order). */
export function readSessionCookies(name: string, cookies: Map<string, string>): StandInSession | null {
  let value = cookies.get(name);
  if (!value) {
    value = "";
    for (let index = 0; cookies.get(`${name}.${index}`); index++) value += cookies.get(`${name}.${index}`);
  }
  if (!value.startsWith("base64-")) return null;
  return JSON.parse(Buffer.from(value.slice("base64-".length), "base64url").toString("utf8")) as StandInSession;
}

/**
 * Whether GoTrue sends a confirmation link on to `redirectUrl` (internal/utilities/request.go, IsRedirectURLValid):
 * when it is on the Site URL's scheme, host and port, or matches a Redirect URL of the project. Those are globs
 * (gobwas/glob with `.` and `/` as separators) matched against the whole URL without its fragment: `*` never crosses
 * a `.` or `/`, `**` crosses anything, `?` is one character that is neither.
 */
export function isRedirectUrlAllowed(
  settings: { siteUrl: string; redirectUrls: string[] },
  redirectUrl: string,
): boolean {
  const site = new URL(settings.siteUrl);
  const target = new URL(redirectUrl);
  if (site.protocol === target.protocol && site.host === target.host) return true;
  const withoutFragment = redirectUrl.split("#")[0];
  return settings.redirectUrls.some((pattern) => redirectUrlGlob(pattern).test(withoutFragment));
}

/** A Supabase Redirect URL pattern as a regular expression (only the syntax these tests use: `**`, `*`, `?`). */
export function redirectUrlGlob(pattern: string): RegExp {
  if (/[[\]{}\\]/.test(pattern)) throw new Error(`unsupported glob syntax in ${pattern}`);
  let source = "";
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === "*" && pattern[index + 1] === "*") {
      source += ".*";
      index++;
    } else if (char === "*") source += "[^./]*";
    else if (char === "?") source += "[^./]";
    else source += char.replace(/[.+^$()|]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

function userJson(user: StandInUser): Record<string, unknown> {
  const identity = {
    identity_id: user.id,
    id: user.id,
    user_id: user.id,
    identity_data: {
      email: user.email,
      email_verified: user.confirmedAt !== null,
      phone_verified: false,
      sub: user.id,
    },
    provider: "email",
    last_sign_in_at: user.createdAt,
    created_at: user.createdAt,
    updated_at: user.createdAt,
    email: user.email,
  };
  return {
    id: user.id,
    aud: "authenticated",
    role: "authenticated",
    email: user.email,
    email_confirmed_at: user.confirmedAt ?? undefined,
    phone: "",
    confirmed_at: user.confirmedAt ?? undefined,
    last_sign_in_at: user.confirmedAt ?? undefined,
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: user.userMetadata,
    identities: [identity],
    created_at: user.createdAt,
    updated_at: user.createdAt,
    is_anonymous: false,
  };
}

/** An HS256 JWT: the legacy anon key's form, and a token the project's asymmetric keys did not sign. */
export function hs256(claims: Record<string, unknown>, secret: string): string {
  const header = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64url(JSON.stringify(claims));
  return `${header}.${payload}.${createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url")}`;
}

function pkceChallenge(verifier: string, method: string): string {
  return method.toLowerCase() === "s256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function bearer(request: IncomingMessage): string | null {
  const authorization = headerValue(request, "authorization") ?? "";
  return authorization.toLowerCase().startsWith("bearer ") ? authorization.slice(7) : null;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  request.setEncoding("utf8");
  for await (const chunk of request) text += chunk;
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new AuthError(400, "bad_json", "Could not parse request body as JSON");
  }
}
