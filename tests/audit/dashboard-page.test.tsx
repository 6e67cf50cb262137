import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import AuditLogPage from "@/app/dashboard/audit-log/page";
import { revokeApiKey } from "@/lib/api-keys/data";
import { setAccountPlan } from "@/lib/auth/data/accounts";
import { getDb } from "@/lib/db/client";
import { runAsActor } from "@/lib/audit/context";
import { createUser } from "../support/api";
import { signedIn } from "../support/signed-in";

// Dashboard → Audit log (issue 48): admins see the team's entries newest first, filtered by action and by actor,
// one statement a page; members see that an admin is needed.
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
// Counts the statements the page's read runs through the client it is given.
const statements = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/audit/data", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/audit/data")>();
  return {
    ...real,
    listAuditEntries: ((db, ...rest) => {
      const counting = new Proxy(db, {
        apply: (target, self, args) => {
          statements.count += 1;
          return Reflect.apply(target, self, args);
        },
      });
      return real.listAuditEntries(counting, ...rest);
    }) as typeof real.listAuditEntries,
  };
});

afterEach(() => void (signedIn.role = "admin"));

async function render(searchParams: Record<string, string>): Promise<string> {
  return renderToStaticMarkup(await AuditLogPage({ searchParams: Promise.resolve(searchParams) }));
}

/** The rows' text: when is left out, who and what kept. */
function rows(html: string): string[] {
  return [...html.matchAll(/<tr data-testid="audit-row">(.*?)<\/tr>/g)].map(([, row]) =>
    row
      .replace(/<td class="nowrap small"><time[^>]*>.*?<\/time><\/td>/, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

describe("the audit log page", () => {
  it("lists the team's entries newest first, by action and by actor", async () => {
    const user = await createUser();
    signedIn.accountId = user.accountId;
    await setAccountPlan(user.accountId, "monthly");
    const person = { type: "user" as const, id: user.accountId, label: user.email };
    await runAsActor({ actor: person, ip: "203.0.113.9" }, () => revokeApiKey(user.keyId, user.accountId));

    expect(rows(await render({}))).toEqual([
      `${user.email} Person api_key.revoked test key 203.0.113.9`,
      "Letterpress Letterpress plan.changed monthly —",
      "Letterpress Letterpress api_key.created test key —",
    ]);
    expect(rows(await render({ action: "plan.changed" }))).toEqual(["Letterpress Letterpress plan.changed monthly —"]);
    const byPerson = await render({ actor: user.accountId });
    expect(rows(byPerson)).toEqual([`${user.email} Person api_key.revoked test key 203.0.113.9`]);
    expect(byPerson).toContain(`Changes by one actor only (${user.accountId}).`);
    // The person's name links to their changes only, keeping the action filter.
    expect(await render({ action: "api_key.revoked" })).toContain(
      `href="/dashboard/audit-log?action=api_key.revoked&amp;actor=${user.accountId}"`,
    );
    // An unknown action is no filter.
    expect(rows(await render({ action: "nope" }))).toHaveLength(3);
  });

  it("pages through the entries at one statement a page", async () => {
    const user = await createUser();
    signedIn.accountId = user.accountId;
    // 60 entries a minute apart, older than the key's creation.
    await getDb()`
      insert into audit_log (account_id, action, actor_type, actor_label, target_type, target_label, created_at)
      select ${user.accountId}, 'plan.changed', 'system', 'Letterpress', 'plan', 'entry ' || n,
             now() - make_interval(mins => n)
      from generate_series(1, 60) n`;
    statements.count = 0;
    const first = await render({});
    expect(statements.count).toBe(1);
    expect(rows(first)).toHaveLength(50);
    expect(rows(first)[49]).toBe("Letterpress Letterpress plan.changed entry 49 —");
    expect(first).toContain("1–50 of 61");
    expect(first).toContain('href="/dashboard/audit-log?page=2"');
    statements.count = 0;
    const second = await render({ page: "2" });
    expect(statements.count).toBe(1);
    expect(rows(second)).toEqual(
      Array.from({ length: 11 }, (_, i) => `Letterpress Letterpress plan.changed entry ${50 + i} —`),
    );
    expect(second).toContain("51–61 of 61");
  });

  it("shows a member that an admin is needed, and no entry", async () => {
    const user = await createUser();
    signedIn.accountId = user.accountId;
    signedIn.role = "member";
    const html = await render({});
    expect(html).toContain("An admin of this team is needed");
    expect(rows(html)).toEqual([]);
  });
});
