"use server";
import { AppError } from "@/lib/core/errors";
import { removeSuppressionOrThrow } from "@/lib/suppressions/service";
import { field, runAction } from "../../_lib/action";

/** Lets the account send to a suppressed address again, as DELETE /suppressions/{email} does. */
export async function removeSuppressionAction(formData: FormData): Promise<void> {
  return runAction(formData, {
    page: "/dashboard/emails/suppressions",
    input: (form) => field(form, "email"),
    run: async (account, email) => {
      try {
        await removeSuppressionOrThrow(account.id, email);
      } catch (error) {
        // Removed meanwhile (another tab, the API): the address is not suppressed, which is what was asked.
        if (!(error instanceof AppError && error.code === "SUPPRESSION_NOT_FOUND")) throw error;
      }
    },
    refused: (error) => {
      throw error;
    },
    revalidate: ["/dashboard/emails/suppressions"],
    done: () => {},
  });
}
