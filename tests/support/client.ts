import { NextRequest } from "next/server";
import { Letterpress } from "letterpress";
import { BASE } from "./api";
import { ROUTE_MODULES } from "./endpoints";

type RouteHandler = (request: NextRequest, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export const API_BASE_URL = `${BASE}/api/v1`;

/** The contract's path a request's path is, and its parameters. */
function route(pathname: string): { path: string; params: Record<string, string> } {
  const segments = pathname.slice("/api/v1".length).split("/");
  for (const path of Object.keys(ROUTE_MODULES)) {
    const pattern = path.split("/");
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      if (!part.startsWith("{")) return part === segments[i];
      params[part.slice(1, -1)] = decodeURIComponent(segments[i]);
      return true;
    });
    if (matches) return { path, params };
  }
  throw new Error(`No route of /api/v1 answers ${pathname}`);
}

/** A request as it reached a route: its method and contract path (`POST /send`), and its headers. */
export type Reached = { operation: string; headers: Headers };

/**
 * A fetch that hands each request to its route handler in this process, as Next would: the client's own HTTP handling
 * (headers, JSON, errors, retries) runs end to end. `reached` records every request that got to a handler.
 */
export function inProcessFetch(reached: Reached[] = []) {
  return async (request: Request): Promise<Response> => {
    const { path, params } = route(new URL(request.url).pathname);
    const handler = ROUTE_MODULES[path][request.method] as RouteHandler;
    const body = request.method === "GET" ? undefined : await request.text();
    // Content-Length as an HTTP client sends it: a Request built in memory has none of its own.
    const headers = new Headers(request.headers);
    if (body) headers.set("content-length", String(Buffer.byteLength(body)));
    reached.push({ operation: `${request.method} ${path}`, headers });
    return handler(new NextRequest(request.url, { method: request.method, headers, body: body || undefined }), {
      params: Promise.resolve(params),
    });
  };
}

/** A client with `apiKey` that calls the app's routes in this process through `fetch` (inProcessFetch by default). */
export function inProcessClient(apiKey: string, fetch = inProcessFetch()): Letterpress {
  return new Letterpress({ apiKey, baseUrl: API_BASE_URL, fetch });
}
