import { randomUUID } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { isSameOrigin } from "@/lib/api/client-address";
import { httpError } from "@/lib/api/errors";
import { errors, type AppError } from "@/lib/core/errors";
import { isLocalSessionLive, LOCAL_SESSION_COOKIE, readLocalSessionClaims } from "@/lib/auth/session";
import { personForSupabaseUser } from "@/lib/auth/supabase";
import { getConfig } from "@/lib/core/config";
import { updateSupabaseSession } from "@/lib/auth/supabase-client/proxy";

// Next 16's proxy (formerly middleware), on the Node.js runtime. With Supabase Auth it refreshes the session for pages
// and the dashboard's own routes. The public API, webhooks, cron and health routes are kept out of the matcher: running
// the proxy would slow every API-key call, and withApiAuth refreshes a cookie session itself. Only dashboard pages
// redirect to sign-in: /api answers 401 JSON itself, never a login redirect. The pages check the session again
// (lib/auth/current.ts); this is the fast path that avoids rendering a page for a visitor. On dashboard pages it
// checks only the session (a local cookie's signature, a Supabase token's claims) and the page then finds the account;
// on the sign-in pages it finds the account too, so a session without one (ended, or a Supabase user whose email is
// another sign-in's account) stays there instead of bouncing between sign-in and the dashboard, and an ended local
// session's cookie is cleared.

/** Routes the matcher keeps out of the proxy, unless their path holds a percent sign (see `config`). */
const KEPT_OUT = ["/api/v1/", "/api/health", "/api/webhooks/", "/api/cron/"];

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const isApi = pathname === "/api" || pathname.startsWith("/api/");
  // A POST to a page is a Server Action (no page takes another). Next runs one that comes without Origin (it compares
  // Origin with the host only when there is one) and answers a malformed one with a 500; a browser always sends one.
  // /u/<token> takes mail clients' one-click unsubscribe POSTs (RFC 8058), which come from no page: that route alone,
  // and never a Server Action (which Next would run on a path no route has).
  if (/^\/u\/[^/]+$/.test(pathname) && !request.headers.has("next-action")) return NextResponse.next();
  if (request.method === "POST" && !isApi && !isSameOrigin(request, { originRequired: true })) {
    return jsonError(errors.csrfRejected());
  }
  // Next fails to decode a malformed escape while matching routes, before any route code runs, and answers a text/plain
  // 500; here it can still answer JSON. The matcher lets the routes it keeps out through only for this check.
  if (isApi && !isDecodable(pathname)) return jsonError(errors.invalidPath());
  if (KEPT_OUT.some((prefix) => pathname.startsWith(prefix))) return NextResponse.next();
  const isDashboard = pathname === "/dashboard" || pathname.startsWith("/dashboard/");
  const isAuthPage = pathname === "/signin" || pathname === "/signup";

  let response: NextResponse;
  let signedIn: boolean;
  if (getConfig().supabase) {
    const session = await updateSupabaseSession(request);
    response = session.response;
    signedIn =
      session.user !== null &&
      (!isAuthPage || (await personForSupabaseUser(session.user, session.user.issuedAt)) !== null);
  } else {
    if (!isDashboard && !isAuthPage) return NextResponse.next();
    const claims = readLocalSessionClaims(request.cookies);
    signedIn = claims !== null && (!isAuthPage || (await isLocalSessionLive(claims)));
    response = NextResponse.next();
    if (request.cookies.get(LOCAL_SESSION_COOKIE)?.value && !signedIn) response.cookies.delete(LOCAL_SESSION_COOKIE);
  }
  if (isApi) return response;

  // A Server Action (a form posting in the background) cannot follow a redirect answered here: the form would fail
  // with a generic error. The action itself checks the session and answers with a redirect the page does follow.
  const isServerAction = request.method === "POST" && request.headers.has("next-action");
  if (isDashboard && !signedIn && !isServerAction) {
    const url = request.nextUrl.clone();
    url.pathname = "/signin";
    url.search = `?next=${encodeURIComponent(pathname + search)}`;
    return withCookies(NextResponse.redirect(url), response);
  }
  if (isAuthPage && signedIn) {
    const url = request.nextUrl.clone();
    url.pathname = "/dashboard";
    url.search = "";
    return withCookies(NextResponse.redirect(url), response);
  }
  return response;
}

function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function jsonError(error: AppError): NextResponse {
  const { status, body } = httpError(error);
  return NextResponse.json(body, { status, headers: { "X-Request-Id": randomUUID() } });
}

// A redirect must carry any refreshed session cookies, or the browser and server fall out of sync.
function withCookies(redirect: NextResponse, from: NextResponse): NextResponse {
  for (const cookie of from.cookies.getAll()) redirect.cookies.set(cookie);
  const cacheControl = from.headers.get("cache-control");
  if (cacheControl) redirect.headers.set("cache-control", cacheControl);
  return redirect;
}

// The second and third entries bring in a Server Action on the paths the first leaves out, so that its Origin is checked
// there too: by fetch it carries Next-Action, posted by a form without JavaScript it is multipart.
export const config = {
  matcher: [
    "/((?!api/(?:v1/|health|webhooks/|cron/)[^%]*$|_next/static|_next/image|favicon.ico|icon.svg|(?!api/).*\\.(?:svg|png|jpg|jpeg|gif|webp|ico|css|js|map)$).*)",
    { source: "/((?!api/).*)", has: [{ type: "header", key: "next-action" }] },
    { source: "/((?!api/).*)", has: [{ type: "header", key: "content-type", value: "multipart/form-data.*" }] },
  ],
};
