import { revalidatePath } from "next/cache";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { cancelEmailAction } from "@/app/dashboard/emails/actions";
import { removeSuppressionAction } from "@/app/dashboard/emails/suppressions/actions";
import { getEmailOrThrow } from "@/lib/sent-emails/service";
import { listSuppressionsPage } from "@/lib/suppressions/service";
import { ISO, counter, sender, type Sender } from "../support/api";
import { sentEmailId } from "../support/send";
import { signedIn } from "../support/signed-in";

// The Emails pages' actions: cancel a scheduled email, remove a suppression, for the signed-in account only.
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
// A Server Action runs inside a request: its headers give the audit log the client's address.
vi.mock("next/headers", () => import("../support/next-headers"));

const schedule = (user: Sender) =>
  sentEmailId(user, { scheduled_at: new Date(Date.now() + 24 * 3600_000).toISOString() });

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

beforeEach(() => void vi.mocked(revalidatePath).mockClear());

describe("cancelEmailAction", () => {
  it("cancels the account's scheduled email: canceled with its event, no longer counted, every dashboard page fresh", async () => {
    const user = await sender();
    signedIn.accountId = user.accountId;
    const id = await schedule(user);
    expect(await counter(user, "emails")).toBe(1);

    expect(await cancelEmailAction(form({ id }))).toEqual({ status: "success" });
    const email = await getEmailOrThrow(user.accountId, id);
    expect([email.status, email.events]).toEqual([
      "canceled",
      [
        { type: "scheduled", at: ISO },
        { type: "canceled", at: ISO },
      ],
    ]);
    expect(await counter(user, "emails")).toBe(0);
    expect(vi.mocked(revalidatePath).mock.calls).toEqual([["/dashboard", "layout"]]);
  });

  it("answers the API's message for an email past canceling, changes nothing, and refreshes the pages to show why", async () => {
    const user = await sender();
    signedIn.accountId = user.accountId;
    const id = await sentEmailId(user, {});

    expect(await cancelEmailAction(form({ id }))).toEqual({
      status: "error",
      message: "Only a scheduled email can be canceled; its status is delivered",
    });
    expect((await getEmailOrThrow(user.accountId, id)).status).toBe("delivered");
    expect(await counter(user, "emails")).toBe(1);
    expect(vi.mocked(revalidatePath).mock.calls).toEqual([["/dashboard", "layout"]]);
  });

  it("does not cancel another account's email: Email not found", async () => {
    const owner = await sender();
    const id = await schedule(owner);
    signedIn.accountId = (await sender()).accountId;

    expect(await cancelEmailAction(form({ id }))).toEqual({ status: "error", message: "Email not found" });
    expect((await getEmailOrThrow(owner.accountId, id)).status).toBe("scheduled");
    expect(await counter(owner, "emails")).toBe(1);
  });
});

describe("removeSuppressionAction", () => {
  it("removes the account's suppressed address, in any case, and refreshes the Suppressions page", async () => {
    const user = await sender();
    signedIn.accountId = user.accountId;
    await sentEmailId(user, { to: "gone@bounce.test" });
    await sentEmailId(user, { to: "spam@complaint.test" });

    await removeSuppressionAction(form({ email: "Gone@Bounce.test" }));
    expect(await listSuppressionsPage(user.accountId, { limit: 50, offset: 0 })).toEqual({
      suppressions: [{ email: "spam@complaint.test", reason: "complained", created_at: ISO }],
      pagination: { limit: 50, offset: 0, total: 1 },
    });
    expect(vi.mocked(revalidatePath).mock.calls).toEqual([["/dashboard/emails/suppressions"]]);
  });

  it("takes an address removed meanwhile as done, and never removes another account's", async () => {
    const other = await sender();
    await sentEmailId(other, { to: "gone@bounce.test" });
    const user = await sender();
    signedIn.accountId = user.accountId;

    await expect(removeSuppressionAction(form({ email: "gone@bounce.test" }))).resolves.toBeUndefined();
    expect(await listSuppressionsPage(other.accountId, { limit: 50, offset: 0 })).toEqual({
      suppressions: [{ email: "gone@bounce.test", reason: "bounced", created_at: ISO }],
      pagination: { limit: 50, offset: 0, total: 1 },
    });
    expect(vi.mocked(revalidatePath).mock.calls).toEqual([["/dashboard/emails/suppressions"]]);
  });
});
