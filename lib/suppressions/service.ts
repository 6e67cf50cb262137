import "server-only";
import { errors, type ValidationDetail } from "@/lib/core/errors";
import { deleteSuppression, listSuppressions, type Suppression } from "@/lib/suppressions/data";
import { MAX_ADDRESS_LENGTH } from "@/lib/core/limits";
import { holdsNul } from "@/lib/core/schemas";

export type { Suppression };

/** GET /suppressions: a page of the account's suppressed addresses, newest first. */
export async function listSuppressionsPage(accountId: string, { limit, offset }: { limit: number; offset: number }) {
  const { suppressions, total } = await listSuppressions(accountId, { limit, offset });
  return { suppressions: suppressions.map(toSuppressionResponse), pagination: { limit, offset, total } };
}

/**
 * DELETE /suppressions/{email}: the account may send to the address again, its unsubscribes gone too; 404 when it was
 * not suppressed.
 */
export async function removeSuppressionOrThrow(accountId: string, address: string) {
  const removed =
    address.length <= MAX_ADDRESS_LENGTH && !holdsNul(address)
      ? await deleteSuppression(accountId, address)
      : undefined;
  if (!removed) throw errors.suppressionNotFound();
  return toSuppressionResponse(removed);
}

export function toSuppressionResponse(suppression: Suppression) {
  return {
    email: suppression.email,
    reason: suppression.reason,
    // An unsubscribe's group: its name, or null for the unnamed list of `"unsubscribe": true`.
    ...(suppression.reason === "unsubscribed" ? { group: suppression.group || null } : {}),
    created_at: suppression.created_at.toISOString(),
  };
}

type Recipients = { to: string | string[]; cc?: string | string[]; bcc?: string | string[] };

/**
 * One 422 entry per suppressed address of a send, named by its field (`to.0`, `cc.1`, behind `prefix` in a batch:
 * `emails.3.to.0`), saying why and since when. A bounce or complaint holds back every send; an unsubscribe only the
 * sends of its group (`group`: the send's, '' the unnamed list, null a send without `unsubscribe`).
 */
export function suppressedRecipientDetails(
  request: Recipients,
  suppressed: Suppression[],
  prefix = "",
  group: string | null = null,
): ValidationDetail[] {
  const holding = suppressed.filter((entry) => entry.group === null || entry.group === group);
  if (holding.length === 0) return [];
  const byAddress = new Map(holding.map((entry) => [entry.email, entry]));
  const details: ValidationDetail[] = [];
  for (const field of ["to", "cc", "bcc"] as const) {
    const value = request[field];
    if (value === undefined) continue;
    const addresses = Array.isArray(value) ? value : [value];
    addresses.forEach((address, index) => {
      const entry = byAddress.get(address.toLowerCase());
      if (!entry) return;
      details.push({
        // Indexed even when the field is one address: it is the list's first.
        field: `${prefix}${field}.${index}`,
        message: `${address} is suppressed (DELETE /api/v1/suppressions/${encodeURIComponent(entry.email)} lets you send to it again): ${suppressionReason(entry)}`,
      });
    });
  }
  return details;
}

function suppressionReason(entry: Suppression): string {
  const day = entry.created_at.toISOString().slice(0, 10);
  if (entry.reason === "bounced") return `an email to it bounced on ${day}`;
  if (entry.reason === "complained") return `its owner marked an email as spam on ${day}`;
  return `its owner unsubscribed from ${entry.group ? `"${entry.group}"` : "these emails"} on ${day}`;
}

/** Every address a send names, for the suppression lookup. */
export function recipientsOf(request: Recipients): string[] {
  const list = (value: string | string[] | undefined) =>
    value === undefined ? [] : Array.isArray(value) ? value : [value];
  return [...list(request.to), ...list(request.cc), ...list(request.bcc)];
}
