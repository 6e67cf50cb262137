import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/core/config";
import type { HostLookup } from "@/lib/core/outbound-addresses";
import { attemptWebhook, webhookConnectLookup, webhookUrlProblem } from "@/lib/webhooks/outbound";
import { setTestEnv } from "../support/env";
import { PUBLIC_ADDRESS, tableLookup } from "../support/host-lookup";

// No webhook leads inside the network: a URL is refused at creation (webhookUrlProblem) and each attempt is refused
// again (attemptWebhook) when its host is, or resolves to, an internal address, in every form an address is written;
// a name is checked on the very answer the connection uses. WEBHOOKS_ALLOW_PRIVATE_URLS=1 alone lifts it.
// A server on every local address (IPv4 and IPv6) counts the connections that reach it: none may.

let server: Server;
let port: number;
let connections = 0;
beforeAll(async () => {
  server = createServer((_, response) => response.writeHead(200).end("inside"));
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "::", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const SIGNED = { "webhook-id": "evt-1", "webhook-timestamp": "1796191207", "webhook-signature": "v1,c2lnbmVk" };
const BODY = '{"type":"webhook.test","created_at":"2026-12-02T06:00:00.000Z","data":{}}';

/** The outcome of an attempt refused before it connected. */
const refused = (error: string) => ({
  status: null,
  durationMs: expect.any(Number),
  error,
  excerpt: "",
  succeeded: false,
});

const LOOPBACK = "a loopback address";
const LINK_LOCAL = "a link-local address (where cloud metadata services answer)";
const PRIVATE = "a private address";

/** Each way of writing an internal address in a URL's host, the address it is read as, and what that is. */
const LITERALS: [string, string, string][] = [
  ["127.0.0.1", "127.0.0.1", LOOPBACK],
  ["127.1", "127.0.0.1", LOOPBACK],
  ["2130706433", "127.0.0.1", LOOPBACK], // decimal
  ["017700000001", "127.0.0.1", LOOPBACK], // octal
  ["0177.0.0.01", "127.0.0.1", LOOPBACK], // octal parts
  ["0x7f000001", "127.0.0.1", LOOPBACK], // hexadecimal
  ["0x7f.0.0.1", "127.0.0.1", LOOPBACK],
  ["[::1]", "::1", LOOPBACK],
  ["[0:0:0:0:0:0:0:1]", "::1", LOOPBACK],
  ["[::ffff:127.0.0.1]", "::ffff:7f00:1", LOOPBACK], // IPv4-mapped IPv6
  ["[::ffff:7f00:1]", "::ffff:7f00:1", LOOPBACK],
  ["[::127.0.0.1]", "::7f00:1", "an IPv6 address outside the global unicast range (2000::/3)"], // IPv4-compatible
  ["169.254.169.254", "169.254.169.254", LINK_LOCAL], // the cloud metadata address
  ["2852039166", "169.254.169.254", LINK_LOCAL],
  ["[::ffff:169.254.169.254]", "::ffff:a9fe:a9fe", LINK_LOCAL],
  ["[fe80::1]", "fe80::1", LINK_LOCAL],
  ["10.0.0.1", "10.0.0.1", PRIVATE],
  ["012.0.0.1", "10.0.0.1", PRIVATE],
  ["172.16.0.1", "172.16.0.1", PRIVATE],
  ["192.168.1.1", "192.168.1.1", PRIVATE],
  ["[::ffff:192.168.1.1]", "::ffff:c0a8:101", PRIVATE],
  ["[fc00::1]", "fc00::1", "a unique-local address"],
  ["[fd12:3456::1]", "fd12:3456::1", "a unique-local address"],
  ["224.0.0.1", "224.0.0.1", "a multicast address"],
  ["[ff02::1]", "ff02::1", "a multicast address"],
  ["0.0.0.0", "0.0.0.0", "the unspecified address"],
  ["0", "0.0.0.0", "the unspecified address"],
  ["[::]", "::", "the unspecified address"],
  ["255.255.255.255", "255.255.255.255", "the broadcast address"],
  ["100.64.0.1", "100.64.0.1", "a shared (carrier-grade NAT) address"],
  ["192.0.2.1", "192.0.2.1", "a reserved address"],
  ["[64:ff9b::7f00:1]", "64:ff9b::7f00:1", "a non-public address (rfc6052)"], // NAT64
  ["[2002:7f00:1::]", "2002:7f00:1::", "a non-public address (6to4)"],
  ["[2001::1]", "2001::1", "a non-public address (teredo)"],
];

describe("an internal address written in the URL", () => {
  it.each(LITERALS)("https://%s is refused at creation and at each attempt", async (host, address, kind) => {
    const url = `https://${host}:${port}/hooks`;
    const message = `url must be on a public host: ${address} is ${kind}`;
    expect(await webhookUrlProblem(url)).toBe(message);
    expect(await attemptWebhook({ url, headers: SIGNED, body: BODY })).toEqual(refused(message));
    expect(connections).toBe(0);
  });

  it("leaves public addresses alone", async () => {
    for (const host of [PUBLIC_ADDRESS, "[2606:2800:21f:cb07:6820:80da:af6b:8b2c]", "[::ffff:93.184.215.14]"]) {
      expect(await webhookUrlProblem(`https://${host}/hooks`)).toBeNull();
    }
  });
});

describe("a name that is, or resolves to, an internal address", () => {
  const lookedUp: string[] = [];
  const table = tableLookup({
    "loop.acme.example": ["127.0.0.1"],
    "metadata.acme.example": ["169.254.169.254"],
    "mapped.acme.example": ["::ffff:10.0.0.1"],
    "compatible.acme.example": ["::7f00:1"],
    "mixed.acme.example": [PUBLIC_ADDRESS, "::1"],
    "gone.acme.example": [],
  });
  const lookup: HostLookup = async (hostname, options) => {
    lookedUp.push(hostname);
    return table(hostname, options);
  };

  it.each([
    ["loop.acme.example", "loop.acme.example resolves to a loopback address"],
    ["metadata.acme.example", `metadata.acme.example resolves to ${LINK_LOCAL}`],
    ["mapped.acme.example", "mapped.acme.example resolves to a private address"],
    [
      "compatible.acme.example",
      "compatible.acme.example resolves to an IPv6 address outside the global unicast range (2000::/3)",
    ],
    ["mixed.acme.example", "mixed.acme.example resolves to a loopback address"],
    ["gone.acme.example", "gone.acme.example does not resolve"],
    ["localhost", "localhost is an internal name"],
    ["LocalHost.", "localhost is an internal name"],
    ["metadata.google.internal", "metadata.google.internal is an internal name"],
    ["printer.local", "printer.local is an internal name"],
    ["intranet", "intranet is a name without a domain, looked up only inside a network"],
  ])("https://%s is refused at creation and at each attempt", async (host, problem) => {
    const url = `https://${host}:${port}/hooks`;
    const message = `url must be on a public host: ${problem}`;
    expect(await webhookUrlProblem(url, { lookup })).toBe(message);
    expect(await attemptWebhook({ url, headers: SIGNED, body: BODY, lookup })).toEqual(refused(message));
    // As refused on a connection the account's attempts keep open (its lookup is the new connection's).
    expect(await attemptWebhook({ url, headers: SIGNED, body: BODY, lookup, accountId: "account-a" })).toEqual(
      refused(message),
    );
    expect(connections).toBe(0);
  });

  it("is looked up in the table tests install, by default (nothing leaves the machine)", async () => {
    expect(await webhookUrlProblem("https://hooks.acme.example/letterpress")).toBeNull();
    expect(await webhookUrlProblem("https://hooks.acme.invalid/letterpress")).toBe(
      "url must be on a public host: hooks.acme.invalid does not resolve",
    );
  });

  it("is refused when its lookup does not answer before the attempt's deadline", async () => {
    const hanging: HostLookup = () => new Promise(() => {});
    const outcome = await attemptWebhook({
      url: "https://slow.acme.example/hooks",
      headers: SIGNED,
      body: BODY,
      timeoutMs: 200,
      lookup: hanging,
    });
    expect(outcome).toEqual(refused("no answer within 0.2 s"));
  });
});

describe("a DNS answer that changes between the check and the connection (rebinding)", () => {
  it("cannot get in: the connection's own lookup is the one checked", async () => {
    const answers = [[PUBLIC_ADDRESS], ["127.0.0.1"]];
    let calls = 0;
    const rebinding: HostLookup = async () => answers[Math.min(calls++, answers.length - 1)];
    const url = `https://rebind.acme.example:${port}/hooks`;
    expect(await webhookUrlProblem(url, { lookup: rebinding })).toBeNull();
    expect(await attemptWebhook({ url, headers: SIGNED, body: BODY, lookup: rebinding })).toEqual(
      refused("url must be on a public host: rebind.acme.example resolves to a loopback address"),
    );
    expect(
      await attemptWebhook({ url, headers: SIGNED, body: BODY, lookup: rebinding, accountId: "account-a" }),
    ).toEqual(refused("url must be on a public host: rebind.acme.example resolves to a loopback address"));
    expect(calls).toBe(3);
    expect(connections).toBe(0);
  });

  it("hands the socket exactly the addresses it checked, from one lookup", async () => {
    let calls = 0;
    const lookup = webhookConnectLookup(async () => {
      calls++;
      return calls === 1 ? ["::ffff:93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] : ["127.0.0.1"];
    }, new AbortController().signal);
    const answer = (options: Parameters<typeof lookup>[1]) =>
      new Promise((resolve) =>
        lookup("twice.acme.example", options, (error, address, family) => resolve({ error, address, family })),
      );
    expect(await answer({ all: true })).toEqual({
      error: null,
      address: [
        { address: PUBLIC_ADDRESS, family: 4 },
        { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
      ],
      family: undefined,
    });
    expect(calls).toBe(1);
    // The next connection looks up again, and is refused on that answer.
    expect(await answer({ all: true, family: 6 })).toEqual({
      error: new Error("url must be on a public host: twice.acme.example resolves to a loopback address"),
      address: "",
      family: undefined,
    });
    expect(calls).toBe(2);
  });

  it("answers one address, of the family asked for, when the socket asks for one", async () => {
    const lookup = webhookConnectLookup(
      async () => [PUBLIC_ADDRESS, "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
      new AbortController().signal,
    );
    const answer = (options: Parameters<typeof lookup>[1]) =>
      new Promise((resolve) => lookup("both.acme.example", options, (...args) => resolve(args)));
    expect(await answer({})).toEqual([null, PUBLIC_ADDRESS, 4]);
    expect(await answer({ family: 6 })).toEqual([null, "2606:2800:21f:cb07:6820:80da:af6b:8b2c", 6]);
    const v4Only = webhookConnectLookup(async () => [PUBLIC_ADDRESS], new AbortController().signal);
    const missing = await new Promise<[NodeJS.ErrnoException | null]>((resolve) =>
      v4Only("v4.acme.example", { family: 6 }, (error) => resolve([error])),
    );
    expect(missing[0]).toMatchObject({ message: "v4.acme.example has no IPv6 address", code: "ENOTFOUND" });
  });
});

describe("the URL's own rules", () => {
  it.each([
    ["http://hooks.acme.example/letterpress", "url must be an https:// URL"],
    ["ftp://hooks.acme.example/letterpress", "url must be an https:// URL"],
    ["hooks.acme.example/letterpress", "url must be an absolute URL"],
    ["https://user:secret@hooks.acme.example/letterpress", "url must not hold credentials (user:password@)"],
    ["https://user@hooks.acme.example/letterpress", "url must not hold credentials (user:password@)"],
    [`https://hooks.acme.example/${"a".repeat(2049 - 27)}`, "url must be at most 2,048 characters"],
  ])("%s is refused: %s", async (url, message) => {
    expect(await webhookUrlProblem(url)).toBe(message);
    expect(await attemptWebhook({ url, headers: SIGNED, body: BODY })).toEqual(refused(message));
  });

  it("takes an https:// URL of 2,048 characters on a public host", async () => {
    const url = `https://hooks.acme.example/${"a".repeat(2048 - 27)}`;
    expect(url).toHaveLength(2048);
    expect(await webhookUrlProblem(url)).toBeNull();
  });
});

describe("WEBHOOKS_ALLOW_PRIVATE_URLS", () => {
  it("is read from the environment: 1 lifts the rule; 0, unset or npm run dev's NODE_ENV alone do not", () => {
    expect(parseConfig({ WEBHOOKS_ALLOW_PRIVATE_URLS: "1" }).webhooksAllowPrivateUrls).toBe(true);
    expect(parseConfig({ WEBHOOKS_ALLOW_PRIVATE_URLS: "0" }).webhooksAllowPrivateUrls).toBe(false);
    expect(parseConfig({}).webhooksAllowPrivateUrls).toBe(false);
    expect(parseConfig({ NODE_ENV: "development" }).webhooksAllowPrivateUrls).toBe(false);
    expect(() => parseConfig({ WEBHOOKS_ALLOW_PRIVATE_URLS: "yes" })).toThrow(
      new ConfigError(["WEBHOOKS_ALLOW_PRIVATE_URLS must be 1 (webhook URLs may be http:// and internal) or 0"]),
    );
  });

  it("=1 allows http:// and internal hosts at creation, and the attempt reaches them", async () => {
    setTestEnv({ WEBHOOKS_ALLOW_PRIVATE_URLS: "1" });
    for (const url of [
      `http://127.0.0.1:${port}/hooks`,
      `http://[::1]:${port}/hooks`,
      "http://localhost:4000/hooks",
      "https://10.0.0.1/hooks",
    ]) {
      expect(await webhookUrlProblem(url)).toBeNull();
    }
    // Still an http(s) URL, without credentials, of at most 2,048 characters.
    expect(await webhookUrlProblem("ftp://127.0.0.1/hooks")).toBe("url must be an http:// or https:// URL");
    expect(await webhookUrlProblem("http://user:secret@127.0.0.1/hooks")).toBe(
      "url must not hold credentials (user:password@)",
    );
    expect(await webhookUrlProblem(`http://127.0.0.1/${"a".repeat(2049 - 17)}`)).toBe(
      "url must be at most 2,048 characters",
    );
    expect(await attemptWebhook({ url: `http://[::1]:${port}/hooks`, headers: SIGNED, body: BODY })).toEqual({
      status: 200,
      durationMs: expect.any(Number),
      excerpt: "inside",
      succeeded: true,
    });
    expect(connections).toBe(1);
  });

  it("is what webhookUrlProblem follows unless told otherwise", async () => {
    const url = `http://127.0.0.1:${port}/hooks`;
    expect(await webhookUrlProblem(url)).toBe("url must be an https:// URL");
    expect(await webhookUrlProblem(url, { allowPrivate: true })).toBeNull();
    setTestEnv({ WEBHOOKS_ALLOW_PRIVATE_URLS: "1" });
    expect(await webhookUrlProblem(url)).toBeNull();
    expect(await webhookUrlProblem(url, { allowPrivate: false })).toBe("url must be an https:// URL");
  });
});
