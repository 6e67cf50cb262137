import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { expect } from "vitest";
import { createLocalSessionToken, LOCAL_SESSION_COOKIE, SESSION_MAX_AGE_SECONDS } from "@/lib/auth/session";
import { createAccount } from "@/lib/auth/data/accounts";
import { createApiKey } from "@/lib/api-keys/data";
import { getDb } from "@/lib/db/client";
import { addLibraryEntry } from "@/lib/catalogue/data/library";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { recordRateLimitHits } from "@/lib/db/rate-limits";
import { createSession } from "@/lib/auth/data/sessions";
import { PREVIEW_LIMITS } from "@/lib/core/limits";
import { billingPeriod, type PlanName } from "@/lib/core/plans";

export const BASE = "http://localhost:3000";

/** An instant as the API writes it (Date#toISOString). */
export const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

type RouteHandler = (
  request: NextRequest,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

export type CallOptions = {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  /** Sends the body without Content-Length, as a chunked upload would arrive. */
  chunked?: boolean;
  params?: Record<string, string | string[]>;
};

export type CallResult = { status: number; headers: Headers; body: any; text: string };

/** Calls a route handler exactly as Next would, and reads the JSON answer. */
export async function call(handler: RouteHandler, path: string, options: CallOptions = {}): Promise<CallResult> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
  const request = new NextRequest(new URL(path, BASE), {
    method: options.method ?? "GET",
    // Content-Length as an HTTP client sends it: a Request built here has none of its own.
    headers: {
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(body !== undefined && !options.chunked ? { "content-length": String(Buffer.byteLength(body)) } : {}),
      ...options.headers,
    },
    body,
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/**
 * As call, with `body` sent as a stream that is read only as the handler asks, 64 KB at a time (and its
 * Content-Length): `bytesRead` says how much of it the handler read.
 */
export async function callReadingLazily(
  handler: RouteHandler,
  path: string,
  body: string,
  options: Omit<CallOptions, "body" | "chunked"> = {},
): Promise<CallResult & { bytesRead: number }> {
  const bytes = new TextEncoder().encode(body);
  let bytesRead = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (bytesRead >= bytes.length) return controller.close();
        const chunk = bytes.subarray(bytesRead, bytesRead + 65_536);
        bytesRead += chunk.length;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  const request = new NextRequest(new URL(path, BASE), {
    method: options.method ?? "POST",
    headers: { "content-type": "application/json", "content-length": String(bytes.length), ...options.headers },
    body: stream,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
    text,
    bytesRead,
  };
}

/** A team (accountId) created by sign-up: its admin is the person personId, with the email. */
export type TestUser = {
  accountId: string;
  personId: string;
  email: string;
  key: string;
  keyId: string;
  plan: PlanName;
};

export async function createUser(plan: PlanName = "free"): Promise<TestUser> {
  const email = `user-${randomUUID()}@example.com`;
  const account = await createAccount({ email, plan });
  const key = await createApiKey(account.id, { name: "test key" });
  return { accountId: account.id, personId: account.person.id, email, key: key.key, keyId: key.id, plan };
}

/** A sending domain of its own: a domain belongs to one account. */
export const uniqueDomain = () => `acme-${randomUUID().slice(0, 8)}.example`;

export const auth = (user: TestUser) => ({ "x-api-key": user.key });

/** A `Cookie` header value of a live local session of the team's first admin (its creator), as signing in makes it. */
export async function sessionCookie(accountId: string): Promise<string> {
  const [{ person_id: personId }] = await getDb()<{ person_id: string }[]>`
    select person_id from memberships where account_id = ${accountId} and role = 'admin'
    order by joined_at, person_id limit 1`;
  return personSessionCookie(personId);
}

/** A `Cookie` header value of a live local session of the person, as signing in makes it. */
export async function personSessionCookie(personId: string): Promise<string> {
  const session = await createSession(personId, SESSION_MAX_AGE_SECONDS);
  return `${LOCAL_SESSION_COOKIE}=${createLocalSessionToken({ personId, sessionId: session.id, expiresAt: session.expires_at })}`;
}

export async function catalogueId(slug: string): Promise<string> {
  const [row] = await getDb()<
    { id: string }[]
  >`select id from templates where slug = ${slug} and owner_account_id is null`;
  if (!row) throw new Error(`catalogue template ${slug} not seeded`);
  return row.id;
}

/**
 * Waits until the database's clock has moved on. The embedded database counts time in milliseconds, so things made
 * one after another can share an instant, and then a newest-first list orders them by id.
 */
export const nextInstant = () => new Promise((resolve) => setTimeout(resolve, 2));

export async function addToLibrary(user: TestUser, slug: string) {
  return addLibraryEntry(user.accountId, slug, { processor: "test" });
}

/** Sets this month's API call count, to test quota boundaries without making hundreds of calls. */
export async function setApiCallsUsed(user: TestUser, count: number): Promise<void> {
  await setUsed(user, "api_calls", count);
}

/** Sets this month's email count, to test the email limits without sending hundreds of emails. */
export async function setEmailsUsed(user: TestUser, count: number): Promise<void> {
  await setUsed(user, "emails", count);
}

async function setUsed(user: TestUser, metric: "emails" | "api_calls", count: number): Promise<void> {
  const { start } = billingPeriod();
  await getDb()`
    insert into usage_counters (account_id, metric, period_start, count) values (${user.accountId}, ${metric}, ${start}, ${count})
    on conflict (account_id, metric, period_start) do update set count = excluded.count`;
}

/**
 * Fills a dashboard-preview bucket (`preview:account:<id>`, `preview:address:<ip>`) up to `hits` in the current window;
 * first waits out a window about to end, so the test stays in one.
 */
export async function fillPreviewBucket(bucket: string, hits: number): Promise<void> {
  const msLeft = PREVIEW_LIMITS.windowSeconds * 1000 - (Date.now() % (PREVIEW_LIMITS.windowSeconds * 1000));
  if (msLeft < 5_000) await new Promise((resolve) => setTimeout(resolve, msLeft + 100));
  const [{ hits: now }] = await recordRateLimitHits([bucket], PREVIEW_LIMITS.windowSeconds);
  await getDb()`update rate_limit_windows set hits = ${hits} where bucket = ${bucket} and hits = ${now}`;
}

/** This month's count of `metric` for the user. */
export async function counter(user: TestUser, metric: "emails" | "api_calls"): Promise<number> {
  const { start } = billingPeriod();
  const [row] = await getDb()<{ count: number }[]>`
    select count from usage_counters where account_id = ${user.accountId} and metric = ${metric} and period_start = ${start}`;
  return row?.count ?? 0;
}

export type Sender = TestUser & { welcomeId: string; domain: string };

/** A user who can send: a verified domain of its own (Resend's status verified too) and `welcome` in the library. */
export async function sender(plan: PlanName = "monthly"): Promise<Sender> {
  const user = await createUser(plan);
  const domain = uniqueDomain();
  await addSendingDomain(user.accountId, { domain, verified: true });
  await getDb()`update sending_domains set provider_status = 'verified' where account_id = ${user.accountId}`;
  await addToLibrary(user, "welcome");
  return { ...user, welcomeId: await catalogueId("welcome"), domain };
}

/**
 * An email as GET /emails/{id} describes it: the welcome template sent by `user` from its domain to ann@example.com
 * with the subject "Welcome aboard", and `extra` in place of any of that.
 */
export function expectedEmailResponse(user: Sender, id: string, status: string, events: unknown[], extra: object = {}) {
  return {
    id,
    from: `hello@${user.domain}`,
    to: ["ann@example.com"],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: "Welcome aboard",
    template_id: user.welcomeId,
    template_version: 1,
    tags: [],
    status,
    created_at: ISO,
    sent_at: ISO,
    scheduled_at: null,
    test: false,
    // welcome has messages (en, fr, de, es, pt-BR): a send without `locale` is in its default locale.
    locale: "en",
    events,
    ...extra,
  };
}
