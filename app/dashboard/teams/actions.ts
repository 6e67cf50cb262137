"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getCurrentSession } from "@/lib/auth/current";
import { createOwnTeam, teamNameSchema, teamToSwitchTo } from "@/lib/auth/teams";
import { TEAM_COOKIE } from "@/lib/auth/session";
import { getConfig } from "@/lib/core/config";
import { formMessage, field, type ActionState } from "../_lib/action";

// The team switcher (app/dashboard/team-switcher.tsx) and "Create a team": each sets the lp-team cookie, which every
// request resolves against the person's memberships (lib/auth/data/accounts.ts, findPersonTeam).

async function chooseTeam(teamId: string): Promise<void> {
  (await cookies()).set(TEAM_COOKIE, teamId, {
    httpOnly: true,
    sameSite: "lax",
    secure: getConfig().siteUrl.startsWith("https://"),
    path: "/",
  });
}

async function signedInPerson() {
  const session = await getCurrentSession();
  if (!session) redirect("/signin?next=/dashboard");
  return session.person;
}

export async function switchTeamAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const person = await signedInPerson();
  try {
    await chooseTeam((await teamToSwitchTo(person.id, field(formData, "team"))).id);
  } catch (error) {
    return { status: "error", message: formMessage(error) };
  }
  redirect("/dashboard");
}

export async function createTeamAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  const person = await signedInPerson();
  const name = field(formData, "name");
  const parsed = teamNameSchema.safeParse(name);
  if (!parsed.success) {
    const message = parsed.error.issues[0].message;
    return { status: "error", message, fields: { name: message }, values: { name } };
  }
  try {
    await chooseTeam((await createOwnTeam(person.id, parsed.data)).id);
  } catch (error) {
    return { status: "error", message: formMessage(error), values: { name } };
  }
  redirect("/dashboard");
}
