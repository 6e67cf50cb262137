"use server";
import { redirect } from "next/navigation";
import { deleteSignIn } from "@/lib/teams/deletion";
import { formAction, type ActionState } from "../../_lib/action";

export async function deleteSignInAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: "/dashboard/settings/delete-sign-in",
    input: () => ({}),
    run: (account) => deleteSignIn(account.person.id),
    // The person's sessions went with them.
    done: () => redirect("/"),
  });
}
