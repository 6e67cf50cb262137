import { describe, expect, it, vi } from "vitest";
import type { TeamSession } from "@/lib/auth/current";
import { getDb } from "@/lib/db/client";
import { deleteSignIn, deleteTeam } from "@/lib/teams/deletion";
import { createUser, type TestUser } from "../support/api";
import { useStripeStandIn } from "../support/stripe";

vi.mock("stripe", () => import("../support/stripe-sdk"));

const standIn = useStripeStandIn();

/** The team's admin as requireAccount() gives them, and a live subscription of the team. */
async function subscribedTeam(role: "admin" | "member" = "admin"): Promise<{ user: TestUser; session: TeamSession }> {
  const user = await createUser("monthly");
  const db = getDb();
  await db`update accounts set name = 'Acme' where id = ${user.accountId}`;
  await db`insert into billing_subscriptions (subscription_id, account_id, customer_id, status, plan, last_event_created)
    values (${"sub_" + user.accountId}, ${user.accountId}, ${"cus_" + user.accountId}, 'active', 'monthly', now())`;
  const session: TeamSession = {
    id: user.accountId,
    plan: "monthly",
    created_at: new Date(),
    name: "Acme",
    role,
    person: { id: user.personId, email: user.email },
  };
  return { user, session };
}

const accountRows = async (user: TestUser) =>
  (await getDb()`select id from accounts where id = ${user.accountId}`).length;
const cancels = () =>
  standIn.requests.filter((r) => r.method === "DELETE").map((r) => ({ method: r.method, path: r.path }));

describe("deleting a team with a Stripe subscription", () => {
  it("cancels the subscription before the delete", async () => {
    const { user, session } = await subscribedTeam();
    await deleteTeam(session, "Acme");
    expect(cancels()).toEqual([{ method: "DELETE", path: `/v1/subscriptions/sub_${user.accountId}` }]);
    expect(await accountRows(user)).toBe(0);
  });

  it("is refused, deleting nothing, when Stripe refuses the cancellation", async () => {
    const { user, session } = await subscribedTeam();
    standIn.override = (request) =>
      request.method === "DELETE"
        ? {
            status: 500,
            body: { error: { type: "api_error", message: "Stand-in outage" } },
            headers: { "stripe-should-retry": "false" },
          }
        : undefined;
    await expect(deleteTeam(session, "Acme")).rejects.toMatchObject({
      code: "PAYMENT_PROCESSOR_ERROR",
      message:
        "The team's subscription could not be cancelled with the payment provider; nothing was deleted. Please try again.",
    });
    standIn.override = undefined;
    expect(await accountRows(user)).toBe(1);
  });

  it("is refused without the team's name typed, or for a member, cancelling nothing", async () => {
    const { user, session } = await subscribedTeam();
    await expect(deleteTeam(session, "acme")).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      message: "Type the team's name, Acme, to delete it.",
    });
    const member = await subscribedTeam("member");
    await expect(deleteTeam(member.session, "Acme")).rejects.toMatchObject({ code: "ADMIN_REQUIRED" });
    expect(cancels()).toEqual([]);
    expect(await accountRows(user)).toBe(1);
    expect(await accountRows(member.user)).toBe(1);
  });
});

describe("deleting a sign-in", () => {
  it("cancels the subscription of the team they are alone in, and deletes it with them", async () => {
    const { user } = await subscribedTeam();
    await deleteSignIn(user.personId);
    expect(cancels()).toEqual([{ method: "DELETE", path: `/v1/subscriptions/sub_${user.accountId}` }]);
    expect(await accountRows(user)).toBe(0);
  });
});
