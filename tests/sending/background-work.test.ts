import { afterEach, describe, expect, it, vi } from "vitest";
import { POST as send } from "@/app/api/v1/send/route";
import { runInBackground } from "@/lib/core/background";
import { saveCustomerId } from "@/lib/billing/data/customers";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { billingPeriod, type PlanName } from "@/lib/core/plans";
import { addToLibrary, auth, call, catalogueId, createUser } from "../support/api";
import { useStripeStandIn } from "../support/stripe";
import { addEndpoint } from "../support/webhooks";

// Work a request starts but does not await must be handed to Next's after(), which keeps a serverless function alive
// until it settles. `after` is watched here: inside a request it queues the task; the tests run what was queued.
const queued: (() => Promise<unknown>)[] = [];
vi.mock("next/server", async (importOriginal) => {
  const original = await importOriginal<typeof import("next/server")>();
  return { ...original, after: vi.fn((task: () => Promise<unknown>) => void queued.push(task)) };
});
const { after } = await import("next/server");

vi.mock("stripe", () => import("../support/stripe-sdk"));
const standIn = useStripeStandIn();

afterEach(() => {
  queued.length = 0;
  vi.mocked(after).mockClear();
});

async function sender(plan: PlanName, emailsUsed = 0) {
  const user = await createUser(plan);
  await addSendingDomain(user.accountId, { domain: `acme-${user.accountId.slice(0, 8)}.example`, verified: true });
  await addToLibrary(user, "welcome");
  await getDb()`
    insert into usage_counters (account_id, metric, period_start, count) values (${user.accountId}, 'emails', ${billingPeriod().start}, ${emailsUsed})
    on conflict (account_id, metric, period_start) do update set count = excluded.count`;
  return { ...user, welcomeId: await catalogueId("welcome") };
}

const sendOne = (user: Awaited<ReturnType<typeof sender>>) =>
  call(send, "/api/v1/send", {
    method: "POST",
    headers: auth(user),
    body: { template_id: user.welcomeId, to: "ann@example.com", subject: "Hi" },
  });

describe("background work outlives the response", () => {
  it("a send hands the scheduled-email dispatch to after(), which delivers a due outbox email once run", async () => {
    const user = await sender("free");
    const [due] = await getDb()<{ id: string }[]>`
      insert into sent_emails (account_id, status, provider, from_address, to_addresses, subject, html, scheduled_at)
      values (${user.accountId}, 'scheduled', 'outbox', 'hello@bg.example', '{bob@example.com}', 'Later', '<p>x</p>', now() - interval '1 minute')
      returning id`;

    expect((await sendOne(user)).status).toBe(200);
    // The dispatch, and the run of the webhook events the send made (the next test).
    expect(after).toHaveBeenCalledTimes(2);
    const status = async () =>
      (await getDb()<{ status: string }[]>`select status from sent_emails where id = ${due.id}`)[0].status;
    expect(await status()).toBe("scheduled");

    await Promise.all(queued.map((task) => task()));
    expect(await status()).toBe("sent");
  });

  it("a send hands the first attempt of its webhook events to after(), which makes it once run", async () => {
    const user = await sender("free");
    // A name that resolves nowhere: the attempt fails at once, recorded, whatever the sender.
    const endpoint = await addEndpoint(user.accountId, { url: "https://hooks.invalid/in", events: ["email.sent"] });
    expect((await sendOne(user)).status).toBe(200);
    const deliveries = () =>
      getDb()<{ attempts: number; recorded: number }[]>`
        select d.attempts, (select count(*)::int from webhook_attempts a where a.delivery_id = d.id) as recorded
        from webhook_deliveries d where d.endpoint_id = ${endpoint.id}`;
    expect(await deliveries()).toEqual([{ attempts: 0, recorded: 0 }]);

    await Promise.all(queued.map((task) => task()));
    expect(await deliveries()).toEqual([{ attempts: 1, recorded: 1 }]);
  });

  // The first overage send of a process starts the flush (later ones within 30 s do not): this is that send.
  it("an overage send hands the backlog flush to after()", async () => {
    const user = await sender("monthly", 10_000);
    await saveCustomerId(user.accountId, `cus_bg_${user.accountId.slice(0, 8)}`);
    // The email's own report fails, so it is left to the flush.
    standIn.override = (request) =>
      request.path === "/v1/billing/meter_events"
        ? { status: 500, body: { error: { type: "api_error", message: "down" } } }
        : undefined;
    const result = await sendOne(user);
    expect(result.body.meta.email_usage).toMatchObject({ is_overage: true, billing_usage_reported: false });
    standIn.override = undefined;
    expect(after).toHaveBeenCalled();
    await getDb()`update email_overage_ledger set next_report_at = now() - interval '1 second' where account_id = ${user.accountId}`;
    const reported = async () =>
      (
        await getDb()<
          { reported_at: Date | null }[]
        >`select reported_at from email_overage_ledger where account_id = ${user.accountId}`
      )[0].reported_at;
    expect(await reported()).toBeNull();

    await Promise.all(queued.map((task) => task()));
    expect(await reported()).toBeInstanceOf(Date);
  });

  it("outside a request scope, where after() throws, the task runs at once and its failure is logged", async () => {
    vi.mocked(after).mockImplementationOnce(() => {
      throw new Error("`after` was called outside a request scope.");
    });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    let ran = false;
    runInBackground("a test task", async () => {
      ran = true;
      throw new Error("boom");
    });
    expect(ran).toBe(true);
    await vi.waitFor(() =>
      expect(errors).toHaveBeenCalledWith(
        JSON.stringify({ level: "error", message: "a test task failed", error: "boom" }),
      ),
    );
    errors.mockRestore();
  });
});
