import type { WebhookDeliveryStatus, WebhookEventType } from "@/lib/webhooks/schemas";

/** What each event type an endpoint may hear tells it, in the order the add and edit forms offer them. */
export const EVENT_TYPE_HINTS: Record<WebhookEventType, string> = {
  "email.scheduled": "A send with scheduled_at was accepted.",
  "email.sent": "The email was handed to the provider.",
  "email.delivered": "The recipient's mail server accepted it.",
  "email.delivery_delayed": "The recipient's server asked to try again later.",
  "email.bounced": "It bounced: stop mailing the address.",
  "email.complained": "The recipient marked it as spam.",
  "email.failed": "It could not be sent.",
  "email.canceled": "A scheduled email was canceled.",
  "email.opened": "First open, on a domain with open tracking.",
  "email.clicked": "A link's first click, on a domain with click tracking.",
  "email.unsubscribed": "The recipient unsubscribed in one click.",
  "template.published": "A template's new version was published.",
};

/** The event types, as the forms offer them (the hints' order: the contract's; no zod in the page's script). */
export const EVENT_TYPES = Object.keys(EVENT_TYPE_HINTS) as WebhookEventType[];

/** A delivery's status badge: its tone and word. */
export const DELIVERY_STATUS_BADGE: Record<WebhookDeliveryStatus, { tone: string; label: string }> = {
  pending: { tone: "badge-warning", label: "Pending" },
  succeeded: { tone: "badge-success", label: "Succeeded" },
  failed: { tone: "badge-danger", label: "Failed" },
};
