import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import type { TeamSession } from "@/lib/auth/current";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { deleteSignIn, deleteTeam } from "@/lib/teams/deletion";
import { createUser, type TestUser } from "../support/api";
import { useResendStandIn } from "../support/resend-stand-in";

// With Resend configured, a deleted team's sending domains are removed there too, after the team is gone from the
// database: what Resend answers is logged when it fails, and never brings the team back nor stops its deletion.

const resend = useResendStandIn();

/** A team (its admin as requireAccount() gives them) with two domains at Resend and one added before Resend was. */
async function teamWithDomains(): Promise<{ user: TestUser; session: TeamSession; domains: string[]; ids: string[] }> {
  const user = await createUser("free");
  await getDb()`update accounts set name = 'Acme' where id = ${user.accountId}`;
  const tag = randomUUID().slice(0, 8);
  const domains = [`a-${tag}.example.com`, `b-${tag}.example.com`];
  const ids = [`dom_a_${tag}`, `dom_b_${tag}`];
  for (const [index, domain] of domains.entries())
    await addSendingDomain(user.accountId, { domain, verified: true, providerDomainId: ids[index] });
  await addSendingDomain(user.accountId, { domain: `local-${tag}.example.com`, verified: true });
  const session: TeamSession = {
    id: user.accountId,
    plan: "free",
    created_at: new Date(),
    name: "Acme",
    role: "admin",
    person: { id: user.personId, email: user.email },
  };
  return { user, session, domains, ids };
}

const teamRows = async (user: TestUser) => (await getDb()`select id from accounts where id = ${user.accountId}`).length;
const domainRows = async (user: TestUser) =>
  (await getDb()`select id from sending_domains where account_id = ${user.accountId}`).length;
const removals = () => resend.received.map(({ method, url, body }) => ({ method, url, body }));

/** Runs `work`, answering the error lines it logged (parsed). */
async function loggedErrors(work: () => Promise<void>): Promise<unknown[]> {
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await work();
    return error.mock.calls.map(([line]) => JSON.parse(String(line)));
  } finally {
    error.mockRestore();
  }
}

describe("deleting a team with Resend configured", () => {
  it("deletes the team, then removes each of its domains that Resend has", async () => {
    const { user, session, ids } = await teamWithDomains();
    expect(await loggedErrors(() => deleteTeam(session, "Acme"))).toEqual([]);
    expect(await teamRows(user)).toBe(0);
    expect(await domainRows(user)).toBe(0);
    expect(removals()).toEqual(ids.map((id) => ({ method: "DELETE", url: `/domains/${id}`, body: undefined })));
  });

  it("keeps the team deleted when Resend fails, logging each failure with the request's id; a domain Resend no longer has is no failure", async () => {
    const { user, session, domains, ids } = await teamWithDomains();
    resend.reply = (request) =>
      request.url === `/domains/${ids[0]}`
        ? { status: 404, body: { statusCode: 404, name: "not_found", message: "Domain not found" } }
        : { status: 500, body: { statusCode: 500, name: "internal_server_error", message: "Stand-in outage" } };
    const errors = await loggedErrors(() => deleteTeam(session, "Acme"));
    expect(errors).toEqual([
      {
        level: "error",
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        message: "removing a deleted team's sending domain from Resend failed",
        domain: domains[1],
        providerDomainId: ids[1],
        error: `Could not remove ${domains[1]} from Resend: Resend answered HTTP 500 internal_server_error: Stand-in outage`,
      },
    ]);
    expect(await teamRows(user)).toBe(0);
    expect(await domainRows(user)).toBe(0);
    expect(removals()).toEqual(ids.map((id) => ({ method: "DELETE", url: `/domains/${id}`, body: undefined })));
  });

  it("keeps the team deleted when Resend cannot be reached", async () => {
    const { user, session, domains, ids } = await teamWithDomains();
    resend.reply = () => ({ status: 502, body: "<html>Bad gateway</html>" });
    const errors = (await loggedErrors(() => deleteTeam(session, "Acme"))) as { domain: string; requestId: string }[];
    expect(errors.map(({ domain }) => domain)).toEqual(domains);
    // One deletion, one request id on each of its lines.
    expect(new Set(errors.map(({ requestId }) => requestId)).size).toBe(1);
    expect(await teamRows(user)).toBe(0);
    expect(removals()).toHaveLength(ids.length);
  });

  it("asks nothing of Resend when the deletion is refused", async () => {
    const { user, session } = await teamWithDomains();
    await expect(deleteTeam(session, "Other")).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    await expect(deleteTeam({ ...session, role: "member" }, "Acme")).rejects.toMatchObject({ code: "ADMIN_REQUIRED" });
    expect(removals()).toEqual([]);
    expect(await domainRows(user)).toBe(3);
  });
});

describe("deleting a sign-in with Resend configured", () => {
  it("removes at Resend the domains of the team the person was alone in, which went with them", async () => {
    const { user, ids } = await teamWithDomains();
    expect(await loggedErrors(() => deleteSignIn(user.personId))).toEqual([]);
    expect(await teamRows(user)).toBe(0);
    expect(removals()).toEqual(ids.map((id) => ({ method: "DELETE", url: `/domains/${id}`, body: undefined })));
  });
});
