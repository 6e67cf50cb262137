import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { DEFAULT_COMPONENT_ENTRY } from "@/lib/components/schemas";
import { createComponentAction } from "../actions";
import { ComponentEditor } from "../component-editor";
import { STARTER_COMPONENT } from "../starter";
import { PageHeader } from "../../_components/page-header";

export const metadata: Metadata = { title: "New component" };

export default async function NewComponentPage() {
  await requireAccount("/dashboard/components/new");
  return (
    <>
      <div className="breadcrumb">
        <Link href="/dashboard/components">Components</Link> <span aria-hidden="true">/</span>{" "}
        <span>New component</span>
      </div>
      <PageHeader
        title="New component"
        intro="A React module your templates import by its name: a footer, a header, a button. It follows a template's rules: React and React Email only."
      />
      <ComponentEditor
        saveAction={createComponentAction}
        files={[{ path: DEFAULT_COMPONENT_ENTRY, code: STARTER_COMPONENT }]}
      />
    </>
  );
}
