"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { clientAddress } from "@/lib/api/client-address";
import { admitSignedInPreview } from "@/lib/dashboard/preview";
import { replaceTemplateFromSource } from "@/lib/templates/user-templates";
import { field, formAction, isRefusal, refuse } from "../../../_lib/action";
import { NOT_YOURS, readTemplateForm, saveRefused, type CreateTemplateState } from "../../../_lib/template-form";

/**
 * Saves the editor's files as the draft of the account's template `id` (its name and description too, which are not
 * versioned), after the same checks as a new template; sends keep using the published version until it is published.
 */
export async function saveDraftAction(
  _previous: CreateTemplateState,
  formData: FormData,
): Promise<CreateTemplateState> {
  return formAction(formData, {
    page: (form) => `/dashboard/library/${encodeURIComponent(field(form, "id"))}/edit`,
    input: (form) => {
      const posted = readTemplateForm(form);
      return isRefusal(posted) ? posted : { ...posted, id: field(form, "id") };
    },
    run: async (account, { id, template, values }) => {
      await admitSignedInPreview(account.id, clientAddress(await headers()));
      const saved = await replaceTemplateFromSource(account.id, id, { ...template, publish: false });
      return saved ?? refuse<CreateTemplateState>({ status: "error", message: NOT_YOURS, values });
    },
    refused: saveRefused,
    revalidate: [["/dashboard/library", "layout"]],
    done: (saved) => redirect(`/dashboard/library/${saved.id}?draft=saved`),
  });
}
