import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as sendBatch } from "@/app/api/v1/send/batch/route";
import { POST as send } from "@/app/api/v1/send/route";
import { DELETE as deleteSuppression } from "@/app/api/v1/suppressions/[email]/route";
import { GET as listSuppressions } from "@/app/api/v1/suppressions/route";
import { POST as postWebhook } from "@/app/api/v1/webhooks/route";
import { GET as getPage, POST as postUnsubscribe } from "@/app/u/[token]/route";
import { getConfig } from "@/lib/core/config";
import { UNSUBSCRIBE_LIMITS } from "@/lib/core/limits";
import { recordRateLimitHits } from "@/lib/db/rate-limits";
import { getDb } from "@/lib/db/client";
import { addToLibrary, auth, call, catalogueId, ISO, sender, type Sender } from "../support/api";

// One-click unsubscribe (RFC 8058): a send's `unsubscribe` puts a signed link in its headers and its component's
// `unsubscribeUrl`; GET shows it, POST suppresses the address for the send's group and nothing else.

const sendEmail = (user: Sender, body: Record<string, unknown>) =>
  call(send, "/api/v1/send", {
    method: "POST",
    headers: auth(user),
    body: { template_id: user.welcomeId, subject: "News", to: "ann@example.com", ...body },
  });

/** The List-Unsubscribe link the email recorded, and its token. */
async function linkOf(emailId: string): Promise<{ url: string; token: string; headers: Record<string, string> }> {
  const [{ headers }] = await getDb()<{ headers: Record<string, string> }[]>`
    select headers from sent_emails where id = ${emailId} or provider_message_id = ${emailId}`;
  const url = /^<(.+)>$/.exec(headers["List-Unsubscribe"])![1];
  return { url, token: url.slice(url.lastIndexOf("/") + 1), headers };
}

const page = (token: string) => call(getPage, `/u/${token}`, { params: { token } });
const unsubscribe = (token: string, body: string = "List-Unsubscribe=One-Click") =>
  call(postUnsubscribe, `/u/${token}`, { method: "POST", params: { token }, body });

async function suppressionsOf(user: Sender) {
  return (await call(listSuppressions, "/api/v1/suppressions", { headers: auth(user) })).body.suppressions;
}

describe("a send with unsubscribe", () => {
  it("carries RFC 8058's headers with a signed link to its one recipient, and gives the template the link", async () => {
    const user = await sender();
    await addToLibrary(user, "newsletter");
    const newsletter = await catalogueId("newsletter");
    const answer = await sendEmail(user, {
      template_id: newsletter,
      variables: { articles: [] },
      unsubscribe: true,
      headers: { "X-Campaign": "december" },
    });
    expect(answer.status).toBe(200);
    const { url, token, headers } = await linkOf(answer.body.data.id);
    expect(url).toBe(`${getConfig().siteUrl}/u/${token}`);
    expect(headers).toEqual({
      "X-Campaign": "december",
      "List-Unsubscribe": `<${url}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    const [{ html }] = await getDb()<{ html: string }[]>`
      select html from sent_emails where id = ${answer.body.data.id} or provider_message_id = ${answer.body.data.id}`;
    expect(html).toContain(`href="${url}"`);
    expect(html).toContain(">Unsubscribe<");
  });

  it("gives every email to one address and group the same link, and another address or group another", async () => {
    const user = await sender();
    const first = await linkOf((await sendEmail(user, { unsubscribe: true })).body.data.id);
    const again = await linkOf((await sendEmail(user, { unsubscribe: true })).body.data.id);
    const grouped = await linkOf((await sendEmail(user, { unsubscribe: { group: "digest" } })).body.data.id);
    const other = await linkOf((await sendEmail(user, { unsubscribe: true, to: "bob@example.com" })).body.data.id);
    expect(again.url).toBe(first.url);
    expect(new Set([first.url, grouped.url, other.url]).size).toBe(3);
  });

  it.each([
    [{ unsubscribe: true, to: ["ann@example.com", "bob@example.com"] }, "unsubscribe"],
    [{ unsubscribe: true, cc: "bob@example.com" }, "unsubscribe"],
    [{ unsubscribe: { group: "" } }, "unsubscribe"],
    [{ unsubscribe: { group: "g".repeat(65) } }, "unsubscribe"],
    [{ unsubscribe: { group: "a\nb" } }, "unsubscribe"],
    [{ unsubscribe: { group: "news\u202eevil" } }, "unsubscribe"],
    [{ unsubscribe: "yes" }, "unsubscribe"],
    [{ unsubscribe: { group: "news", extra: 1 } }, "unsubscribe"],
  ])("refuses %j with a 400 naming %s", async (body, field) => {
    const user = await sender();
    const answer = await sendEmail(user, body);
    expect(answer.status).toBe(400);
    expect(answer.body.details.map((d: { field: string }) => d.field.split(".")[0])).toEqual([field]);
  });

  it("refuses List-Unsubscribe in headers beside unsubscribe: 400 with field headers.List-Unsubscribe", async () => {
    const user = await sender();
    const answer = await sendEmail(user, {
      unsubscribe: true,
      headers: { "List-Unsubscribe": "<https://acme.example/u>" },
    });
    expect([answer.status, answer.body]).toEqual([
      400,
      {
        success: false,
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        details: [
          {
            field: "headers.List-Unsubscribe",
            message: "List-Unsubscribe cannot be set in headers with unsubscribe, which sets it",
          },
        ],
      },
    ]);
    // Without unsubscribe, the header is the sender's own.
    expect((await sendEmail(user, { headers: { "List-Unsubscribe": "<https://acme.example/u>" } })).status).toBe(200);
  });

  it("works in a batch too: each item its own link, and its group's suppressions hold back that item alone", async () => {
    const user = await sender();
    const batch = (emails: Record<string, unknown>[]) =>
      call(sendBatch, "/api/v1/send/batch", {
        method: "POST",
        headers: auth(user),
        body: { emails: emails.map((email) => ({ template_id: user.welcomeId, subject: "Hi", ...email })) },
      });
    const sent = await batch([
      { to: "ann@example.com", unsubscribe: { group: "digest" } },
      { to: "bob@example.com", unsubscribe: { group: "digest" } },
      { to: "carl@example.com" },
    ]);
    expect(sent.status).toBe(200);
    const [ann, bob] = await Promise.all(sent.body.data.slice(0, 2).map((email: { id: string }) => linkOf(email.id)));
    expect(ann.url).not.toBe(bob.url);
    const [{ headers: carl }] = await getDb()<{ headers: Record<string, string> }[]>`
      select headers from sent_emails where id::text = ${sent.body.data[2].id} or provider_message_id = ${sent.body.data[2].id}`;
    expect(carl).toEqual({});

    expect((await unsubscribe(ann.token)).status).toBe(200);
    const refused = await batch([
      { to: "bob@example.com", unsubscribe: { group: "digest" } },
      { to: "ann@example.com", unsubscribe: { group: "digest" } },
    ]);
    expect(refused.status).toBe(422);
    expect(refused.body.details.map((d: { field: string }) => d.field)).toEqual(["emails.1.to.0"]);
    expect((await batch([{ to: "ann@example.com" }, { to: "ann@example.com", unsubscribe: true }])).status).toBe(200);
    const twoRecipients = await batch([{ to: ["ann@example.com", "bob@example.com"], unsubscribe: true }]);
    expect([twoRecipients.status, twoRecipients.body.details.map((d: { field: string }) => d.field)]).toEqual([
      400,
      ["emails.0.unsubscribe"],
    ]);
  });
});

describe("/u/<token>", () => {
  it("GET shows what the link does and a button that posts it, and changes nothing", async () => {
    const user = await sender();
    const { token } = await linkOf((await sendEmail(user, { unsubscribe: { group: "Weekly <digest>" } })).body.data.id);
    for (let i = 0; i < 2; i++) {
      const shown = await page(token);
      expect(shown.status).toBe(200);
      expect(shown.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(shown.text).toContain(
        '<h1>Unsubscribe</h1><p>Stop emails about <strong>Weekly &lt;digest&gt;</strong> to <strong>ann@example.com</strong> from this sender?</p><form method="post"><button type="submit">Unsubscribe</button></form>',
      );
    }
    expect(await suppressionsOf(user)).toEqual([]);
  });

  it("POST, whatever its body, answers 200 and suppresses the address for the send's group, once", async () => {
    const user = await sender();
    const created = await call(postWebhook, "/api/v1/webhooks", {
      method: "POST",
      headers: auth(user),
      body: { url: "https://hooks.example.com/lp", events: ["email.unsubscribed"] },
    });
    expect(created.status).toBe(201);
    const sent = await sendEmail(user, { unsubscribe: true });
    const { token } = await linkOf(sent.body.data.id);
    for (const body of ["List-Unsubscribe=One-Click", "", "{not json"]) {
      const done = await unsubscribe(token, body);
      expect(done.status).toBe(200);
      expect(done.text).toContain(
        "<h1>You are unsubscribed</h1><p>No more emails to <strong>ann@example.com</strong> will be sent from this sender.</p>",
      );
    }
    expect(await suppressionsOf(user)).toEqual([
      { email: "ann@example.com", reason: "unsubscribed", group: null, created_at: ISO },
    ]);
    // One event, for the email that carried the link.
    const events = await getDb()<{ type: string; data: { email_id: string; unsubscribe: object } }[]>`
      select type, payload -> 'data' as data from webhook_events where account_id = ${user.accountId}
        and type = 'email.unsubscribed'`;
    expect(events).toEqual([
      { type: "email.unsubscribed", data: expect.objectContaining({ email_id: sent.body.data.id, unsubscribe: {} }) },
    ]);
  });

  it("holds back later sends of its group alone; a bounce still holds back every send", async () => {
    const user = await sender();
    const digest = await linkOf((await sendEmail(user, { unsubscribe: { group: "digest" } })).body.data.id);
    expect((await unsubscribe(digest.token)).status).toBe(200);

    const refused = await sendEmail(user, { unsubscribe: { group: "digest" } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: "RECIPIENT_SUPPRESSED",
      details: [{ field: "to.0", message: expect.stringContaining('its owner unsubscribed from "digest" on ') }],
    });
    expect((await sendEmail(user, { unsubscribe: { group: "product news" } })).status).toBe(200);
    expect((await sendEmail(user, { unsubscribe: true })).status).toBe(200);
    expect((await sendEmail(user, {})).status).toBe(200);
    expect(await suppressionsOf(user)).toEqual([
      { email: "ann@example.com", reason: "unsubscribed", group: "digest", created_at: ISO },
    ]);

    // The unnamed list of unsubscribe: true is a group of its own.
    const plain = await linkOf((await sendEmail(user, { unsubscribe: true })).body.data.id);
    expect((await unsubscribe(plain.token)).status).toBe(200);
    expect((await sendEmail(user, { unsubscribe: true })).status).toBe(422);
    expect((await sendEmail(user, {})).status).toBe(200);

    // Addresses at bounce.test bounce: suppressed for every send, unsubscribe or not.
    expect((await sendEmail(user, { to: "carl@bounce.test" })).status).toBe(200);
    expect((await sendEmail(user, { to: "carl@bounce.test", unsubscribe: { group: "digest" } })).status).toBe(422);
  });

  it("DELETE /suppressions/{email} lets every send go to the address again, its unsubscribes too, audited each", async () => {
    const user = await sender();
    const digest = await linkOf((await sendEmail(user, { unsubscribe: { group: "digest" } })).body.data.id);
    const plain = await linkOf((await sendEmail(user, { unsubscribe: true })).body.data.id);
    expect((await unsubscribe(digest.token)).status).toBe(200);
    expect((await unsubscribe(plain.token)).status).toBe(200);
    const removed = await call(deleteSuppression, "/x", {
      method: "DELETE",
      params: { email: "ann@example.com" },
      headers: auth(user),
    });
    expect(removed.status).toBe(200);
    expect(await suppressionsOf(user)).toEqual([]);
    expect((await sendEmail(user, { unsubscribe: { group: "digest" } })).status).toBe(200);
    const [entry] = await getDb()<{ details: object }[]>`
      select details from audit_log where account_id = ${user.accountId} and action = 'suppression.removed'`;
    expect(entry.details).toEqual({
      reason: "unsubscribed",
      removed: expect.arrayContaining([
        { reason: "unsubscribed", group: "digest" },
        { reason: "unsubscribed", group: "" },
      ]),
    });
  });

  it("refuses a token altered in any part, or made for another address, and suppresses nothing", async () => {
    const user = await sender();
    const { token } = await linkOf((await sendEmail(user, { unsubscribe: true })).body.data.id);
    const [data, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(data, "base64url").toString());
    const reencoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const flipped = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
    const forged = [
      `${flipped(data, 5)}.${signature}`,
      `${data}.${flipped(signature, 3)}`,
      `${data}.${signature.slice(0, -1)}`,
      `${reencoded([claims[0], claims[1], "eve@example.com", claims[3]])}.${signature}`,
      `${reencoded([claims[0], claims[1], claims[2], "digest"])}.${signature}`,
      `${reencoded([claims[0], claims[2], claims[1], claims[3]])}.${signature}`,
      `${data}.${signature}.${signature}`,
      "not-a-token",
      "x".repeat(5000),
    ];
    for (const bad of forged) {
      const answer = await unsubscribe(bad);
      expect(answer.status).toBe(404);
      expect(answer.text).toContain("<h1>This link does not work</h1>");
      expect((await page(bad)).status).toBe(404);
    }
    expect(await suppressionsOf(user)).toEqual([]);
  });

  it("counts no repeat; past 10 first tries an hour of an address and group, 429 with Retry-After", async () => {
    const user = await sender();
    const digest = await linkOf((await sendEmail(user, { unsubscribe: { group: "digest" } })).body.data.id);
    const news = await linkOf((await sendEmail(user, { unsubscribe: { group: "news" } })).body.data.id);
    for (let i = 0; i < 12; i++) expect((await unsubscribe(digest.token)).status).toBe(200);
    // Ten first tries of the news link already this hour (as when each found its account gone).
    const bucket = `unsubscribe:${createHash("sha256").update(`${user.accountId}\nann@example.com\nnews`).digest("hex")}`;
    const [{ hits }] = await recordRateLimitHits([bucket], UNSUBSCRIBE_LIMITS.windowSeconds);
    await getDb()`update rate_limit_windows set hits = 10 where bucket = ${bucket} and hits = ${hits}`;
    const limited = await unsubscribe(news.token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.text).toContain("<h1>Too many tries</h1>");
    expect(await suppressionsOf(user)).toEqual([
      { email: "ann@example.com", reason: "unsubscribed", group: "digest", created_at: ISO },
    ]);
  });

  it("takes a group of 64 characters however many UTF-16 units they are", async () => {
    const user = await sender();
    const group = "😀".repeat(64);
    const { token } = await linkOf((await sendEmail(user, { unsubscribe: { group } })).body.data.id);
    expect((await unsubscribe(token)).status).toBe(200);
    expect(await suppressionsOf(user)).toEqual([
      { email: "ann@example.com", reason: "unsubscribed", group, created_at: ISO },
    ]);
  });
});
