import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { libraryAllowance } from "@/lib/dashboard/queries";
import { createTemplateAction } from "./actions";
import { TemplateEditor } from "./template-editor";
import { PageHeader } from "../../_components/page-header";

export const metadata: Metadata = { title: "New template" };

export default async function NewTemplatePage() {
  const account = await requireAccount("/dashboard/templates/new");
  const allowance = await libraryAllowance(account.id, account.plan);
  return (
    <>
      <div className="breadcrumb">
        <Link href="/dashboard/library">Library</Link> <span aria-hidden="true">/</span> <span>New template</span>
      </div>
      <PageHeader
        title="New template"
        intro="Write a React Email component in TSX. It renders in a sandbox, so it can only use React and React Email."
      />
      {allowance.libraryFull && (
        <div className="alert alert-warning" role="status" style={{ marginBottom: 16 }}>
          <p>
            Your library is full ({allowance.libraryLimit} templates on the free plan), so saving will be refused. You
            can still try things out here. <Link href="/dashboard/billing">Upgrade</Link> for an unlimited library.
          </p>
        </div>
      )}
      <TemplateEditor saveAction={createTemplateAction} />
    </>
  );
}
