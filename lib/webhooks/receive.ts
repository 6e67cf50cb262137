import "server-only";
import { readBodyText } from "@/lib/api/body";

// What every provider's webhook route does before its own work: read the raw body, capped. Each provider's check then
// refuses a delivery whose signature does not hold with the 400 INVALID_SIGNATURE every webhook answers.

/**
 * Providers' events are a few kilobytes (Stripe's largest, with expanded lists, stay well below this). The body is read
 * before its signature can be checked, so anyone can send one: a larger body is refused with 413 before it is buffered.
 */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

/** The event's raw body, refused (413) past MAX_WEBHOOK_BODY_BYTES before any of it is buffered. */
export function readWebhookBody(request: Request): Promise<string> {
  return readBodyText(request, MAX_WEBHOOK_BODY_BYTES);
}
