import "server-only";
import { createHmac } from "node:crypto";

// TEMPORARY (wh-store): a stand-in so lib/webhooks/delivery.ts type-checks and runs before wh-http's branch is merged.
// wh-http owns this file: its version (signed by the `standardwebhooks` library, newWebhookSecret, …) replaces this one
// whole on merge.

/** The Standard Webhooks headers of one attempt: one `v1,` signature per secret, the newest first. */
export function signWebhook({
  id,
  timestamp,
  body,
  secrets,
}: {
  id: string;
  timestamp: Date;
  body: string;
  secrets: string[];
}): Record<string, string> {
  const seconds = Math.floor(timestamp.getTime() / 1000);
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
    return `v1,${createHmac("sha256", key).update(`${id}.${seconds}.${body}`).digest("base64")}`;
  });
  return { "webhook-id": id, "webhook-timestamp": String(seconds), "webhook-signature": signatures.join(" ") };
}
