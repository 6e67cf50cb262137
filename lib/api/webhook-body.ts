import "server-only";
import { readBodyText } from "@/lib/api/body";
import { MAX_WEBHOOK_BODY_BYTES } from "@/lib/core/limits";

// What every provider's webhook route does before its own work: read the raw body, capped. Each provider's check then
// refuses a delivery whose signature does not hold with the 400 INVALID_SIGNATURE every webhook answers.

/** The event's raw body, refused (413) past MAX_WEBHOOK_BODY_BYTES before any of it is buffered. */
export function readWebhookBody(request: Request): Promise<string> {
  return readBodyText(request, MAX_WEBHOOK_BODY_BYTES);
}
