import "server-only";
import { randomUUID } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { apiKeyProblem, hashApiKey } from "@/lib/api-keys/service";
import { clientAddress, isSameOrigin } from "@/lib/api/client-address";
import { httpError } from "@/lib/api/errors";
import { readJsonBody } from "@/lib/api/json-body";
import { AppError, CREDENTIAL_PROBLEMS, errors, secondsUntil, zodDetails } from "@/lib/core/errors";
import { hasSessionCookie, readSession, readTeamChoice, type SessionIdentity } from "@/lib/auth/session";
import { isExpiredApiKey } from "@/lib/api-keys/data";
import { findPersonTeam } from "@/lib/auth/data/accounts";
import { holdsNul } from "@/lib/core/schemas";
import { getConfig } from "@/lib/core/config";
import { authenticateAndMeter, type Credential, type MeteredCaller } from "@/lib/usage/data/metering";
import { billingPeriod } from "@/lib/core/plans";
import { runAsActor, type AuditActor } from "@/lib/audit/context";

/** What a request to the API can carry: a key, or a browser session. */
type ApiCredential = Exclude<Credential, { kind: "account" }>;

export type Caller = MeteredCaller & {
  via: "api_key" | "session";
  /** A browser session refreshed while authenticating: its cookies go on the response. */
  refreshedCookies: SessionIdentity["refreshedCookies"];
};

export type HandlerContext<Q, B> = {
  request: NextRequest;
  caller: Caller;
  params: Record<string, string>;
  query: Q;
  body: B;
  requestId: string;
};

type Options<Q extends z.ZodType | undefined, B extends z.ZodType | undefined> = {
  /** Counts against the monthly API quota (and may answer 429). */
  metered: boolean;
  /**
   * A sending_access key may call the route (sending and what follows a send: emails, cancel, usage). Other routes
   * answer such a key 403 INSUFFICIENT_SCOPE, without counting the call.
   */
  sendingAccess?: boolean;
  query?: Q;
  /** Schema of the JSON body; a missing or empty body parses as `{}`. */
  body?: B;
  /** The route's 404, for a path parameter that can name nothing stored (one holding NUL); NOT_FOUND by default. */
  notFound?: () => AppError;
  /**
   * Admits the caller's request, or throws the refusal (a limit of the route's own, such as the dashboard's previews):
   * after the credentials, the month's calls and the path, before the query and the body are read.
   */
  admit?: (caller: Caller, request: NextRequest) => Promise<void>;
};

/** What a route's query or body schema parses to; `undefined` without one. */
export type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * Composes every /api/v1 route: request id → credentials → account and metering (one SQL statement) → zod-parsed
 * input → handler → one error mapper. Rate-limit and request-id headers are attached here, to every response, so no handler can forget
 * them. Handlers return a JSON body (status 200) or a Response, and fail only by throwing.
 */
export function withApiAuth<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  options: Options<Q, B>,
  handler: (ctx: HandlerContext<Infer<Q>, Infer<B>>) => Promise<Record<string, unknown> | Response>,
) {
  return async (request: NextRequest, context?: RouteContext): Promise<Response> => {
    const requestId = randomUUID();
    const { start, reset } = billingPeriod();
    let caller: Caller | null = null;
    let response: Response;
    try {
      // Input errors come after 401 and 429, and a call with a bad query or body is still counted. Whatever refuses a
      // request does so before its body is read, so that a refused request costs no reading or parsing.
      const { credential, refreshedCookies } = await readCredential(request);
      caller = await authenticate(credential, refreshedCookies, options, start);
      if (caller.insufficientScope) throw errors.insufficientScope();
      if (caller.metered && !caller.allowed) throw rateLimitExceeded(caller, reset);
      const params = await readParams(context, options.notFound ?? errors.notFound);
      await options.admit?.(caller, request);
      const query = options.query ? parseQuery(request, options.query) : undefined;
      const body = options.body ? parseBody(await readJsonBody(request), options.body) : undefined;
      const ctx = { request, caller, params, query: query as Infer<Q>, body: body as Infer<B>, requestId };
      const result = await runAsActor({ actor: auditActor(caller), ip: clientAddress(request.headers) }, () =>
        handler(ctx),
      );
      response = result instanceof Response ? result : NextResponse.json(result);
    } catch (error) {
      response = errorResponse(error, requestId, request.signal.aborted);
    }
    response.headers.set("X-Request-Id", requestId);
    if (caller?.refreshedCookies.length) {
      const withCookies = response instanceof NextResponse ? response : new NextResponse(response.body, response);
      for (const { name, value, options } of caller.refreshedCookies) withCookies.cookies.set(name, value, options);
      response = withCookies;
    }
    if (caller?.metered) {
      for (const [name, value] of Object.entries(rateLimitHeaders(caller, reset))) response.headers.set(name, value);
    }
    return response;
  };
}

/** For routes outside the metered API (health, OpenAPI, unknown paths): the same error mapping and request id. */
export function withErrorHandling(handler: (request: NextRequest) => Promise<Response>) {
  return async (request: NextRequest): Promise<Response> => {
    const requestId = randomUUID();
    let response: Response;
    try {
      response = await handler(request);
    } catch (error) {
      response = errorResponse(error, requestId);
    }
    response.headers.set("X-Request-Id", requestId);
    return response;
  };
}

async function authenticate(
  credential: ApiCredential,
  refreshedCookies: Caller["refreshedCookies"],
  { metered, sendingAccess = false }: { metered: boolean; sendingAccess?: boolean },
  periodStart: Date,
): Promise<Caller> {
  const caller = await authenticateAndMeter(credential, { metered, sendingAccess }, periodStart);
  if (!caller) throw errors.unauthorized(await refusalOf(credential));
  return { ...caller, via: credential.kind, refreshedCookies };
}

/** Who the audit log names for the caller's changes: the key by its name, or the signed-in person by email. */
function auditActor(caller: Caller): AuditActor {
  if (caller.apiKey) return { type: "api_key", id: caller.apiKey.id, label: caller.keyName ?? "" };
  return { type: "user", id: caller.personId ?? "", label: caller.personEmail ?? "" };
}

/**
 * Why a well-formed credential matched nothing, looked up again on this refusal only: a key that expired, any other
 * key (unknown or revoked, not told apart), a live session of a person who belongs to no team (removed from their last
 * one, say: signing in again would not help them), or a session that expired or ended.
 */
async function refusalOf(credential: ApiCredential): Promise<string> {
  if (credential.kind === "session") {
    const signedIn = await findPersonTeam(credential.personId, credential.sessionId, null);
    return signedIn && !signedIn.team ? CREDENTIAL_PROBLEMS.noTeam : CREDENTIAL_PROBLEMS.sessionEnded;
  }
  return (await isExpiredApiKey(credential.keyHash))
    ? CREDENTIAL_PROBLEMS.expired
    : CREDENTIAL_PROBLEMS.unknownOrRevoked;
}

// Checked in the contract's order: X-API-Key, then Authorization: Bearer, then the session cookie. A header that is
// present but malformed is refused rather than skipped, so a typo never silently falls through to a cookie.
async function readCredential(
  request: NextRequest,
): Promise<{ credential: ApiCredential; refreshedCookies: SessionIdentity["refreshedCookies"] }> {
  const apiKeyHeader = request.headers.get("x-api-key");
  if (apiKeyHeader !== null) return apiKeyCredential(apiKeyHeader.trim());
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw errors.unauthorized(CREDENTIAL_PROBLEMS.notBearer);
    return apiKeyCredential(match[1]);
  }
  const session = await readSession(request);
  if (!session) {
    throw errors.unauthorized(
      (await hasSessionCookie(request)) ? CREDENTIAL_PROBLEMS.sessionEnded : CREDENTIAL_PROBLEMS.none,
    );
  }
  if (request.method !== "GET" && request.method !== "HEAD" && !isSameOrigin(request)) throw errors.csrfRejected();
  return {
    credential: {
      kind: "session",
      personId: session.personId,
      sessionId: session.sessionId,
      teamId: readTeamChoice(request.cookies),
    },
    refreshedCookies: session.refreshedCookies,
  };
}

function apiKeyCredential(key: string) {
  if (key === "") throw errors.unauthorized(CREDENTIAL_PROBLEMS.emptyKey);
  const problem = apiKeyProblem(key);
  if (problem) throw errors.unauthorized(problem);
  return { credential: { kind: "api_key", keyHash: hashApiKey(key) } as ApiCredential, refreshedCookies: [] };
}

/** The path parameters, checked here for every route: one holding NUL (`%00`) is answered 404 before any SQL runs. */
async function readParams(
  context: RouteContext | undefined,
  notFound: () => AppError,
): Promise<Record<string, string>> {
  const raw = (await context?.params) ?? {};
  const params = Object.fromEntries(
    Object.entries(raw).map(([key, value]) => [key, Array.isArray(value) ? value.join("/") : value]),
  );
  if (Object.values(params).some(holdsNul)) throw notFound();
  return params;
}

function parseQuery<S extends z.ZodType>(request: NextRequest, schema: S): z.output<S> {
  const entries: Record<string, string | string[]> = {};
  for (const key of new Set(request.nextUrl.searchParams.keys())) {
    const values = request.nextUrl.searchParams.getAll(key);
    entries[key] = values.length === 1 ? values[0] : values;
  }
  const parsed = schema.safeParse(entries);
  if (!parsed.success) throw errors.validation(zodDetails(parsed.error), "Invalid query parameters");
  return parsed.data;
}

function parseBody<S extends z.ZodType>(json: unknown, schema: S): z.output<S> {
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw errors.validation([{ field: "body", message: "Request body must be a JSON object" }]);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw errors.validation(zodDetails(parsed.error));
  return parsed.data;
}

function rateLimitHeaders(caller: Caller, reset: Date): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Reset": reset.toISOString(),
    "X-RateLimit-Plan": caller.plan,
  };
  if (caller.quota !== null) {
    headers["X-RateLimit-Limit"] = String(caller.quota);
    headers["X-RateLimit-Remaining"] = String(Math.max(0, caller.quota - caller.used));
  }
  return headers;
}

export function rateLimitExceeded(caller: Pick<Caller, "plan" | "quota">, reset: Date): AppError {
  const resetInSeconds = secondsUntil(reset);
  const { siteUrl } = getConfig();
  return new AppError("RATE_LIMIT_EXCEEDED", {
    message: `Your ${caller.plan} plan includes ${caller.quota} API calls per month. The limit resets at ${reset.toISOString()}; upgrade for unlimited calls.`,
    details: { limit: caller.quota, remaining: 0, reset: reset.toISOString(), resetInSeconds },
    fields: { upgrade_url: `${siteUrl}/dashboard/billing`, documentation: `${siteUrl}/docs#rate-limits` },
    retryAfterSeconds: resetInSeconds,
    withoutSuccess: true,
  });
}

/**
 * `clientGone`: the client closed the connection before its request was handled (say, in the middle of sending its
 * body). Nobody reads the answer, and the failure is the client's, so it is logged as information, not as an error.
 */
export function errorResponse(error: unknown, requestId: string, clientGone = false): Response {
  const { status, body, headers } = httpError(error instanceof AppError ? error : errors.internal());
  if (!(error instanceof AppError)) {
    const message = error instanceof Error ? error.message : String(error);
    if (clientGone) {
      console.info(
        JSON.stringify({
          level: "info",
          requestId,
          message: `The client closed the connection before the request was handled (${message})`,
        }),
      );
    } else {
      // Details go to the log only, tied to the request id the client sees.
      console.error(
        JSON.stringify({ level: "error", requestId, message, stack: error instanceof Error ? error.stack : undefined }),
      );
    }
  }
  return NextResponse.json(body, { status, headers });
}
