import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { components } from "./openapi.ts";

type EmailSummary = components["schemas"]["EmailSummary"];

/** The events an endpoint may hear. */
export type WebhookEventType =
  | "email.scheduled"
  | "email.sent"
  | "email.delivered"
  | "email.delivery_delayed"
  | "email.bounced"
  | "email.complained"
  | "email.failed"
  | "email.canceled"
  | "email.opened"
  | "email.clicked"
  | "email.unsubscribed"
  | "template.published";

/** An `email.*` event's `data`: the email as `GET /emails/{id}` shows it, and what the event adds. */
export type EmailWebhookData = Pick<
  EmailSummary,
  "from" | "to" | "cc" | "bcc" | "subject" | "template_id" | "template_version" | "tags" | "status" | "test"
> & {
  /** The `data.id` the send answered. */
  email_id: string;
  scheduled_at?: string;
  locale?: string;
  bounce?: { type: string; message: string };
  click?: { link: string };
  unsubscribe?: { group?: string };
};

/** One delivery's body. */
export type WebhookEvent =
  | { type: Exclude<WebhookEventType, "template.published">; created_at: string; data: EmailWebhookData }
  | {
      type: "template.published";
      created_at: string;
      data: { template_id: string; alias: string | null; version: number; published_by: unknown };
    }
  | { type: "webhook.test"; created_at: string; data: Record<string, unknown> };

/** A request's headers: a fetch `Headers`, or an object of them as Node's `IncomingMessage.headers` holds them. */
export type WebhookRequestHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNATURE_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

function signatureHeaders(headers: WebhookRequestHeaders): Record<string, string> {
  const read: (name: string) => string | undefined =
    typeof (headers as Headers).get === "function"
      ? (name) => (headers as Headers).get(name) ?? undefined
      : (name) => {
          const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
          const value = entry?.[1];
          return Array.isArray(value) ? value.join(" ") : value;
        };
  return Object.fromEntries(
    SIGNATURE_HEADERS.flatMap((name) => {
      const value = read(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

/**
 * Checks a delivery from Letterpress and answers its event: `body` exactly as received (the raw text, not parsed and
 * serialised again), `headers` the request's, `secret` the endpoint's `whsec_…`. Throws a WebhookVerificationError
 * when a signature header is missing, no signature is the secret's, or the timestamp is more than five minutes from
 * now (a replayed request). During a rotation each delivery carries a signature for either secret.
 */
export function verifyWebhook(body: string | Uint8Array, headers: WebhookRequestHeaders, secret: string): WebhookEvent {
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  return new Webhook(secret).verify(text, signatureHeaders(headers)) as WebhookEvent;
}

export { WebhookVerificationError };
