import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as sendBatch } from "@/app/api/v1/send/batch/route";
import { POST as send } from "@/app/api/v1/send/route";
import { getDb } from "@/lib/db/client";
import { isPublicAddress } from "@/lib/core/outbound-addresses";
import { useHostLookup } from "@/lib/sending/attachment-hosts";
import { auth, call, sender, type Sender } from "../support/api";
import { PUBLIC_ADDRESS, tableLookup } from "../support/host-lookup";

// An attachment's `path` follows the outbound-request rule: Resend fetches it, so the send refuses any host that is, or
// resolves to, a loopback, private, link-local (metadata), unique-local, multicast or unspecified address. Names are
// answered from a table of the test's (no lookup leaves the machine).

const lookedUp: string[] = [];
beforeAll(() => {
  const table = tableLookup({
    "files.acme.example": ["10.0.0.5"],
    "mixed.acme.example": [PUBLIC_ADDRESS, "::1"],
    "mapped.acme.example": ["::ffff:169.254.169.254"],
    "gone.acme.example": [],
    "slow.acme.example": () => new Promise<string[]>(() => {}),
  });
  useHostLookup(async (hostname, options) => {
    lookedUp.push(hostname);
    return table(hostname, options);
  });
});
afterAll(() => useHostLookup(tableLookup()));

const validation = (details: { field: string; message: string }[]) => ({
  error: "Invalid request body",
  code: "VALIDATION_ERROR",
  success: false,
  details,
});

const message = (user: Sender, attachments: unknown[]) => ({
  template_id: user.welcomeId,
  to: "ann@example.com",
  subject: "Welcome aboard",
  attachments,
});

const post = (user: Sender, body: unknown) => call(send, "/api/v1/send", { method: "POST", headers: auth(user), body });

const storedCount = async (user: Sender) =>
  (
    await getDb()<
      { count: number }[]
    >`select count(*)::int as count from sent_emails where account_id = ${user.accountId}`
  )[0].count;

let shared: Promise<Sender> | undefined;
const user = () => (shared ??= sender("monthly"));

describe("POST /send refuses an attachment path on an internal host", () => {
  it.each([
    ["localhost", "localhost is an internal name"],
    ["LOCALHOST.", "localhost is an internal name"],
    ["app.localhost", "app.localhost is an internal name"],
    ["127.0.0.1", "127.0.0.1 is a loopback address"],
    ["127.1", "127.0.0.1 is a loopback address"],
    ["[::1]", "::1 is a loopback address"],
    ["0x7f000001", "127.0.0.1 is a loopback address"],
    ["2130706433", "127.0.0.1 is a loopback address"],
    ["017700000001", "127.0.0.1 is a loopback address"],
    ["[::ffff:127.0.0.1]", "::ffff:7f00:1 is a loopback address"],
    ["169.254.169.254", "169.254.169.254 is a link-local address (where cloud metadata services answer)"],
    ["metadata.google.internal", "metadata.google.internal is an internal name"],
    ["10.0.0.1", "10.0.0.1 is a private address"],
    ["192.168.1.1", "192.168.1.1 is a private address"],
    ["172.16.0.1", "172.16.0.1 is a private address"],
    ["100.100.100.200", "100.100.100.200 is a shared (carrier-grade NAT) address"],
    ["[fc00::1]", "fc00::1 is a unique-local address"],
    ["[fe80::1]", "fe80::1 is a link-local address (where cloud metadata services answer)"],
    ["224.0.0.1", "224.0.0.1 is a multicast address"],
    ["0.0.0.0", "0.0.0.0 is the unspecified address"],
    ["[::]", ":: is the unspecified address"],
    ["[64:ff9b::a00:1]", "64:ff9b::a00:1 is a non-public address (rfc6052)"],
    ["intranet", "intranet is a name without a domain, looked up only inside a network"],
  ])("https://%s/file.pdf: 400 naming attachments.0.path, nothing stored", async (host, problem) => {
    const sender = await user();
    const before = await storedCount(sender);
    const result = await post(sender, message(sender, [{ filename: "f.pdf", path: `https://${host}/file.pdf` }]));
    expect([result.status, result.body]).toEqual([
      400,
      validation([{ field: "attachments.0.path", message: `path must be on a public host: ${problem}` }]),
    ]);
    expect(await storedCount(sender)).toBe(before);
  });

  it.each([
    ["files.acme.example", "files.acme.example resolves to a private address"],
    ["mixed.acme.example", "mixed.acme.example resolves to a loopback address"],
    [
      "mapped.acme.example",
      "mapped.acme.example resolves to a link-local address (where cloud metadata services answer)",
    ],
    ["gone.acme.example", "gone.acme.example does not resolve"],
  ])("a name resolving to an internal address (or to none), %s: 400, nothing stored", async (host, problem) => {
    const sender = await user();
    const before = await storedCount(sender);
    const result = await post(sender, message(sender, [{ filename: "f.pdf", path: `https://${host}/file.pdf` }]));
    expect([result.status, result.body]).toEqual([
      400,
      validation([{ field: "attachments.0.path", message: `path must be on a public host: ${problem}` }]),
    ]);
    expect(await storedCount(sender)).toBe(before);
  });

  it("refuses a name whose lookup does not answer within 2 s", async () => {
    const sender = await user();
    const started = performance.now();
    const result = await post(
      sender,
      message(sender, [{ filename: "f.pdf", path: "https://slow.acme.example/f.pdf" }]),
    );
    expect([result.status, result.body]).toEqual([
      400,
      validation([
        {
          field: "attachments.0.path",
          message:
            "path must be on a public host: slow.acme.example could not be looked up (no answer within 2 s, or the lookup failed)",
        },
      ]),
    ]);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("names each refused attachment by its index, looks each name up once, and sends none of it", async () => {
    const sender = await user();
    const before = await storedCount(sender);
    lookedUp.length = 0;
    const result = await post(
      sender,
      message(sender, [
        { filename: "a.txt", content: "aGk=" },
        { filename: "b.pdf", path: "https://files.acme.example/b.pdf" },
        { filename: "c.pdf", path: "https://cdn.acme.example/c.pdf" },
        { filename: "d.pdf", path: "https://files.acme.example/d.pdf" },
      ]),
    );
    expect([result.status, result.body]).toEqual([
      400,
      validation([
        {
          field: "attachments.1.path",
          message: "path must be on a public host: files.acme.example resolves to a private address",
        },
        {
          field: "attachments.3.path",
          message: "path must be on a public host: files.acme.example resolves to a private address",
        },
      ]),
    ]);
    expect(lookedUp.sort()).toEqual(["cdn.acme.example", "files.acme.example"]);
    expect(await storedCount(sender)).toBe(before);
  });

  it("refuses an internal literal before any lookup, with every other problem of the body", async () => {
    const sender = await user();
    lookedUp.length = 0;
    const result = await post(sender, {
      ...message(sender, [
        { filename: "a.pdf", path: "https://127.0.0.1/a.pdf" },
        { filename: "b.pdf", path: "https://files.acme.example/b.pdf" },
      ]),
      subject: "",
    });
    expect([result.status, result.body]).toEqual([
      400,
      validation([
        { field: "subject", message: "subject must be 1 to 998 characters" },
        { field: "attachments.0.path", message: "path must be on a public host: 127.0.0.1 is a loopback address" },
      ]),
    ]);
    expect(lookedUp).toEqual([]);
  });

  it("sends a path on a public host and records it as given", async () => {
    const sender = await user();
    const path = "https://cdn.acme.example/terms.pdf";
    const result = await post(sender, message(sender, [{ filename: "terms.pdf", path }]));
    expect(result.status).toBe(200);
    const [row] = await getDb()<{ attachments: unknown }[]>`
      select attachments from sent_emails where id = ${result.body.data.id}`;
    expect(row.attachments).toEqual([{ filename: "terms.pdf", path }]);
  });
});

describe("POST /send/batch", () => {
  it("names an internal path under emails.<j>.attachments.<i>.path, besides refusing attachments in a batch", async () => {
    const sender = await user();
    const result = await call(sendBatch, "/api/v1/send/batch", {
      method: "POST",
      headers: auth(sender),
      body: {
        emails: [
          { template_id: sender.welcomeId, to: "ann@example.com", subject: "Hi" },
          message(sender, [{ filename: "f.pdf", path: "https://[::ffff:127.0.0.1]/f.pdf" }]),
        ],
      },
    });
    expect([result.status, result.body]).toEqual([
      400,
      validation([
        {
          field: "emails.1.attachments.0.path",
          message: "path must be on a public host: ::ffff:7f00:1 is a loopback address",
        },
        {
          field: "emails.1.attachments",
          message: "attachments is not supported in a batch: send this email with POST /api/v1/send",
        },
      ]),
    ]);
  });
});

describe("isPublicAddress", () => {
  it.each([
    ["8.8.8.8", true],
    [PUBLIC_ADDRESS, true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
    ["127.0.0.1", false],
    ["0x7f000001", false],
    ["2130706433", false],
    ["::1", false],
    ["::ffff:10.0.0.1", false],
    ["169.254.169.254", false],
    ["fd00:ec2::254", false],
    ["fe80::1%eth0", false],
    ["ff02::1", false],
    ["255.255.255.255", false],
    ["192.0.2.1", false],
    ["2002:7f00:1::", false],
    ["example.com", false],
    ["", false],
  ])("%s: %s", (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});
