// next/headers for Server Actions and route handlers called outside a request: one browser's cookie jar and the
// request's headers, which a test swaps between simulated browsers. Use with
// `vi.mock("next/headers", () => import("./support/next-headers"))`.

export const browser = {
  cookies: new Map<string, string>(),
  headers: new Headers(),
};

/**
 * Starts a new simulated browser (no cookies) whose requests come from `ip`, posted from the app's own pages (a
 * browser sends Origin with every Server Action).
 */
export function newBrowser(ip = "203.0.113.10"): { cookies: Map<string, string>; headers: Headers } {
  browser.cookies = new Map();
  browser.headers = new Headers({ "x-forwarded-for": ip, origin: "http://localhost:3000" });
  return { cookies: browser.cookies, headers: browser.headers };
}

/** Switches to a browser made by newBrowser. */
export function useBrowser(state: { cookies: Map<string, string>; headers: Headers }): void {
  browser.cookies = state.cookies;
  browser.headers = state.headers;
}

export async function cookies() {
  const jar = browser.cookies;
  return {
    getAll: () => [...jar].map(([name, value]) => ({ name, value })),
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    has: (name: string) => jar.has(name),
    set: (name: string, value: string) => void jar.set(name, value),
    delete: (name: string) => void jar.delete(name),
  };
}

export async function headers() {
  return browser.headers;
}

/** Runs a Server Action: its returned state, or where it redirected (redirect() throws Next's redirect error). */
export async function submit<S>(
  action: (state: S, formData: FormData) => Promise<S>,
  fields: Record<string, string>,
): Promise<{ state: S } | { redirect: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  try {
    return { state: await action({ status: "idle" } as S, form) };
  } catch (error) {
    return { redirect: redirectTarget(error) };
  }
}

/**
 * The cookies the page or route behind the proxy sees. A proxy that answers `NextResponse.next({ request })` names
 * the request headers it set in `x-middleware-override-headers` (each in `x-middleware-request-<name>`), and Next's
 * router replaces the request's headers with them (resolve-routes.ts); otherwise the request goes on as it came.
 */
export function cookiesAfterProxy(response: Response, sent: Map<string, string>): Map<string, string> {
  const overridden = response.headers.get("x-middleware-override-headers");
  if (overridden === null) return new Map(sent);
  const names = overridden.split(",").map((name) => name.trim());
  const header = names.includes("cookie") ? (response.headers.get("x-middleware-request-cookie") ?? "") : "";
  const cookies = new Map<string, string>();
  for (const pair of header.split(/;\s*/)) {
    const separator = pair.indexOf("=");
    if (separator > 0) cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
  }
  return cookies;
}

/** A browser's cookies after a response: each Set-Cookie replaces its cookie, and an expired or empty one removes it. */
export function applySetCookies(jar: Map<string, string>, response: Response): Map<string, string> {
  const next = new Map(jar);
  for (const line of response.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(/;\s*/);
    const separator = pair.indexOf("=");
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    const expired = attributes.some(
      (attribute) => /^max-age=0$/i.test(attribute) || /^expires=Thu, 01 Jan 1970/i.test(attribute),
    );
    if (expired || value === "") next.delete(name);
    else next.set(name, value);
  }
  return next;
}

/** Where a Server Action or page redirected to, from the error redirect() threw; rethrows any other error. */
export function redirectTarget(error: unknown): string {
  const digest = (error as { digest?: unknown }).digest;
  if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT;"))
    return digest.split(";").slice(2, -2).join(";");
  throw error;
}
