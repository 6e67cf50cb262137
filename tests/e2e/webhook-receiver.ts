import http from "node:http";
import type { AddressInfo } from "node:net";

/** A request the receiver was sent: its path, headers and body as received. */
export type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };

export type Receiver = {
  /** The receiver's URL for `path` (the e2e server lets webhooks reach 127.0.0.1: WEBHOOKS_ALLOW_PRIVATE_URLS=1). */
  url: (path: string) => string;
  received: Received[];
  /** The requests to `path`, once there are `count` of them (waits at most 10 s, then answers those there are). */
  waitFor: (path: string, count: number) => Promise<Received[]>;
  close: () => Promise<void>;
};

/**
 * A webhook receiver on 127.0.0.1 for the browser tests' endpoints: a path under /fail answers 500 with a body saying
 * so, any other 200 "received". Each request is kept, to compare with what the dashboard shows.
 */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      const failing = path.startsWith("/fail");
      response.writeHead(failing ? 500 : 200, { "content-type": "text/plain" });
      response.end(failing ? "receiver failed on purpose" : "received");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    async waitFor(path, count) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const matching = received.filter((request) => request.path === path);
        if (matching.length >= count || Date.now() > deadline) return matching;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
