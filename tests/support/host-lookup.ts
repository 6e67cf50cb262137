import type { HostLookup } from "@/lib/core/outbound-addresses";

/** A public address (an example.com address of 2024) that the tests' names resolve to: nothing ever connects to it. */
export const PUBLIC_ADDRESS = "93.184.215.14";

/**
 * DNS as the tests see it, so no lookup leaves the machine: each name of `table` resolves to its addresses; any other
 * name under the reserved example names (example.com, example.org, *.example, *.test) to PUBLIC_ADDRESS; the rest
 * does not resolve. Tests/support/setup.ts installs it for every file; a file with a table of its own installs its own.
 */
export function tableLookup(table: Record<string, string[] | (() => Promise<string[]>)> = {}): HostLookup {
  return async (hostname) => {
    const answer = table[hostname];
    if (typeof answer === "function") return answer();
    if (answer) return answer;
    return /(^|\.)(example\.com|example\.org|example|test)$/.test(hostname) ? [PUBLIC_ADDRESS] : [];
  };
}
