import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireAccount } from "@/lib/auth/current";
import { uuidSchema } from "@/lib/core/schemas";
import { findLibraryTemplate } from "@/lib/templates/details";
import { filesEntryFirst, SINGLE_FILE } from "@/lib/templates/files";
import { findOwnDraft } from "@/lib/templates/versions";
import { formatDateTime } from "../../../../_components/format";
import { saveDraftAction } from "./actions";
import { TemplateEditor } from "../../../templates/new/template-editor";

export const metadata: Metadata = { title: "Edit template" };

/** A template the account wrote, opened in the editor: its draft when it has one, else its published version. */
export default async function EditTemplatePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const account = await requireAccount(`/dashboard/library/${id}/edit`);
  if (!uuidSchema.safeParse(id).success) notFound();
  const template = await findLibraryTemplate(account.id, id);
  // A catalogue template is not the account's to change.
  if (!template || template.owner_account_id !== account.id) notFound();
  const draft = await findOwnDraft(account.id, id);
  const source = draft ?? template;
  const files =
    source.files && source.entry
      ? filesEntryFirst(source.files, source.entry).map(({ path, content }) => ({ path, code: content }))
      : [{ path: SINGLE_FILE, code: source.code }];
  return (
    <>
      <div className="breadcrumb">
        <Link href="/dashboard/library">Library</Link> <span aria-hidden="true">/</span>{" "}
        <Link href={`/dashboard/library/${id}`}>{template.name}</Link> <span aria-hidden="true">/</span>{" "}
        <span>Edit</span>
      </div>
      <div className="page-header">
        <div>
          <h1>Edit {template.name}</h1>
          <p data-testid="edit-source">
            {draft
              ? `You are editing the draft (revision ${draft.revision}, saved ${formatDateTime(draft.updated_at)}).`
              : template.published_version === null
                ? "You are editing the template, which is not published yet."
                : `You are editing a copy of version ${template.published_version}, the published one.`}{" "}
            Saving keeps your changes as the draft; publish it from the template&apos;s page.
          </p>
        </div>
      </div>
      <TemplateEditor
        saveAction={saveDraftAction}
        template={{
          id: template.id,
          name: template.name,
          description: template.description,
          files,
          defaultLocale: source.default_locale,
        }}
      />
    </>
  );
}
