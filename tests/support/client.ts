import { NextRequest } from "next/server";
import { Letterpress } from "letterpress";
import * as cancelEmail from "@/app/api/v1/emails/[id]/cancel/route";
import * as email from "@/app/api/v1/emails/[id]/route";
import * as emails from "@/app/api/v1/emails/route";
import * as catalogue from "@/app/api/v1/catalogue/route";
import * as libraryEntry from "@/app/api/v1/library/[id]/route";
import * as library from "@/app/api/v1/library/route";
import * as sendBatch from "@/app/api/v1/send/batch/route";
import * as send from "@/app/api/v1/send/route";
import * as suppression from "@/app/api/v1/suppressions/[email]/route";
import * as suppressions from "@/app/api/v1/suppressions/route";
import * as render from "@/app/api/v1/templates/[id]/render/route";
import * as template from "@/app/api/v1/templates/[id]/route";
import * as templates from "@/app/api/v1/templates/route";
import * as source from "@/app/api/v1/templates/[id]/source/route";
import * as publish from "@/app/api/v1/templates/[id]/publish/route";
import * as restore from "@/app/api/v1/templates/[id]/versions/[n]/restore/route";
import * as version from "@/app/api/v1/templates/[id]/versions/[n]/route";
import * as versions from "@/app/api/v1/templates/[id]/versions/route";
import * as usage from "@/app/api/v1/usage/route";
import { BASE } from "./api";

type RouteHandler = (request: NextRequest, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** The route module of each path of the contract (lib/api/contract/). */
const ROUTES: Record<string, Record<string, unknown>> = {
  "/library": library,
  "/library/{id}": libraryEntry,
  "/catalogue": catalogue,
  "/templates": templates,
  "/templates/{id}": template,
  "/templates/{id}/render": render,
  "/templates/{id}/source": source,
  "/templates/{id}/publish": publish,
  "/templates/{id}/versions": versions,
  "/templates/{id}/versions/{n}": version,
  "/templates/{id}/versions/{n}/restore": restore,
  "/send": send,
  "/send/batch": sendBatch,
  "/emails": emails,
  "/emails/{id}": email,
  "/emails/{id}/cancel": cancelEmail,
  "/suppressions": suppressions,
  "/suppressions/{email}": suppression,
  "/usage": usage,
};

export const API_BASE_URL = `${BASE}/api/v1`;

/** The contract's path a request's path is, and its parameters. */
function route(pathname: string): { path: string; params: Record<string, string> } {
  const segments = pathname.slice("/api/v1".length).split("/");
  for (const path of Object.keys(ROUTES)) {
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
    const handler = ROUTES[path][request.method] as RouteHandler;
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
