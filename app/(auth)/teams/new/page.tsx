import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { getCurrentSession } from "@/lib/auth/current";
import { NewTeamForm } from "./new-team-form";

export const metadata: Metadata = { title: "Create a team" };

// Where the dashboard sends a signed-in person who belongs to no team (say, removed from their last one).
export default async function NewTeamPage() {
  // The signed-in person's, per request: said before the configuration is read, so a build with no runtime secret set
  // (a Vercel preview) never prerenders it.
  await connection();
  const session = await getCurrentSession();
  if (!session) redirect("/signin?next=/teams/new");
  if (session.team) redirect("/dashboard");
  return (
    <>
      <h1>Create a team</h1>
      <p className="subtitle">
        You are signed in as <strong>{session.person.email}</strong> and belong to no team. Create one, or ask a
        team&apos;s admin to invite you.
      </p>
      <NewTeamForm />
    </>
  );
}
