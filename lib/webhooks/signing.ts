import "server-only";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

// Deliveries are signed as Standard Webhooks (the format Svix and Resend use), by the `standardwebhooks` library, so
// that its verifier and Svix's accept them unchanged: no HMAC of our own to get subtly different.

/** The random bytes of a new secret: the contract allows 24 to 64; 32 is the HMAC-SHA256 key's own size. */
const SECRET_BYTES = 32;

/** The three headers that sign one attempt of a delivery. */
export type WebhookSignatureHeaders = {
  /** The event's id: the same on every attempt and replay, for receivers to de-duplicate by. */
  "webhook-id": string;
  /** Unix seconds of the attempt. */
  "webhook-timestamp": string;
  /** One `v1,<Base64 HMAC-SHA256>` per secret, space separated, the newest secret's first. */
  "webhook-signature": string;
};

/** A new endpoint secret: `whsec_` and the Base64 of 32 random bytes (the key is the decoded bytes). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString("base64")}`;
}

/**
 * The headers of an attempt made at `timestamp` of the event `id` whose JSON is `body` (exactly the bytes sent),
 * signed with each of `secrets`: the endpoint's current secret first, then, during the day after a rotation, the
 * previous one, so that a receiver holding either verifies it.
 */
export function signWebhook({
  id,
  timestamp,
  body,
  secrets,
}: {
  id: string;
  timestamp: Date;
  body: string;
  secrets: readonly string[];
}): WebhookSignatureHeaders {
  if (secrets.length === 0) throw new Error("A webhook delivery is signed with at least one secret");
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(id, timestamp, body)).join(" "),
  };
}
