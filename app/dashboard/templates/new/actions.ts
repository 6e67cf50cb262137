"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { clientAddress } from "@/lib/api/client-address";
import { admitSignedInPreview } from "@/lib/dashboard/preview";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import { formAction } from "../../_lib/action";
import { readTemplateForm, saveRefused, SIGNED_IN, type CreateTemplateState } from "../../_lib/template-form";

export async function createTemplateAction(
  _previous: CreateTemplateState,
  formData: FormData,
): Promise<CreateTemplateState> {
  return formAction(formData, {
    page: "/dashboard/templates/new",
    input: readTemplateForm,
    run: async (account, { template }) => {
      // Saving compiles the code and renders it once in the sandbox: the same work as a preview, under the same limits.
      await admitSignedInPreview(account.id, clientAddress(await headers()));
      return createTemplateFromSource(account.id, { ...template, publishedBy: SIGNED_IN });
    },
    refused: saveRefused,
    revalidate: ["/dashboard/library"],
    done: (created) => redirect(`/dashboard/library/${created.id}?created=1`),
  });
}
