import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireAccount } from "@/lib/auth/current";
import { COMPONENT_NAME_PATTERN } from "@/lib/components/schemas";
import { getComponent } from "@/lib/components/service";
import { AppError } from "@/lib/core/errors";
import { filesEntryFirst } from "@/lib/templates/files";
import { CardSection } from "../../../_components/card-section";
import { ColumnHeadings } from "../../../_components/column-headings";
import { CopyButton } from "../../../_components/copy-button";
import { formatDate, formatDateTime } from "../../../_components/format";
import { ComponentIcon } from "../../../_components/icons";
import { EmptyState } from "../../_components/data-table";
import { updateComponentAction } from "../actions";
import { ComponentEditor } from "../component-editor";
import { DeleteComponent } from "./delete-component";

export const metadata: Metadata = { title: "Component" };

/** The component, or the not-found page for a name that is not one of the account's. */
async function findComponent(accountId: string, name: string) {
  if (!COMPONENT_NAME_PATTERN.test(name)) notFound();
  try {
    return await getComponent(accountId, name);
  } catch (error) {
    if (error instanceof AppError && error.code === "COMPONENT_NOT_FOUND") notFound();
    throw error;
  }
}

export default async function ComponentPage({
  params,
  searchParams,
}: {
  params: Promise<{ name: string }>;
  searchParams: Promise<{ created?: string }>;
}) {
  const [{ name }, query] = await Promise.all([params, searchParams]);
  const account = await requireAccount(`/dashboard/components/${encodeURIComponent(name)}`);
  const component = await findComponent(account.id, name);
  const importLine = `import ${importedName(component.name)} from "@components/${component.name}";`;
  const usedBy = component.used_by.map(({ template_id, name: templateName }) => ({ template_id, name: templateName }));

  return (
    <>
      <div className="breadcrumb">
        <Link href="/dashboard/components">Components</Link> <span aria-hidden="true">/</span>{" "}
        <span>{component.name}</span>
      </div>
      <div className="page-header">
        <div style={{ minWidth: 0 }}>
          <h1 style={{ overflowWrap: "anywhere" }}>{component.name}</h1>
          {component.description && <p>{component.description}</p>}
          <div className="row small" style={{ marginTop: 10 }}>
            <span className="badge badge-accent" data-testid="component-version">
              Version {component.version}
            </span>
            <span className="muted" title={formatDateTime(component.updated_at)}>
              Saved {formatDate(component.updated_at)}
            </span>
          </div>
          <div className="row small" style={{ marginTop: 10 }}>
            <code style={{ overflowWrap: "anywhere" }}>{importLine}</code>
            <CopyButton value={importLine} label="Copy import" className="btn btn-ghost btn-sm" />
          </div>
        </div>
      </div>
      {query.created === "1" && (
        <div className="alert alert-success" role="status" style={{ marginBottom: 20 }}>
          <p>Component saved as version 1. Import it in a template with the line above.</p>
        </div>
      )}

      <div className="stack">
        <ComponentEditor
          saveAction={updateComponentAction}
          files={filesEntryFirst(component.files, component.entry).map(({ path, content }) => ({
            path,
            code: content,
          }))}
          component={{ name: component.name, description: component.description, version: component.version }}
          usedBy={usedBy}
        />
        <div className="two-col">
          <CardSection
            headingId="used-by-title"
            title="Used by"
            testId="used-by"
            aside={
              <span className="muted small">
                {component.used_by.length === 1 ? "1 template" : `${component.used_by.length} templates`}
              </span>
            }
          >
            {component.used_by.length === 0 ? (
              <EmptyState icon={<ComponentIcon size={22} />} title="No template imports it yet">
                <p>
                  Import it in a template with <code>{importLine}</code>, and save the template.
                </p>
              </EmptyState>
            ) : (
              <div className="table-wrap">
                <table className="table">
                  <ColumnHeadings columns={["Template", "Built with"]} />
                  <tbody>
                    {component.used_by.map((template) => (
                      <tr key={template.template_id} data-testid="used-by-row">
                        <td style={{ overflowWrap: "anywhere" }}>
                          <Link className="row-link" href={`/dashboard/library/${template.template_id}`}>
                            {template.name}
                          </Link>
                        </td>
                        <td className="nowrap small">
                          Version {template.component_version}
                          {template.component_version === component.version && (
                            <span className="muted"> (current)</span>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </CardSection>
          <CardSection headingId="delete-title" title="Delete">
            <div className="card-body stack">
              <p className="muted small" style={{ margin: 0 }}>
                {component.used_by.length > 0
                  ? "While a template's published version or draft imports it, it cannot be deleted: change those templates first."
                  : "No template imports it. Deleting it removes every version of it; this cannot be undone."}
              </p>
              <div>
                <DeleteComponent name={component.name} usedBy={usedBy} />
              </div>
            </div>
          </CardSection>
        </div>
      </div>
    </>
  );
}

/** How a template names the component's default export: `brand-header` → `BrandHeader`. */
function importedName(name: string): string {
  return name
    .split("-")
    .filter((part) => part !== "")
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join("");
}
