import { revalidatePath } from "next/cache";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { addDomainAction, removeDomainAction } from "@/app/dashboard/domains/actions";
import { addSendingDomain, listSendingDomains } from "@/lib/sending-domains/data";
import { createUser, uniqueDomain } from "../support/api";
import { envForEachTest } from "../support/env";
import { signedIn } from "../support/signed-in";

// Domains → Add a domain: the form answers why a domain cannot be added, next to the field, and keeps what was typed.
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
// A Server Action runs inside a request: its headers give the audit log the client's address.
vi.mock("next/headers", () => import("../support/next-headers"));

const SHARED = "shared.letterpress.example";

function domainForm(domain: string): FormData {
  const data = new FormData();
  data.set("domain", domain);
  data.set("defaultSender", "");
  return data;
}

async function signIn(): Promise<string> {
  signedIn.accountId = (await createUser()).accountId;
  return signedIn.accountId;
}

const refused = (domain: string, message: string) => ({
  status: "error",
  message,
  fields: { domain: message },
  values: { domain, defaultSender: "" },
});

beforeEach(() => {
  vi.mocked(revalidatePath).mockClear();
});
envForEachTest({ SHARED_SENDING_DOMAIN: SHARED });

describe("addDomainAction", () => {
  it("refuses another account's parent and sub-domains, with the reason, and adds the account's own sub-domain", async () => {
    const theirs = uniqueDomain();
    await addSendingDomain((await createUser()).accountId, { domain: `mail.${theirs}`, verified: true });
    const accountId = await signIn();

    for (const domain of [theirs, `news.mail.${theirs}`]) {
      expect(await addDomainAction({ status: "idle" }, domainForm(domain))).toEqual(
        refused(
          domain,
          `${domain} is a parent or sub-domain of a domain another account has verified. A domain and its sub-domains belong to one account only.`,
        ),
      );
    }
    expect(await listSendingDomains(accountId)).toEqual([]);
    expect(vi.mocked(revalidatePath)).not.toHaveBeenCalled();

    const mine = uniqueDomain();
    for (const domain of [mine, `mail.${mine}`]) {
      expect(await addDomainAction({ status: "idle" }, domainForm(domain))).toEqual({
        status: "success",
        message: `Added ${domain}. Mark it verified to send from it.`,
      });
    }
    expect((await listSendingDomains(accountId)).map((d) => d.domain)).toEqual([mine, `mail.${mine}`]);
  });

  it("refuses the shared sending domain and the system sender's domain, their parents and sub-domains", async () => {
    const accountId = await signIn();
    const shared = (domain: string) =>
      `${domain} is reserved: ${SHARED} is this service's shared sending domain, and neither it nor its parent and sub-domains can be added. Every account may send from an address @${SHARED} without adding it.`;
    // tests/support/setup.ts: SYSTEM_EMAIL_FROM is Letterpress <no-reply@letterpress.test>.
    const system = (domain: string) =>
      `${domain} is reserved: this service sends its own email from letterpress.test, and neither it nor its parent and sub-domains can be added.`;
    const cases: [string, string][] = [
      [SHARED, shared(SHARED)],
      [` ${SHARED.toUpperCase()} `, shared(SHARED)],
      ["letterpress.example", shared("letterpress.example")],
      [`news.${SHARED}`, shared(`news.${SHARED}`)],
      ["letterpress.test", system("letterpress.test")],
      ["mail.letterpress.test", system("mail.letterpress.test")],
    ];
    for (const [domain, message] of cases) {
      expect(await addDomainAction({ status: "idle" }, domainForm(domain))).toEqual(refused(domain, message));
    }
    expect(await listSendingDomains(accountId)).toEqual([]);
  });
});

describe("removeDomainAction", () => {
  const removeForm = (id: string) => {
    const data = new FormData();
    data.set("id", id);
    return data;
  };
  const GONE = { status: "error", message: "That domain is no longer on your list." };

  it("removes a verified domain, which another account may then add; a second removal says it is gone", async () => {
    const accountId = await signIn();
    const domain = uniqueDomain();
    const added = await addSendingDomain(accountId, { domain, verified: true });
    const kept = await addSendingDomain(accountId, { domain: uniqueDomain(), verified: true });

    expect(await removeDomainAction(removeForm(added.id))).toEqual({
      status: "success",
      message: `Removed ${domain}.`,
    });
    expect((await listSendingDomains(accountId)).map((row) => row.domain)).toEqual([kept.domain]);
    expect(vi.mocked(revalidatePath).mock.calls).toEqual([["/dashboard/domains"], ["/dashboard"]]);
    expect(await removeDomainAction(removeForm(added.id))).toEqual(GONE);

    const other = (await createUser()).accountId;
    expect((await addSendingDomain(other, { domain, verified: true })).domain).toBe(domain);
  });

  it("leaves another account's domain, or an id that is no domain, as it is", async () => {
    const theirs = await addSendingDomain((await createUser()).accountId, { domain: uniqueDomain(), verified: true });
    await signIn();
    for (const id of [theirs.id, "not-a-uuid", ""]) expect(await removeDomainAction(removeForm(id))).toEqual(GONE);
    const [{ n }] = await (await import("@/lib/db/client")).getDb()<{ n: number }[]>`
      select count(*)::int as n from sending_domains where id = ${theirs.id}`;
    expect(n).toBe(1);
  });
});
