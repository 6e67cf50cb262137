"use server";
import { cancelEmailOrThrow } from "@/lib/sent-emails/service";
import { field, formAction, type ActionState } from "../_lib/action";

/**
 * Cancels a scheduled email as POST /emails/{id}/cancel does (at Resend too when it holds the email). A refusal (it
 * was sent or canceled meanwhile, or the provider did not answer) comes back with the API's message.
 */
export async function cancelEmailAction(formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: "/dashboard/emails",
    input: (form) => field(form, "id"),
    run: (account, id) => cancelEmailOrThrow(account.id, id),
    // A refused cancel refreshes too: the page then shows the status that made it refused. A cancel gives its email
    // back to the month's count, which the overview and Usage show.
    revalidate: [["/dashboard", "layout"]],
    revalidateRefused: true,
    done: (): ActionState => ({ status: "success" }),
  });
}
