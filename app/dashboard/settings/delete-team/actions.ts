"use server";
import { redirect } from "next/navigation";
import { deleteTeam } from "@/lib/teams/deletion";
import { field, formAction, type ActionState } from "../../_lib/action";

export async function deleteTeamAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: "/dashboard/settings/delete-team",
    input: (form) => ({ confirmation: field(form, "confirmation") }),
    run: (account, { confirmation }) => deleteTeam(account, confirmation),
    // The team is gone: the dashboard picks the person's next team (or offers to create one).
    done: () => redirect("/dashboard"),
  });
}
