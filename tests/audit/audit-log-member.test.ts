import { describe, expect, it, vi } from "vitest";
import { GET as listAuditLog } from "@/app/api/v1/audit-log/route";
import { auth, call, createUser, sessionCookie } from "../support/api";

// GET /api/v1/audit-log refuses a member's session (issue 48). Until sessions name a person in a team, every session
// is its account's admin: the caller's role is made a member's here, where the one statement that authenticates
// answers it.
vi.mock("@/lib/usage/data/metering", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/usage/data/metering")>();
  return {
    ...real,
    authenticateAndMeter: (async (...args) => {
      const caller = await real.authenticateAndMeter(...args);
      return caller && caller.role ? { ...caller, role: "member" } : caller;
    }) as typeof real.authenticateAndMeter,
  };
});

describe("GET /api/v1/audit-log as a member", () => {
  it("answers 403 ADMIN_REQUIRED to a member's session, and an API key of the team its log", async () => {
    const user = await createUser();
    const member = await call(listAuditLog, "/api/v1/audit-log", {
      headers: { cookie: await sessionCookie(user.accountId) },
    });
    expect({ status: member.status, body: member.body }).toEqual({
      status: 403,
      body: {
        error: "Team admin required",
        code: "ADMIN_REQUIRED",
        success: false,
        message: "Only an admin of this team can manage the audit log. Ask one of the team's admins.",
      },
    });
    const key = await call(listAuditLog, "/api/v1/audit-log", { headers: auth(user) });
    expect(key.status).toBe(200);
    expect(key.body.pagination).toEqual({ limit: 50, offset: 0, total: 1 });
  });
});
