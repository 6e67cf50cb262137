import "server-only";
import { readBodyText } from "@/lib/api/body";
import { errors } from "@/lib/errors";

// What every provider's webhook route does before its own work: read the raw body, capped, and refuse a delivery whose
// signature does not hold.

/**
 * Providers' events are a few kilobytes (Stripe's largest, with expanded lists, stay well below this). The body is read
 * before its signature can be checked, so anyone can send one: a larger body is refused with 413 before it is buffered.
 */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

/** The event's raw body, refused (413) past MAX_WEBHOOK_BODY_BYTES before any of it is buffered. */
export function readWebhookBody(request: Request): Promise<string> {
  return readBodyText(request, MAX_WEBHOOK_BODY_BYTES);
}

/** The delivery's signature is missing, does not match its body, or is too old. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/** Runs a provider's signature check; a WebhookSignatureError becomes the 400 INVALID_SIGNATURE every webhook answers. */
export function verifiedOrThrow<T>(verify: () => T): T {
  try {
    return verify();
  } catch (error) {
    if (error instanceof WebhookSignatureError) throw errors.invalidWebhookSignature(error.message);
    throw error;
  }
}
