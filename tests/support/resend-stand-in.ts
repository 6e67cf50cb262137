import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { envForSuite } from "./env";

export type ResendStandIn = {
  /** The requests of this test so far that send from one of `domains`: the file's own accounts. */
  received: { method: string; url: string }[];
  /** The sending domains of the file's accounts: each account made adds its own. */
  domains: Set<string>;
  /** What this test's requests are answered, when not Resend's acceptance of each email (`{ id: "re_live_1" }`). */
  reply: { status: number; body: unknown } | null;
};

/**
 * Resend configured, for the calling file's (or describe block's) tests, at a local stand-in for its API
 * (RESEND_BASE_URL) that answers every send as accepted, or as the test says, and records those from the file's own
 * domains: the database is shared by the test files, and a
 * send's after-response dispatch hands over any account's due or interrupted emails, so another file's may come here.
 */
export function useResendStandIn(): ResendStandIn {
  const standIn: ResendStandIn = { received: [], domains: new Set(), reply: null };
  let server: Server;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        const parsed = JSON.parse(body || "{}") as { from?: string } | { from?: string }[];
        const from = (Array.isArray(parsed) ? parsed[0]?.from : parsed.from) ?? "";
        if (standIn.domains.has(from.slice(from.lastIndexOf("@") + 1).replace(">", "")))
          standIn.received.push({ method: req.method ?? "", url: req.url ?? "" });
        const accepted = req.url === "/emails/batch" ? { data: [{ id: "re_batch_0" }] } : { id: "re_live_1" };
        const { status, body: answer } = standIn.reply ?? { status: 200, body: accepted };
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  envForSuite(() => ({
    RESEND_API_KEY: "re_test_0123456789abcdef",
    RESEND_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  }));

  beforeEach(() => {
    standIn.received.length = 0;
    standIn.reply = null;
  });

  return standIn;
}
