"use server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { runAsActor } from "@/lib/audit/context";
import { clientAddress } from "@/lib/api/client-address";
import { getCurrentSession } from "@/lib/auth/current";
import { AppError } from "@/lib/core/errors";
import { TEAM_COOKIE } from "@/lib/teams/schemas";
import { acceptInvitationLink } from "@/lib/teams/service";

export type JoinTeamState = { status: "idle" } | { status: "error"; message: string };

/** "Join <team>": the signed-in person accepts the invitation, and the browser switches to the team. */
export async function joinTeamAction(_previous: JoinTeamState, formData: FormData): Promise<JoinTeamState> {
  const token = String(formData.get("token") ?? "");
  // A person in no team may join: their session is enough.
  const session = await getCurrentSession();
  if (!session) redirect(`/signin?next=${encodeURIComponent(`/invite/${token}`)}`);
  const { person } = session;
  const ip = clientAddress(await headers());
  let teamId: string;
  try {
    ({ teamId } = await runAsActor({ actor: { type: "user", id: person.id, label: person.email }, ip }, () =>
      acceptInvitationLink(token, person),
    ));
  } catch (error) {
    if (error instanceof AppError) return { status: "error", message: error.message };
    throw error;
  }
  (await cookies()).set(TEAM_COOKIE, teamId, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: process.env.NODE_ENV === "production",
  });
  redirect("/dashboard");
}
