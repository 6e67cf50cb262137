import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { clientAddress } from "@/lib/api/client-address";
import { AppError } from "@/lib/core/errors";
import { requireAccount } from "@/lib/auth/current";
import { getConfig } from "@/lib/core/config";
import { formVariablesSchema, pickerLocales } from "@/lib/dashboard/locales";
import { admitSignedInPreview, previewVariables } from "@/lib/dashboard/preview";
import { saveWarnings } from "@/lib/dashboard/save-warnings";
import { isVerifiedForSending, listSendingDomains } from "@/lib/sending-domains/service";
import { checkVariables, renderTemplate } from "@/lib/render";
import { templateFileName } from "@/lib/templates/archive";
import {
  findLibraryTemplate,
  templateCompatibility,
  templateExample,
  templateLocalesOf,
  templateSourceFiles,
  templateVariablesSchema,
  type TemplateRecord,
} from "@/lib/templates/details";
import { filesEntryFirst } from "@/lib/templates/files";
import {
  findOwnDraft,
  listVersions,
  type DraftContent,
  type ListedVersion,
  type VersionSummary,
} from "@/lib/templates/versions";
import { uuidSchema } from "@/lib/core/schemas";
import { ADDED_VIA_LABEL, formatDate, formatDateTime, formatPrice } from "../../../_components/format";
import { CompatibilityPanel } from "../../../_components/compatibility-panel";
import { CopyButton } from "../../../_components/copy-button";
import { SaveWarnings } from "../../../_components/save-warnings";
import { deleteTemplateAction, removeFromLibraryAction } from "./actions";
import { RemoveTemplate } from "./remove-template";
import { performancePeriod, TemplatePerformance } from "./performance";
import { emailMetricsOfDays } from "@/lib/metrics/service";
import { DraftCard, VersionsCard } from "./versions";
import { TemplateWorkbench } from "./workbench";

export const metadata: Metadata = { title: "Template" };

export default async function TemplatePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ created?: string; draft?: string; version?: string; period?: string }>;
}) {
  const { id } = await params;
  const account = await requireAccount(`/dashboard/library/${id}`);
  if (!uuidSchema.safeParse(id).success) notFound();
  const template = await findLibraryTemplate(account.id, id);
  if (!template) notFound();
  const query = await searchParams;
  const created = query.created === "1";
  const draftSaved = query.draft === "saved";
  // Only the account's own templates change; a catalogue template is the same for everyone.
  const own = template.owner_account_id === account.id;

  // ?version=n (an email's page links to the version it was sent from): that version is marked in the panel.
  const linkedVersion = /^[1-9]\d{0,9}$/.test(query.version ?? "") ? Number(query.version) : null;

  const period = performancePeriod(query.period);
  const [admission, domains, versions, draft, performance] = await Promise.all([
    admitSignedInPreview(account.id, clientAddress(await headers())).catch((error: unknown) => error),
    listSendingDomains(account.id),
    own ? listVersions(account.id, template.id, VERSIONS_SHOWN, 0) : null,
    own ? findOwnDraft(account.id, template.id) : null,
    emailMetricsOfDays(account.id, period, { group_by: "day", template_id: template.id }),
  ]);
  // The first preview is rendered here with the sample values (counted as a dashboard preview), so the page arrives
  // complete; edits then go through POST /api/dashboard/templates/{id}/render from the browser (previews too).
  let sample: Record<string, unknown> = {};
  let initialHtml: string | null = null;
  let initialText: string | null = null;
  let initialError: string | null = null;
  try {
    if (admission !== undefined) throw admission;
    sample = await previewVariables(template);
    const rendered = await renderTemplate(template, checkVariables(template, sample), {
      accountId: account.id,
      plainText: true,
    });
    initialHtml = rendered.html;
    initialText = rendered.text ?? null;
  } catch (error) {
    initialError = error instanceof AppError ? error.message : "This template could not be rendered.";
  }
  // Before a first publish the template's own columns are its draft, which the workbench renders already.
  const draftPreview =
    draft && template.published_version !== null
      ? await renderDraftSample(account.id, template, draft, admission)
      : null;
  // Kept with the content when it was saved (lib/templates/details.ts); none shown when it cannot be made now.
  const compatibility = await templateCompatibility(account.id, template, await templateExample(template)).catch(
    () => null,
  );
  // The save the editor just made: its missing-key warnings beside its result (the draft's, or the new template's).
  const savedWarnings =
    own && (created || (draftSaved && draft))
      ? await saveWarnings(account.id, draftSaved && draft ? draft : template)
      : [];
  const locales = pickerLocales(templateLocalesOf(template));
  const verified = domains.filter((domain) => isVerifiedForSending(domain));
  const shared = getConfig().sharedSendingDomain;
  const fileName = templateFileName(template);
  const sourceFiles = templateSourceFiles(template);

  return (
    <>
      <div className="breadcrumb">
        <Link href="/dashboard/library">Library</Link> <span aria-hidden="true">/</span> <span>{template.name}</span>
      </div>
      <div className="page-header">
        <div>
          <h1>{template.name}</h1>
          {template.description && <p>{template.description}</p>}
          <div className="row small" style={{ marginTop: 10 }}>
            <span className="badge">{template.category ?? "Custom"}</span>
            <span className="badge badge-accent">{ADDED_VIA_LABEL[template.added_via] ?? template.added_via}</span>
            {Number(template.price) > 0 && <span className="badge">{formatPrice(template.price)}</span>}
            <span className="muted">By {template.author ?? "you"}</span>
            <span className="muted" title={formatDateTime(template.updated_at)}>
              · Modified {formatDate(template.updated_at)}
            </span>
          </div>
          <div className="row small" style={{ marginTop: 10 }}>
            <span className="muted">Template id</span>
            <code data-testid="template-id">{template.id}</code>
            <CopyButton value={template.id} label="Copy id" className="btn btn-ghost btn-sm" />
          </div>
          {template.components && template.components.length > 0 && (
            // The shared components its published content was built with, at the versions it renders with.
            <div className="row small" style={{ marginTop: 10 }} data-testid="template-components">
              <span className="muted" id="template-components-label">
                Components
              </span>
              <ul
                className="row"
                aria-labelledby="template-components-label"
                style={{ listStyle: "none", margin: 0, padding: 0 }}
              >
                {template.components.map(({ name, version }) => (
                  <li key={name}>
                    <Link className="mono" href={`/dashboard/components/${name}`}>
                      @components/{name}
                    </Link>{" "}
                    <span className="muted">version {version}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
        {own ? (
          <div className="row" style={{ alignItems: "flex-start" }}>
            <Link className="btn btn-primary" href={`/dashboard/library/${template.id}/edit`}>
              Edit
            </Link>
            <RemoveTemplate
              action={deleteTemplateAction}
              id={template.id}
              trigger="Delete"
              title={`Delete “${template.name}”?`}
              body={
                <p>
                  This deletes the template{lostWithTemplate(versions?.total ?? 0, draft !== null, template.alias)}, and
                  frees its slot in your library. API calls that name it will answer “not found”. Emails already sent
                  with it stay in Emails. This cannot be undone.
                </p>
              }
              confirmLabel="Delete template"
              pendingLabel="Deleting…"
            />
          </div>
        ) : (
          <RemoveTemplate
            action={removeFromLibraryAction}
            id={template.id}
            trigger="Remove from library"
            title={`Remove “${template.name}” from your library?`}
            body={
              template.added_via === "purchased" ? (
                <p>
                  This frees its slot in your library; until you add it back, your API keys cannot render or send it.
                  You keep your purchase: adding it back from the catalogue does not charge you again. Emails already
                  sent with it stay in Emails.
                </p>
              ) : (
                <p>
                  This frees its slot in your library. It stays free in the catalogue: add it again from there any time.
                  Emails already sent with it stay in Emails.
                </p>
              )
            }
            confirmLabel="Remove from library"
            pendingLabel="Removing…"
          />
        )}
      </div>
      {created && (
        <div className="alert alert-success" role="status" style={{ marginBottom: 20 }}>
          <p>Template saved and added to your library. Render or send it with the id above.</p>
        </div>
      )}
      {created && savedWarnings.length > 0 && (
        <div style={{ marginBottom: 20 }}>
          <SaveWarnings warnings={savedWarnings} />
        </div>
      )}
      {/* The versions under the published one and the draft: what the page says about the template's lifecycle is
          together, above the workbench (which renders the published version). */}
      {own && versions && (
        <DraftCard
          templateId={template.id}
          published={publishedOf(template.published_version, versions.versions)}
          draft={draft && { revision: draft.revision, updated_at: draft.updated_at.toISOString() }}
          draftPreview={draftPreview}
          justSaved={draftSaved}
          savedWarnings={draftSaved ? savedWarnings : []}
        >
          <VersionsCard
            templateId={template.id}
            versions={versions.versions.map((listed) => ({
              version: listed.version,
              published_at: listed.published_at.toISOString(),
              published_by: publisherOf(listed),
              reason: listed.reason,
            }))}
            total={versions.total}
            current={template.published_version}
            hasDraft={draft !== null}
            highlighted={linkedVersion}
          />
        </DraftCard>
      )}
      {/* A new published content (a publish, a restore) starts the workbench again from its first render here. */}
      <TemplateWorkbench
        key={template.version}
        templateId={template.id}
        name={template.name}
        fileName={fileName}
        schema={formVariablesSchema(templateVariablesSchema(template), locales)}
        sampleVariables={sample}
        locales={locales}
        initialHtml={initialHtml}
        initialText={initialText}
        initialError={initialError}
        files={
          sourceFiles
            ? filesEntryFirst(sourceFiles.files, sourceFiles.entry)
            : [{ path: fileName, content: template.code }]
        }
        senders={verified
          .filter((domain) => domain.default_sender)
          .map((domain) => ({ domain: domain.domain, address: domain.default_sender! }))}
        canSend={verified.length > 0 || Boolean(shared)}
        accountEmail={account.person.email}
      />
      <div style={{ marginTop: 20 }}>
        <TemplatePerformance period={period} metrics={performance.metrics} totals={performance.totals} />
      </div>
      {compatibility && (
        <div style={{ marginTop: 20 }}>
          <CompatibilityPanel
            findings={compatibility}
            source={template.published_version === null ? "its draft's example" : "its published version's example"}
          />
        </div>
      )}
    </>
  );
}

/** What deleting a template takes with it, as the confirmation says it: " with its 2 published versions and its draft". */
function lostWithTemplate(versions: number, draft: boolean, alias: string | null): string {
  const lost = [
    ...(versions > 0 ? [`its ${versions === 1 ? "published version" : `${versions} published versions`}`] : []),
    ...(draft ? ["its draft"] : []),
    ...(alias ? [`its alias “${alias}”`] : []),
  ];
  if (lost.length === 0) return "";
  return ` with ${lost.length === 1 ? lost[0] : `${lost.slice(0, -1).join(", ")} and ${lost.at(-1)}`}`;
}

/** The versions the panel lists: at least as many as a template keeps. */
const VERSIONS_SHOWN = 100;

/** Who published a version, as the panel says it; null for versions from before that was recorded. */
function publisherOf({ published_via, published_by_key }: ListedVersion): string | null {
  if (published_via === "api_key") return published_by_key ? `API key “${published_by_key}”` : "an API key";
  if (published_via === "session") return "you, signed in";
  if (published_via === "cli") return "the admin CLI";
  return null;
}

function publishedOf(version: number | null, versions: VersionSummary[]) {
  const found = versions.find((listed) => listed.version === version);
  return found ? { version: found.version, published_at: found.published_at.toISOString() } : null;
}

/**
 * The draft rendered with its sample values, under the page's one admitted preview (`admission`: its refusal, if
 * any), under the content key a `"version": "draft"` render of the API uses (lib/templates/data/templates.ts
 * RenderedVersion).
 */
async function renderDraftSample(
  accountId: string,
  template: TemplateRecord,
  draft: DraftContent,
  admission: unknown,
): Promise<{ html: string | null; text: string | null; error: string | null }> {
  const asTemplate = {
    id: template.id,
    owner_account_id: template.owner_account_id,
    slug: null,
    version: template.version,
    compiled_code: draft.compiled_code,
    variables: draft.variables,
    preview_props: draft.preview_props,
    locales: draft.locales,
    default_locale: draft.default_locale,
    content_key: `draft:${draft.revision}`,
    template_version: "draft",
  };
  try {
    if (admission !== undefined) throw admission;
    const sample = await previewVariables(asTemplate);
    const rendered = await renderTemplate(asTemplate, checkVariables(asTemplate, sample), {
      accountId,
      plainText: true,
    });
    return { html: rendered.html, text: rendered.text ?? null, error: null };
  } catch (error) {
    return {
      html: null,
      text: null,
      error: error instanceof AppError ? error.message : "The draft could not be rendered.",
    };
  }
}
