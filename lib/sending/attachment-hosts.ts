import "server-only";
import { errors } from "@/lib/core/errors";
import { ATTACHMENT_HOST_LOOKUP_MS } from "@/lib/core/limits";
import {
  isAddressLiteral,
  lookupHostAddresses,
  publicHostProblem,
  type HostLookup,
} from "@/lib/core/outbound-addresses";
import type { SendRequest } from "@/lib/sending/schemas";

let hostLookup: HostLookup = lookupHostAddresses;

/** Where attachment hosts are looked up: DNS, or a table a test answers from (tests send nothing off the machine). */
export function useHostLookup(lookup: HostLookup = lookupHostAddresses): void {
  hostLookup = lookup;
}

/**
 * Resend fetches a `path` itself, from its network, when it sends the email: no server of ours connects to it, so the
 * address Resend connects to is not ours to check. The schema refused internal IP literals and internal names; here
 * each name must resolve, now, to public addresses only (every A and AAAA answer), within ATTACHMENT_HOST_LOOKUP_MS.
 * Otherwise 400, field `attachments.<i>.path` for each path refused. Each host is looked up once, all at once.
 */
export async function checkAttachmentHosts(attachments: SendRequest["attachments"]): Promise<void> {
  const paths = (attachments ?? []).flatMap((attachment, index) =>
    attachment.path === undefined ? [] : [{ index, host: new URL(attachment.path).hostname }],
  );
  const names = [...new Set(paths.map(({ host }) => host).filter((host) => !isAddressLiteral(host)))];
  if (names.length === 0) return;
  const problems = new Map(
    await Promise.all(
      names.map(
        async (host) =>
          [host, await publicHostProblem(host, { lookup: hostLookup, timeoutMs: ATTACHMENT_HOST_LOOKUP_MS })] as const,
      ),
    ),
  );
  const details = paths.flatMap(({ index, host }) => {
    const problem = problems.get(host);
    return problem
      ? [{ field: `attachments.${index}.path`, message: `path must be on a public host: ${problem}` }]
      : [];
  });
  if (details.length > 0) throw errors.validation(details);
}
