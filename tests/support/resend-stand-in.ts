import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { envForSuite } from "./env";

export type ResendRequest = { method: string; url: string; headers: IncomingHttpHeaders; body: any };
export type ResendReply = { status: number; body: unknown };

export const RESEND_TEST_API_KEY = "re_test_0123456789abcdef";

export type ResendStandIn = {
  /** Its address, RESEND_BASE_URL while the file's (or describe block's) tests run, for a mailer made by hand. */
  url: string;
  /**
   * The requests of this test so far, but for emails from a domain not in `domains`: the database is shared by the
   * test files, and a send's after-response dispatch hands over any account's due or interrupted emails, so another
   * file's may come here.
   */
  received: ResendRequest[];
  /** The sending domains of the file's accounts: each account made adds its own. */
  domains: Set<string>;
  /**
   * What this test's requests are answered, when not Resend's acceptance of each email (`{ id: "re_live_1" }`): a
   * reply, or a function of the request (undefined: the acceptance). A string body is sent as it is.
   */
  reply: ResendReply | ((request: ResendRequest) => ResendReply | undefined) | null;
  /**
   * Whether the file's requests are held: received, their connection left open and unanswered (Resend holding the
   * hand-off) until `release`. False at the start of each test.
   */
  holding: boolean;
  /** Answers the requests held so far, and stops holding. */
  release(): void;
  /** Forgets the requests held so far unanswered, as nobody waits for them (their caller was killed). */
  forgetHeld(): void;
};

export type ResendStandInOptions = {
  /** False: RESEND_API_KEY and RESEND_BASE_URL are left as they are, for the file to point the app at `url` itself. */
  configure?: boolean;
  /** Records other files' emails too, for a file on a database of its own that asserts what reached Resend at all. */
  recordEvery?: boolean;
};

/**
 * Resend configured, for the calling file's (or describe block's) tests, at a local stand-in for its API
 * (RESEND_BASE_URL, 127.0.0.1 only) that answers every request as accepted, or as the test says, and records the file's.
 */
export function useResendStandIn({ configure = true, recordEvery = false }: ResendStandInOptions = {}): ResendStandIn {
  let held: { request: ResendRequest; res: ServerResponse }[] = [];
  const standIn: ResendStandIn = {
    url: "",
    received: [],
    domains: new Set(),
    reply: null,
    holding: false,
    release() {
      standIn.holding = false;
      for (const { request, res } of held.splice(0)) answer(request, res);
    },
    forgetHeld() {
      held = [];
    },
  };
  let server: Server;

  /** Whether a request is about another file's account: an email (or batch) from a domain this file never made. */
  function fromAnotherFile(body: unknown): boolean {
    const email = (Array.isArray(body) ? body[0] : body) as { from?: unknown } | undefined;
    if (recordEvery || typeof email?.from !== "string") return false;
    return !standIn.domains.has(email.from.slice(email.from.lastIndexOf("@") + 1).replace(/>$/, ""));
  }

  function answer(request: ResendRequest, res: ServerResponse): void {
    const accepted = request.url === "/emails/batch" ? { data: [{ id: "re_batch_0" }] } : { id: "re_live_1" };
    const reply = typeof standIn.reply === "function" ? standIn.reply(request) : standIn.reply;
    const { status, body } = reply ?? { status: 200, body: accepted };
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  }

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const request = {
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: text ? JSON.parse(text) : undefined,
        };
        if (fromAnotherFile(request.body)) return answer(request, res);
        standIn.received.push(request);
        if (standIn.holding) held.push({ request, res });
        else answer(request, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  if (configure) envForSuite(() => ({ RESEND_API_KEY: RESEND_TEST_API_KEY, RESEND_BASE_URL: standIn.url }));

  beforeEach(() => {
    standIn.received = [];
    standIn.reply = null;
    standIn.holding = false;
    held = [];
  });

  return standIn;
}
