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

/** Where a Server Action or page redirected to, from the error redirect() threw; rethrows any other error. */
export function redirectTarget(error: unknown): string {
  const digest = (error as { digest?: unknown }).digest;
  if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT;"))
    return digest.split(";").slice(2, -2).join(";");
  throw error;
}
