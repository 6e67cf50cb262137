import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { TeamSession } from "@/lib/auth/current";
import { deleteTeamAction } from "@/app/dashboard/settings/delete-team/actions";
import DeleteTeamPage from "@/app/dashboard/settings/delete-team/page";
import { getDb } from "@/lib/db/client";
import { createUser } from "../support/api";

// The signed-in person as requireAccount() gives them once sessions name a person: set per test.
const session: { current: TeamSession | null } = { current: null };
vi.mock("@/lib/auth/current", () => ({
  requireAccount: async () => session.current,
  getCurrentAccount: async () => session.current,
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

async function signedInTeam(role: "admin" | "member"): Promise<string> {
  const user = await createUser("free");
  await getDb()`update accounts set name = 'Acme' where id = ${user.accountId}`;
  session.current = {
    id: user.accountId,
    plan: "free",
    created_at: new Date(),
    email: user.email,
    name: "Acme",
    role,
    person: { id: user.accountId, email: user.email },
  } as TeamSession;
  return user.accountId;
}

const submit = (confirmation: string) => {
  const form = new FormData();
  form.set("confirmation", confirmation);
  return deleteTeamAction({ status: "idle" }, form).catch((error: Error) => error.message);
};
const exists = async (id: string) => (await getDb()`select 1 from accounts where id = ${id}`).length === 1;

describe("the delete-team action", () => {
  it("deletes the team once its name is typed, then goes to the dashboard", async () => {
    const id = await signedInTeam("admin");
    expect(await submit("Acme")).toBe("NEXT_REDIRECT");
    expect(await exists(id)).toBe(false);
  });

  it("refuses another name, changing nothing", async () => {
    const id = await signedInTeam("admin");
    expect(await submit("Other")).toEqual({ status: "error", message: "Type the team's name, Acme, to delete it." });
    expect(await exists(id)).toBe(true);
  });

  it("refuses a member, changing nothing", async () => {
    const id = await signedInTeam("member");
    expect(await submit("Acme")).toEqual({
      status: "error",
      message: "Only an admin of this team can delete it. Ask one of the team's admins.",
    });
    expect(await exists(id)).toBe(true);
  });
});

describe("the delete-team page", () => {
  const card = async () => {
    const html = renderToStaticMarkup(await DeleteTeamPage());
    return /<section[^>]*aria-labelledby="delete-team-title"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1];
  };

  it("tells a member that deleting the team needs an admin, with no form", async () => {
    await signedInTeam("member");
    expect(await card()).toBe(
      '<div class="card-header"><h2 id="delete-team-title">Delete Acme</h2></div>' +
        '<p class="card-body">Only an admin of this team can delete it. Ask one of the team&#x27;s admins.</p>',
    );
  });

  it("shows an admin the form", async () => {
    await signedInTeam("admin");
    expect(await card()).toContain("<form");
  });
});
