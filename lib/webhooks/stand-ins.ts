import "server-only";
import { randomBytes } from "node:crypto";
import { MAX_WEBHOOK_URL_CHARS, WEBHOOK_HOST_LOOKUP_MS } from "@/lib/core/limits";
import { publicHostProblem } from "@/lib/core/outbound-addresses";

// TO BE REPLACED on merge (issue 47): stand-ins for wh-http's lib/webhooks/signing.ts `newWebhookSecret` and
// lib/webhooks/outbound.ts `webhookUrlProblem`, with their names and signatures, so the endpoints land before those
// files do. Once they are merged, lib/webhooks/service.ts imports both from there and this file goes.

/** `whsec_` + Base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * Why `url` may not be a webhook endpoint's, or null: https (http too with `allowPrivate`), at most 2,048 characters, no
 * credentials, a host that neither is nor resolves to a non-public address (unless `allowPrivate`).
 */
export async function webhookUrlProblem(
  url: string,
  { allowPrivate }: { allowPrivate: boolean },
): Promise<string | null> {
  if (url.length > MAX_WEBHOOK_URL_CHARS) return `url must be at most ${MAX_WEBHOOK_URL_CHARS} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "url must be an absolute URL (https://…)";
  }
  const schemes = allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(parsed.protocol))
    return allowPrivate ? "url must be https:// or http://" : "url must be https://";
  if (parsed.username || parsed.password) return "url must not hold credentials (user:password@)";
  if (allowPrivate) return null;
  const problem = await publicHostProblem(parsed.hostname, { timeoutMs: WEBHOOK_HOST_LOOKUP_MS });
  return problem === null ? null : `url must be on a public host: ${problem}`;
}
