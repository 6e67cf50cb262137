import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { listComponents } from "@/lib/components/service";
import { MAX_COMPONENTS } from "@/lib/core/limits";
import { CardSection } from "../../_components/card-section";
import { ColumnHeadings } from "../../_components/column-headings";
import { formatDateTime, timeAgo } from "../../_components/format";
import { ComponentIcon, PlusIcon } from "../../_components/icons";
import { EmptyState } from "../_components/data-table";
import { PageHeader } from "../_components/page-header";

export const metadata: Metadata = { title: "Components" };

const COLUMNS = ["Component", "Version", "Used by", { label: "Updated", className: "hide-sm" }];

export default async function ComponentsPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  const account = await requireAccount("/dashboard/components");
  const [components, query] = await Promise.all([listComponents(account.id), searchParams]);
  // Where a component page's Delete lands. Only a flag: a name taken from the address would let anyone's link put
  // their words in this page's notice.
  const deleted = query.deleted === "1";
  const full = components.length >= MAX_COMPONENTS;

  return (
    <>
      <PageHeader
        title="Components"
        intro={
          <>
            The header, footer or button your templates share: each template imports it as{" "}
            <code>@components/&lt;name&gt;</code>. Saving one makes a new version and publishes again every template
            that imports it, once each still renders.
          </>
        }
        actions={
          full ? undefined : (
            <Link href="/dashboard/components/new" className="btn btn-primary">
              <PlusIcon size={16} /> New component
            </Link>
          )
        }
      />
      {deleted && (
        <div className="alert alert-success" role="status" style={{ marginBottom: 20 }}>
          <p>The component is deleted.</p>
        </div>
      )}
      <CardSection
        headingId="components-title"
        title="Your components"
        aside={
          <span className="muted small">
            {components.length} of {MAX_COMPONENTS}
            {full && ": delete one to add another"}
          </span>
        }
      >
        {components.length === 0 ? (
          <EmptyState icon={<ComponentIcon size={22} />} title="No components yet">
            <p>
              Write a footer once and import it in every template: changing it then changes them all, each checked
              first.
            </p>
            <Link href="/dashboard/components/new" className="btn btn-secondary">
              Write a component
            </Link>
          </EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <ColumnHeadings columns={COLUMNS} />
              <tbody>
                {components.map((component) => (
                  <tr key={component.name} data-testid="component-row">
                    <td style={{ minWidth: "min(200px, 40vw)" }}>
                      <Link
                        className="row-link mono"
                        href={`/dashboard/components/${component.name}`}
                        style={{ overflowWrap: "anywhere" }}
                      >
                        {component.name}
                      </Link>
                      {component.description && (
                        <div className="muted small" style={{ overflowWrap: "anywhere" }}>
                          {component.description}
                        </div>
                      )}
                    </td>
                    <td className="nowrap small">v{component.version}</td>
                    <td className="nowrap small">
                      {component.used_by.length === 1 ? "1 template" : `${component.used_by.length} templates`}
                    </td>
                    <td className="nowrap small hide-sm" title={formatDateTime(component.updated_at)}>
                      {timeAgo(component.updated_at)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardSection>
    </>
  );
}
