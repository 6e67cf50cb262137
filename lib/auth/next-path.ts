import { MAX_NEXT_PATH_LENGTH } from "@/lib/core/limits";

// Where to go after signing in: `next` comes from the query string or a form, so it is attacker-chosen. Only a path on
// the app's own origin survives, and only in a form no browser or server can re-read as another origin.

// The URL parser drops tab and newline, strips leading control characters and reads `\` as `/`: `\t//evil` and
// `/\evil` would become protocol-relative. Refused outright, raw or percent-encoded.
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\\]/;

export const DEFAULT_NEXT_PATH = "/dashboard";

/** `value` as a path (pathname, search and hash) on `appUrl`'s origin when it is one, else `fallback`. */
export function safeNextPath(value: unknown, appUrl: string, fallback = DEFAULT_NEXT_PATH): string {
  if (typeof value !== "string" || value === "" || value.length > MAX_NEXT_PATH_LENGTH || UNSAFE_CHARACTER.test(value))
    return fallback;
  const origin = new URL(appUrl).origin;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin) return fallback;
  // Dot segments are resolved by now (`/.//evil` → `//evil`), so the path itself is checked, and as a server or
  // proxy that decodes it once would read it (`/%2F%2Fevil`).
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return fallback;
  }
  if (decoded.startsWith("//") || UNSAFE_CHARACTER.test(decoded)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * `path` (which may have a query string) carrying `next`, a path safeNextPath gave, on to where a link or form comes
 * back: left out when it is the default, so the usual links stay as they were.
 */
export function withNextPath(path: string, next: string): string {
  if (next === DEFAULT_NEXT_PATH) return path;
  return `${path}${path.includes("?") ? "&" : "?"}next=${encodeURIComponent(next)}`;
}
