import { beforeAll, describe, expect, inject, it } from "vitest";
import { GET as getMetrics } from "@/app/api/v1/metrics/route";
import { POST as send } from "@/app/api/v1/send/route";
import { DELETE as deleteTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { getDb, jsonParameter } from "@/lib/db/client";
import { applyEmailEvent } from "@/lib/sent-emails/data/events";
import { deliverabilityWarning } from "@/lib/metrics/service";
import type { EmailEventType } from "@/lib/sent-emails/schemas";
import { auth, call, catalogueId, createUser, sender, type TestUser } from "../support/api";

// GET /metrics over hand-counted emails: each email written as the send pipeline records one, its events applied
// with their days as providers report them (apply_email_event), so the counts are the trigger's, as in production.

const metrics = (user: TestUser, query = "") => call(getMetrics, `/api/v1/metrics${query}`, { headers: auth(user) });

type Fixture = {
  day: string;
  template?: string | null;
  from?: string;
  tags?: { name: string; value: string }[];
  test?: boolean;
  events: (EmailEventType | ["clicked", string] | ["opened", string])[];
};

/** Records one email of `user` and applies its events at noon (UTC) of its day, one millisecond apart. */
async function email(user: TestUser, templateId: string | null, fixture: Fixture): Promise<string> {
  const db = getDb();
  const [{ id }] = await db<{ id: string }[]>`
    insert into sent_emails (account_id, template_id, status, provider, from_address, to_addresses, subject, html, tags,
                             test, created_at)
    values (${user.accountId}, ${templateId}, 'sent', 'outbox', ${fixture.from ?? "Acme <hi@acme.example>"},
            ${["ann@example.com"]}, 'Hello', '<p>Hello</p>', ${jsonParameter(db, fixture.tags ?? [])}::jsonb,
            ${fixture.test ?? false}, ${new Date(`${fixture.day}T11:00:00Z`)})
    returning id`;
  let at = Date.parse(`${fixture.day}T12:00:00Z`);
  for (const event of fixture.events) {
    const [type, link] = Array.isArray(event) ? event : [event, undefined];
    const detail = type === "clicked" ? { link } : type === "bounced" ? { type: "soft" } : null;
    await applyEmailEvent(id, type, { detail, occurredAt: new Date(at++) });
  }
  return id;
}

const zeroRates = { delivery_rate: 0, bounce_rate: 0, complaint_rate: 0, open_rate: 0, click_rate: 0 };
const counts = (
  sent: number,
  delivered: number,
  bounced: number,
  complained: number,
  failed: number,
  opened: number,
  clicked: number,
) => ({ sent, delivered, bounced, complained, failed, opened, clicked });
const zero = { ...counts(0, 0, 0, 0, 0, 0, 0), ...zeroRates };
const TAG_MESSAGE = "tag must be name:value, at most 513 characters without control characters";

/** Folds every delta of the account's (another fold running meanwhile folds them: waited for). */
async function foldAll(accountId: string) {
  const db = getDb();
  for (;;) {
    await db`select fold_email_metrics(100000)`;
    const [{ left }] = await db<{ left: number }[]>`
      select count(*)::int as left from email_metric_deltas where account_id = ${accountId}`;
    if (left === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The account's daily rows, every delta folded into them first. */
async function countedRows(accountId: string) {
  await foldAll(accountId);
  const db = getDb();
  const sums = db`sent, delivered, bounced, complained, failed, opened, clicked, clicked_emails`;
  return {
    emails: await db`
      select day, template_id, domain, test, ${sums} from email_metrics_daily where account_id = ${accountId}
      order by day, template_id nulls first, domain, test`,
    tags: await db`
      select tag, day, template_id, domain, test, ${sums} from email_tag_metrics_daily where account_id = ${accountId}
      order by tag, day, template_id nulls first, domain, test`,
  };
}

/** The hand-counted emails the tests below count, of `user`. */
async function recordFixtures(user: TestUser, welcome: string, receipt: string) {
  const day1 = "2026-11-02";
  const day2 = "2026-11-03";
  // Day 1, welcome: 4 sent; 3 delivered, of which one opened twice and one clicked (two links, one twice) and
  // complained; 1 bounced.
  await email(user, welcome, {
    day: day1,
    tags: [{ name: "kind", value: "onboarding" }],
    events: ["sent", "delivered", "opened", "opened"],
  });
  await email(user, welcome, {
    day: day1,
    tags: [
      { name: "kind", value: "onboarding" },
      { name: "plan", value: "pro" },
    ],
    events: [
      "sent",
      "delivered",
      "opened",
      ["clicked", "https://a.example/1"],
      ["clicked", "https://a.example/1"],
      ["clicked", "https://a.example/2"],
      "complained",
    ],
  });
  await email(user, welcome, { day: day1, events: ["sent", "delivered"] });
  await email(user, welcome, { day: day1, events: ["sent", "bounced"] });
  // Day 2, receipt, from another domain: 1 sent and delivered, 1 failed (never sent).
  await email(user, receipt, { day: day2, from: "billing@Shop.Example", events: ["sent", "delivered"] });
  await email(user, receipt, { day: day2, from: "billing@Shop.Example", events: ["failed"] });
  // A test send, left out unless test=true.
  await email(user, welcome, { day: day2, test: true, events: ["sent", "delivered", "opened"] });
  // Outside the range asked for below.
  await email(user, welcome, { day: "2026-10-31", events: ["sent", "delivered"] });
}

describe("GET /api/v1/metrics", () => {
  let user: TestUser;
  let welcome: string;
  let receipt: string;

  beforeAll(async () => {
    user = await createUser("monthly");
    welcome = await catalogueId("welcome");
    receipt = await catalogueId("receipt");
    await recordFixtures(user, welcome, receipt);
  });

  const range = "?from=2026-11-01&to=2026-11-04";

  it("counts by day, every day of the range, with the contract's rates", async () => {
    const result = await metrics(user, range);
    expect([result.status, result.body]).toEqual([
      200,
      {
        success: true,
        from: "2026-11-01",
        to: "2026-11-04",
        metrics: [
          { key: "2026-11-01", ...zero },
          // delivery 3/4, bounce 1/4; complaint 1/3, open 2/3, click 1/3 (one email; it clicked two links).
          {
            key: "2026-11-02",
            ...counts(4, 3, 1, 1, 0, 2, 2),
            delivery_rate: 0.75,
            bounce_rate: 0.25,
            complaint_rate: 0.3333,
            open_rate: 0.6667,
            click_rate: 0.3333,
          },
          {
            key: "2026-11-03",
            ...counts(1, 1, 0, 0, 1, 0, 0),
            delivery_rate: 1,
            bounce_rate: 0,
            complaint_rate: 0,
            open_rate: 0,
            click_rate: 0,
          },
          { key: "2026-11-04", ...zero },
        ],
        totals: {
          ...counts(5, 4, 1, 1, 1, 2, 2),
          delivery_rate: 0.8,
          bounce_rate: 0.2,
          complaint_rate: 0.25,
          open_rate: 0.5,
          click_rate: 0.25,
        },
      },
    ]);
  });

  it("counts by template, by domain and by tag, the most sent first", async () => {
    const byTemplate = await metrics(user, `${range}&group_by=template`);
    expect(byTemplate.status).toBe(200);
    expect(
      byTemplate.body.metrics.map((m: { key: string; sent: number; failed: number }) => [m.key, m.sent, m.failed]),
    ).toEqual([
      [welcome, 4, 0],
      [receipt, 1, 1],
    ]);
    const byDomain = await metrics(user, `${range}&group_by=domain`);
    expect(
      byDomain.body.metrics.map((m: { key: string; sent: number; delivered: number }) => [m.key, m.sent, m.delivered]),
    ).toEqual([
      ["acme.example", 4, 3],
      ["shop.example", 1, 1],
    ]);
    const byTag = await metrics(user, `${range}&group_by=tag`);
    expect(byTag.body).toEqual({
      success: true,
      from: "2026-11-01",
      to: "2026-11-04",
      metrics: [
        {
          key: "kind:onboarding",
          ...counts(2, 2, 0, 1, 0, 2, 2),
          delivery_rate: 1,
          bounce_rate: 0,
          complaint_rate: 0.5,
          open_rate: 1,
          click_rate: 0.5,
        },
        {
          key: "plan:pro",
          ...counts(1, 1, 0, 1, 0, 1, 2),
          delivery_rate: 1,
          bounce_rate: 0,
          complaint_rate: 1,
          open_rate: 1,
          click_rate: 1,
        },
      ],
      // The range's, each email once: not the sum of its tags'.
      totals: byDomain.body.totals,
    });
  });

  it("filters by template and by tag, and counts test sends with test=true", async () => {
    const receiptOnly = await metrics(user, `${range}&group_by=template&template_id=${receipt}`);
    expect(receiptOnly.body.metrics.map((m: { key: string }) => m.key)).toEqual([receipt]);
    expect(receiptOnly.body.totals).toEqual({
      ...counts(1, 1, 0, 0, 1, 0, 0),
      delivery_rate: 1,
      ...{ bounce_rate: 0, complaint_rate: 0, open_rate: 0, click_rate: 0 },
    });

    const tagged = await metrics(user, `${range}&tag=plan:pro`);
    expect(tagged.body.totals).toEqual({
      ...counts(1, 1, 0, 1, 0, 1, 2),
      delivery_rate: 1,
      bounce_rate: 0,
      complaint_rate: 1,
      open_rate: 1,
      click_rate: 1,
    });
    expect(tagged.body.metrics[1]).toMatchObject({ key: "2026-11-02", sent: 1 });

    const withTests = await metrics(user, `${range}&test=true`);
    expect(withTests.body.totals).toMatchObject(counts(6, 5, 1, 1, 1, 3, 2));
    expect(withTests.body.metrics[2]).toMatchObject({ key: "2026-11-03", sent: 2, delivered: 2, opened: 1 });
  });

  it("counts an account's own emails alone", async () => {
    const other = await createUser("monthly");
    const result = await metrics(other, range);
    expect(result.status).toBe(200);
    expect(result.body.totals).toEqual(zero);
    expect(result.body.metrics).toHaveLength(4);
  });

  it("counts sends as the pipeline records them, in the transaction of their events", async () => {
    const user = await sender();
    const answer = await call(send, "/api/v1/send", {
      method: "POST",
      headers: auth(user),
      body: {
        template_id: user.welcomeId,
        to: ["ann@opened.test", "bob@example.com"],
        subject: "Hi",
        tags: [{ name: "kind", value: "welcome" }],
      },
    });
    expect(answer.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const result = await metrics(user, `?group_by=tag`);
    expect(result.body).toEqual({
      success: true,
      from: new Date(Date.parse(today) - 29 * 86_400_000).toISOString().slice(0, 10),
      to: today,
      metrics: [
        {
          key: "kind:welcome",
          ...counts(1, 1, 0, 0, 0, 1, 0),
          delivery_rate: 1,
          bounce_rate: 0,
          complaint_rate: 0,
          open_rate: 1,
          click_rate: 0,
        },
      ],
      totals: {
        ...counts(1, 1, 0, 0, 0, 1, 0),
        delivery_rate: 1,
        bounce_rate: 0,
        complaint_rate: 0,
        open_rate: 1,
        click_rate: 0,
      },
    });
  });

  // PGlite runs one session, whose advisory locks do not hold its other connections back.
  it.runIf(inject("databaseKind") === "postgresql")(
    "answers the same from the deltas not yet folded as from the daily rows they are folded into",
    async () => {
      const db = getDb();
      const queries = [range, `${range}&group_by=template`, `${range}&group_by=tag`, `${range}&tag=plan:pro&test=true`];
      await foldAll(user.accountId);
      const folded = await Promise.all(queries.map((query) => metrics(user, query)));
      // The same emails again under another account, read while no fold can run (its lock held here).
      const again = await createUser("monthly");
      const holder = await db.reserve();
      try {
        await holder`select pg_advisory_lock(hashtext('email_metrics'))`;
        await recordFixtures(again, welcome, receipt);
        const [{ deltas }] = await db<{ deltas: number }[]>`
        select count(*)::int as deltas from email_metric_deltas where account_id = ${again.accountId}`;
        // Each email's first sent, delivered, opened and so on: 21 events that count, of 23.
        expect(deltas).toBe(21);
        expect(await db`select fold_email_metrics(100000) as folded`).toEqual([{ folded: 0 }]);
        const unfolded = await Promise.all(queries.map((query) => metrics(again, query)));
        expect(unfolded.map((answer) => answer.body)).toEqual(folded.map((answer) => answer.body));
      } finally {
        await holder`select pg_advisory_unlock(hashtext('email_metrics'))`;
        holder.release();
      }
    },
  );

  it("counts again what was recorded, as the trigger counted it (rebuild_email_metrics)", async () => {
    const before = await countedRows(user.accountId);
    await getDb()`select rebuild_email_metrics(${user.accountId}::uuid)`;
    expect(await countedRows(user.accountId)).toEqual(before);
    expect(before.emails.length).toBeGreaterThan(0);
    expect(before.tags.length).toBeGreaterThan(0);
  });

  it.each([
    ["?from=2026-13-01", "from", "from must be a date from 1970-01-01, YYYY-MM-DD (UTC)"],
    ["?from=2026-02-30", "from", "from must be a date from 1970-01-01, YYYY-MM-DD (UTC)"],
    ["?from=0000-01-01&to=2026-01-02", "from", "from must be a date from 1970-01-01, YYYY-MM-DD (UTC)"],
    ["?from=1969-12-31", "from", "from must be a date from 1970-01-01, YYYY-MM-DD (UTC)"],
    ["?to=yesterday", "to", "to must be a date from 1970-01-01, YYYY-MM-DD (UTC)"],
    ["?from=2026-11-05&to=2026-11-04", "to", "to must not be before from"],
    ["?from=2025-01-01&to=2026-01-02", "to", "from and to must be at most 366 days apart (both counted)"],
    ["?group_by=week", "group_by", "group_by must be one of day, template, tag, domain"],
    ["?template_id=welcome", "template_id", "template_id must be a template's id (a UUID)"],
    ["?tag=onboarding", "tag", TAG_MESSAGE],
    ["?tag=:onboarding", "tag", TAG_MESSAGE],
    ["?tag=kind:", "tag", TAG_MESSAGE],
    ["?tag=kind:a%00b", "tag", TAG_MESSAGE],
    ["?tag=kind:a%0Ab", "tag", TAG_MESSAGE],
    [`?tag=${"k".repeat(257)}:${"v".repeat(256)}`, "tag", TAG_MESSAGE],
    ["?test=yes", "test", "test must be true or false"],
    ["?limit=10", "limit", "limit is not a recognised field"],
  ])("answers %s with a 400 naming the field", async (query, field, message) => {
    const result = await metrics(user, query);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ success: false, code: "VALIDATION_ERROR", details: [{ field, message }] });
  });

  it("takes a range of exactly 366 days", async () => {
    const result = await metrics(user, "?from=2025-11-04&to=2026-11-04");
    expect(result.status).toBe(200);
    expect(result.body.metrics).toHaveLength(366);
    expect(result.body.totals).toMatchObject(counts(6, 5, 1, 1, 1, 2, 2));
  });
});

describe("GET /api/v1/metrics counts each thing once", () => {
  const range = "?from=2026-11-01&to=2026-11-04";

  it("an email reported sent and delivered twice (the hand-off's and the provider's events) counts once", async () => {
    const user = await createUser("monthly");
    await email(user, null, { day: "2026-11-02", events: ["sent", "sent", "delivered", "delivered", "bounced"] });
    const result = await metrics(user, range);
    expect(result.body.totals).toEqual({
      ...counts(1, 1, 1, 0, 0, 0, 0),
      delivery_rate: 1,
      bounce_rate: 1,
      complaint_rate: 0,
      open_rate: 0,
      click_rate: 0,
    });
    const before = await countedRows(user.accountId);
    await getDb()`select rebuild_email_metrics(${user.accountId}::uuid)`;
    expect(await countedRows(user.accountId)).toEqual(before);
  });

  it("tags whose name:value read the same are one key, counted once an email, and tag= finds it", async () => {
    const user = await createUser("monthly");
    await email(user, null, {
      day: "2026-11-02",
      tags: [
        { name: "a:b", value: "c" },
        { name: "a", value: "b:c" },
      ],
      events: ["sent", "delivered"],
    });
    await email(user, null, { day: "2026-11-02", tags: [{ name: "a", value: "b" }], events: ["sent"] });
    const byTag = await metrics(user, `${range}&group_by=tag`);
    expect(byTag.body.metrics.map((m: { key: string; sent: number }) => [m.key, m.sent])).toEqual([
      ["a:b", 1],
      ["a:b:c", 1],
    ]);
    const filtered = await metrics(user, `${range}&tag=${encodeURIComponent("a:b:c")}`);
    expect(filtered.body.totals).toMatchObject(counts(1, 1, 0, 0, 0, 0, 0));
  });

  it("answers the 100 most sent keys by tag, and totals every email", async () => {
    const user = await createUser("monthly");
    const tags = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => ({ name: "t", value: String(from + i).padStart(3, "0") }));
    await email(user, null, { day: "2026-11-02", tags: tags(0, 50), events: ["sent"] });
    await email(user, null, { day: "2026-11-02", tags: tags(50, 101), events: ["sent", "delivered"] });
    await email(user, null, { day: "2026-11-03", tags: tags(50, 51), events: ["sent"] });
    const result = await metrics(user, `${range}&group_by=tag`);
    expect(result.status).toBe(200);
    const keys = result.body.metrics.map((m: { key: string; sent: number }) => [m.key, m.sent]);
    // t:050 the most sent; then the rest by key, t:100 left out.
    expect(keys).toEqual([
      ["t:050", 2],
      ...tags(0, 50).map((t) => [`t:${t.value}`, 1]),
      ...tags(51, 100).map((t) => [`t:${t.value}`, 1]),
    ]);
    expect(result.body.totals).toMatchObject(counts(3, 1, 0, 0, 0, 0, 0));
  });

  it("a deleted template's counts move to emails without a template, as its emails do, and the rebuild agrees", async () => {
    const user = await createUser("monthly");
    const created = await call(postTemplate, "/api/v1/templates", {
      method: "POST",
      headers: auth(user),
      body: { name: "Receipt", files: { "email.tsx": "export default function E() { return <p>Paid</p>; }\n" } },
    });
    expect(created.status).toBe(201);
    const id = created.body.template.id as string;
    await email(user, id, { day: "2026-11-02", tags: [{ name: "kind", value: "receipt" }], events: ["sent"] });
    await email(user, id, { day: "2026-11-02", events: ["sent", "delivered"] });
    await email(user, null, { day: "2026-11-02", events: ["sent", "bounced"] });
    const before = await metrics(user, `${range}&group_by=template`);
    expect(before.body.metrics.map((m: { key: string | null; sent: number }) => [m.key, m.sent])).toEqual([
      [id, 2],
      [null, 1],
    ]);

    const deleted = await call(deleteTemplate, "/x", { method: "DELETE", params: { id }, headers: auth(user) });
    expect(deleted.status).toBe(200);
    const after = await metrics(user, `${range}&group_by=template`);
    expect(after.body.metrics).toEqual([
      {
        key: null,
        ...counts(3, 1, 1, 0, 0, 0, 0),
        delivery_rate: 0.3333,
        bounce_rate: 0.3333,
        complaint_rate: 0,
        open_rate: 0,
        click_rate: 0,
      },
    ]);
    expect(after.body.totals).toEqual(before.body.totals);
    const moved = await countedRows(user.accountId);
    expect(moved.tags.map((row) => [row.tag, row.template_id, row.sent])).toEqual([["kind:receipt", null, 1]]);
    await getDb()`select rebuild_email_metrics(${user.accountId}::uuid)`;
    expect(await countedRows(user.accountId)).toEqual(moved);
  });
});

// PGlite runs one statement at a time, so only PostgreSQL can show transactions counting at once.
describe.runIf(inject("databaseKind") === "postgresql")("GET /api/v1/metrics on PostgreSQL", () => {
  it("transactions counting one template's emails at once, in any order, never wait on each other", async () => {
    const user = await createUser("monthly");
    const welcome = await catalogueId("welcome");
    const ids = await Promise.all(
      Array.from({ length: 4 }, () => email(user, welcome, { day: "2026-11-02", events: [] })),
    );
    const db = getDb();
    const [first, second] = await Promise.all([db.reserve(), db.reserve()]);
    try {
      for (const connection of [first, second]) {
        await connection`begin`;
        // A wait on the other's rows would fail here instead of hanging (or deadlocking, as shared rows did).
        await connection`set local lock_timeout = '2s'`;
      }
      const sent = (connection: typeof first, emailId: string) =>
        connection`select applied from apply_email_event(${emailId}::uuid, 'sent')`;
      await sent(first, ids[0]);
      await sent(second, ids[1]);
      await sent(first, ids[2]);
      await sent(second, ids[3]);
      await first`commit`;
      await second`commit`;
    } finally {
      first.release();
      second.release();
    }
    const result = await metrics(user, "?group_by=template");
    expect(result.body.metrics.map((m: { key: string; sent: number }) => [m.key, m.sent])).toEqual([[welcome, 4]]);
  });

  it("a fold beside a team being deleted waits on none of its rows and leaves them to the deletion", async () => {
    const db = getDb();
    const [doomed, other] = [await createUser("monthly"), await createUser("monthly")];
    await email(doomed, null, { day: "2026-11-02", events: ["sent"] });
    await email(other, null, { day: "2026-11-02", events: ["sent"] });
    const deleter = await db.reserve();
    try {
      // As delete_team does: the account's row first, its cascade after.
      await deleter`begin`;
      await deleter`select id from accounts where id = ${doomed.accountId} for update`;
      const folder = await db.reserve();
      try {
        await folder`set lock_timeout = '2s'`;
        await folder`select fold_email_metrics(100000)`;
      } finally {
        await folder`reset lock_timeout`;
        folder.release();
      }
      await deleter`delete from accounts where id = ${doomed.accountId}`;
      await deleter`commit`;
    } finally {
      deleter.release();
    }
    await foldAll(other.accountId);
    expect(
      await db`select count(*)::int as left from email_metric_deltas where account_id = ${doomed.accountId}`,
    ).toEqual([{ left: 0 }]);
    expect((await metrics(other, "?from=2026-11-02&to=2026-11-02")).body.totals).toMatchObject({ sent: 1 });
  });

  it("lists every day of the range in a session whose time zone changes its clocks at midnight", async () => {
    const user = await createUser("monthly");
    const connection = await getDb().reserve();
    try {
      await connection`set time zone 'America/Santiago'`;
      // Chile's clocks go from 00:00 to 01:00 on 2026-09-06.
      const days = await connection`
        select key from email_metrics(${user.accountId}::uuid, '2026-09-05', '2026-09-08', 'day', null, null, false, 100)
        where not total`;
      expect(days.map((row) => row.key)).toEqual(["2026-09-05", "2026-09-06", "2026-09-07", "2026-09-08"]);
    } finally {
      await connection`reset time zone`;
      connection.release();
    }
  });

  it("a rebuild beside sends counts each event once", async () => {
    const user = await createUser("monthly");
    const welcome = await catalogueId("welcome");
    const emails = Array.from({ length: 40 }, (_, n) =>
      email(user, welcome, { day: "2026-11-02", events: n % 2 ? ["sent", "delivered"] : ["sent"] }),
    );
    const rebuilds = Array.from({ length: 5 }, () => getDb()`select rebuild_email_metrics(${user.accountId}::uuid)`);
    await Promise.all([...emails, ...rebuilds]);
    const result = await metrics(user, "?from=2026-11-02&to=2026-11-02");
    expect(result.body.totals).toMatchObject(counts(40, 20, 0, 0, 0, 0, 0));
  });
});

describe("the overview's deliverability warning (deliverabilityWarning)", () => {
  const today = new Date().toISOString().slice(0, 10);
  const templateName = async (id: string) =>
    (await getDb()<{ name: string }[]>`select name from templates where id = ${id}`)[0].name;

  it("warns at a 4% bounce rate over the last 30 days, naming the templates and domains behind it", async () => {
    const user = await createUser("monthly");
    const [welcome, receipt] = [await catalogueId("welcome"), await catalogueId("receipt")];
    for (let i = 0; i < 24; i++) await email(user, welcome, { day: today, events: ["sent", "delivered"] });
    // A test send's bounce is not the account's reputation.
    await email(user, receipt, { day: today, test: true, events: ["sent", "bounced"] });
    expect(await deliverabilityWarning(user.accountId)).toBeNull();

    await email(user, receipt, { day: today, from: "billing@shop.example", events: ["sent", "bounced"] });
    expect(await deliverabilityWarning(user.accountId)).toEqual({
      complaintRate: null,
      bounceRate: 0.04,
      templates: [await templateName(receipt)],
      domains: ["shop.example"],
    });
  });

  it("warns at a 0.3% complaint rate, and not below it", async () => {
    const welcome = await catalogueId("welcome");
    /** An account whose `delivered` emails of the last 30 days had one complaint. */
    const withOneComplaint = async (delivered: number) => {
      const user = await createUser("monthly");
      for (let i = 1; i < delivered; i++) await email(user, welcome, { day: today, events: ["sent", "delivered"] });
      await email(user, welcome, { day: today, events: ["sent", "delivered", "complained"] });
      return user;
    };
    // 1 of 333 delivered: 0.3003%.
    expect(await deliverabilityWarning((await withOneComplaint(333)).accountId)).toEqual({
      complaintRate: 0.003,
      bounceRate: null,
      templates: [await templateName(welcome)],
      domains: ["acme.example"],
    });
    // 1 of 334: 0.2994%, though its rate rounds to 0.003 (four decimals).
    expect(await deliverabilityWarning((await withOneComplaint(334)).accountId)).toBeNull();
  });
});
