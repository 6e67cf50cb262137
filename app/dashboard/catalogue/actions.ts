"use server";
import { redirect } from "next/navigation";
import { addOrBuyCatalogueTemplate } from "@/lib/catalogue/library";
import { AppError } from "@/lib/core/errors";
import { field, formAction, formMessage, refuse, type ActionState } from "../_lib/action";

export type AddTemplateState = ActionState & { templateId?: string; code?: string };

/** The catalogue's Add (a free template) and Buy (a paid one: settled at once in test mode, else its checkout). */
export async function addTemplateAction(_previous: AddTemplateState, formData: FormData): Promise<AddTemplateState> {
  return formAction(formData, {
    page: "/dashboard/catalogue",
    input: (form) => field(form, "templateId"),
    run: async (account, templateId) => {
      const added = await addOrBuyCatalogueTemplate(account.id, templateId);
      if (added.outcome === "purchases_unavailable")
        return refuse<AddTemplateState>({
          status: "error",
          message: "Purchases are not available on this deployment yet.",
        });
      // To the processor's checkout, which comes back to the catalogue.
      if (added.outcome === "checkout") redirect(added.redirectUrl);
      return added;
    },
    refused: (error, templateId): AddTemplateState => {
      if (error instanceof AppError && error.code === "TEMPLATE_NOT_FOUND")
        return { status: "error", message: "That template is no longer in the catalogue." };
      const code = error instanceof AppError ? { code: error.code } : {};
      return { status: "error", ...code, message: formMessage(error), templateId };
    },
    revalidate: ["/dashboard/catalogue", "/dashboard/library", "/dashboard"],
    done: ({ outcome, template }) => ({
      status: "success",
      templateId: template.id,
      message:
        outcome === "restored"
          ? `“${template.name}” is back in your library. You bought it before, so nothing was charged.`
          : outcome === "purchased"
            ? `Purchased “${template.name}”. It is in your library now.`
            : `Added “${template.name}” to your library.`,
    }),
  });
}
