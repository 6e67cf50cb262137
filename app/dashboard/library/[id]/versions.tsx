"use client";
import Link from "next/link";
import type { MessagesProblem } from "@/lib/templates/messages";
import { SaveWarnings } from "../../../_components/save-warnings";
import { useActionState, useEffect, useState, type ReactNode } from "react";
import { ConfirmAction } from "../../../_components/confirm-action";
import { diffVersionFiles, foldUnchanged, type FileDiff } from "@/lib/templates/version-diff";
import { MAX_DIFF_EDITS } from "@/lib/templates/line-diff";
import { formatDateTime } from "../../../_components/format";
import { PreviewPane } from "../../../_components/preview-pane";
import { SubmitButton } from "../../../_components/submit-button";
import type { ActionState } from "../../_lib/action";
import { publishDraftAction, restoreVersionAction, versionFilesAction } from "./actions";
import { CardSection } from "../../../_components/card-section";

type Published = { version: number; published_at: string };
type Rendered = { html: string | null; text: string | null; error: string | null };

/** What an action said, where screen readers hear it. */
function Outcome({ state }: { state: ActionState }) {
  return (
    <div aria-live="polite">
      {state.status !== "idle" && (
        <div className={`alert ${state.status === "success" ? "alert-success" : "alert-danger"}`} role="status">
          <p>{state.message}</p>
        </div>
      )}
    </div>
  );
}

/**
 * A user template's published version and its draft, with Publish (at the draft's revision as shown), then `children`
 * (the versions), then the draft's preview: the workbench below renders the published version.
 */
export function DraftCard({
  templateId,
  published,
  draft,
  draftPreview,
  justSaved,
  savedWarnings = [],
  children,
}: {
  templateId: string;
  published: Published | null;
  draft: { revision: number; updated_at: string } | null;
  /** The draft rendered with its sample values; null when the workbench's preview is the draft (never published). */
  draftPreview: Rendered | null;
  /** The editor has just saved the draft shown (?draft=saved). */
  justSaved: boolean;
  /** The missing-key warnings of the save just made, shown beside its result. */
  savedWarnings?: readonly MessagesProblem[];
  children?: ReactNode;
}) {
  const [state, publish] = useActionState(publishDraftAction, { status: "idle" });
  // "Draft saved" stands for the draft the editor saved: once it is published, or replaced by a restore, it is gone,
  // and so is ?draft=saved, so that a reload does not say it again.
  const [savedRevision] = useState(justSaved ? (draft?.revision ?? null) : null);
  const saved = state.status === "idle" && savedRevision !== null && draft?.revision === savedRevision;
  useEffect(() => {
    if (savedRevision !== null && !saved) window.history.replaceState(null, "", window.location.pathname);
  }, [savedRevision, saved]);
  return (
    <div className="stack" style={{ marginBottom: 20 }}>
      <CardSection
        headingId="draft-title"
        title="Published version and draft"
        testId="template-lifecycle"
        aside={
          <Link className="small" href="#versions">
            Versions
          </Link>
        }
      >
        <div className="card-body stack-sm">
          <p style={{ margin: 0 }} data-testid="published-version">
            {published
              ? `Version ${published.version}, published ${formatDateTime(published.published_at)}. Sends use it, and so does the preview below.`
              : "Not published yet: sends are refused until the draft is published. The preview below shows the draft."}
          </p>
          {draft ? (
            <form action={publish} className="row-between">
              <p style={{ margin: 0 }} data-testid="draft-status">
                Draft: revision {draft.revision}, saved {formatDateTime(draft.updated_at)}.{" "}
                <Link href={`/dashboard/library/${templateId}/edit`}>Edit the draft</Link>
              </p>
              <input type="hidden" name="id" value={templateId} />
              <input type="hidden" name="revision" value={draft.revision} />
              <SubmitButton pendingLabel="Publishing…">Publish draft</SubmitButton>
            </form>
          ) : (
            <p className="muted" style={{ margin: 0 }} data-testid="draft-status">
              No draft. <Link href={`/dashboard/library/${templateId}/edit`}>Edit the template</Link> to start one, or
              restore a version below.
            </p>
          )}
          <Outcome
            state={
              saved
                ? {
                    status: "success",
                    message: "Draft saved. Sends keep using the published version until you publish the draft.",
                  }
                : state
            }
          />
          {saved && <SaveWarnings warnings={savedWarnings} />}
        </div>
      </CardSection>
      {children}
      {draftPreview && (
        <div className="preview-pane" data-testid="draft-preview">
          <PreviewPane
            html={draftPreview.html ?? ""}
            text={draftPreview.text}
            status={draftPreview.error ? "error" : "idle"}
            error={draftPreview.error}
            title="Preview of the draft"
            actions={<span className="badge badge-warning">Draft</span>}
          />
        </div>
      )}
    </div>
  );
}

/** How many versions the panel lists before "Show all". */
const VERSIONS_UNFOLDED = 5;

/** The template's versions, newest first, each restorable into the draft, and a line diff between any two. */
export function VersionsCard({
  templateId,
  versions,
  total,
  current,
  hasDraft,
  highlighted,
}: {
  templateId: string;
  /** Each with who published it (null: not recorded) and why, when Letterpress did (a component's update). */
  versions: (Published & { published_by: string | null; reason: string | null })[];
  total: number;
  current: number | null;
  hasDraft: boolean;
  /** A version a link pointed at (an email's page links to the version it was sent from): marked, and compared. */
  highlighted: number | null;
}) {
  const [restoreState, restore] = useActionState(restoreVersionAction, { status: "idle" });
  const numbers = versions.map((version) => version.version);
  const newest = Math.max(0, ...numbers);
  // The panel stands above the workbench, so a long history is folded to the newest few (unless a link points past).
  const [unfolded, setUnfolded] = useState(highlighted !== null && numbers.indexOf(highlighted) >= VERSIONS_UNFOLDED);
  const shown = unfolded ? versions : versions.slice(0, VERSIONS_UNFOLDED);
  // What the author picked to compare, else the linked (or newest) version and the one before: the defaults follow
  // the list as versions are published.
  const [picked, setPicked] = useState<{ from?: number; to?: number }>({});
  const pick = (chosen: number | undefined, fallback: number | undefined) =>
    chosen !== undefined && numbers.includes(chosen) ? chosen : (fallback ?? 0);
  const to = pick(picked.to, highlighted !== null && numbers.includes(highlighted) ? highlighted : numbers[0]);
  const from = pick(picked.from, numbers[numbers.indexOf(to) + 1] ?? to);
  const [diff, setDiff] = useState<
    | { status: "idle" }
    | { status: "loading" }
    | { status: "error"; message: string }
    | { status: "done"; from: number; to: number; files: FileDiff[] }
  >({ status: "idle" });

  async function compare(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDiff({ status: "loading" });
    const [before, after] = await Promise.all([
      versionFilesAction(templateId, from),
      versionFilesAction(templateId, to),
    ]);
    if (!before.ok) setDiff({ status: "error", message: before.message });
    else if (!after.ok) setDiff({ status: "error", message: after.message });
    else setDiff({ status: "done", from, to, files: diffVersionFiles(before.files, after.files) });
  }

  return (
    <section className="card" id="versions" aria-labelledby="versions-title">
      <div className="card-header">
        <h2 id="versions-title">Versions</h2>
        <span className="muted small">
          {total > versions.length ? `The newest ${versions.length} of ${total}` : "Newest first"}
        </span>
      </div>
      <div className="card-body stack">
        <Outcome state={restoreState} />
        {versions.length === 0 ? (
          <p className="muted" style={{ margin: 0 }}>
            No version yet: publish the draft to make version 1.
          </p>
        ) : (
          <ol className="version-list" aria-labelledby="versions-title">
            {shown.map(({ version, published_at, published_by, reason }) => (
              <li key={version} data-testid="version-row" aria-current={version === highlighted ? "true" : undefined}>
                <div className="stack-sm" style={{ gap: 2 }}>
                  <div className="row">
                    <strong>Version {version}</strong>
                    {version === current && <span className="badge badge-success">Published</span>}
                    {version === highlighted && <span className="badge badge-accent">Linked</span>}
                  </div>
                  <span className="muted small">
                    Published {formatDateTime(published_at)}
                    {published_by && ` by ${published_by}`}
                    {reason && `, with ${reason}`}
                  </span>
                </div>
                {/* The published version has nothing to publish again; into the draft it only discards the draft. */}
                {(version !== current || hasDraft) && (
                  <div className="row">
                    <form action={restore}>
                      <input type="hidden" name="id" value={templateId} />
                      <input type="hidden" name="version" value={version} />
                      <input type="hidden" name="publish" value="0" />
                      <button type="submit" className="btn btn-secondary btn-sm">
                        Restore<span className="visually-hidden"> version {version}</span> to draft
                      </button>
                    </form>
                    {/* Publishing replaces what sends use, so it asks first, as revoking a key does. */}
                    {version !== current && (
                      <ConfirmAction
                        action={restore}
                        fields={{ id: templateId, version: String(version), publish: "1" }}
                        trigger={
                          <>
                            Restore<span className="visually-hidden"> version {version}</span> and publish
                          </>
                        }
                        triggerClassName="btn btn-ghost btn-sm"
                        title={`Publish version ${version} again?`}
                        body={
                          <p>
                            {`Sends use version ${version}'s content from the moment you confirm, published as version ${newest + 1}`}
                            {current !== null && `; version ${current} stays listed here to restore`}.
                            {hasDraft && " Your unpublished draft is replaced by it."}
                          </p>
                        }
                        confirmLabel={`Publish version ${version}`}
                        pendingLabel="Publishing…"
                      />
                    )}
                  </div>
                )}
              </li>
            ))}
          </ol>
        )}
        {shown.length < versions.length && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setUnfolded(true)}>
            Show all {versions.length} versions
          </button>
        )}
        {versions.length > 1 && (
          <form className="row" onSubmit={compare} aria-label="Compare two versions">
            <VersionSelect
              label="Compare version"
              numbers={numbers}
              value={from}
              onChange={(version) => setPicked({ ...picked, from: version })}
            />
            <VersionSelect
              label="with version"
              numbers={numbers}
              value={to}
              onChange={(version) => setPicked({ ...picked, to: version })}
            />
            <button type="submit" className="btn btn-secondary btn-sm" disabled={diff.status === "loading"}>
              {diff.status === "loading" && <span className="spinner" aria-hidden="true" />}
              Show changes
            </button>
          </form>
        )}
        <div aria-live="polite" data-testid="version-diff">
          {diff.status === "error" && (
            <div className="alert alert-danger" role="alert">
              <p>{diff.message}</p>
            </div>
          )}
          {diff.status === "done" && <VersionDiff from={diff.from} to={diff.to} files={diff.files} />}
        </div>
      </div>
    </section>
  );
}

const CHANGE_LABEL: Record<FileDiff["change"], string> = {
  added: "Added",
  removed: "Removed",
  changed: "Changed",
  unchanged: "Unchanged",
};

/** Each file's changes: the kind of every line said in words as well as by its sign and colour. */
function VersionDiff({ from, to, files }: { from: number; to: number; files: FileDiff[] }) {
  return (
    <div className="stack-sm">
      <h3 className="small" style={{ margin: 0 }}>
        Changes from version {from} to version {to}
      </h3>
      {files.map((file) => (
        <div key={file.path} className="diff-file" data-testid="diff-file">
          <div className="row">
            <code>{file.path}</code>
            <span className="badge">{CHANGE_LABEL[file.change]}</span>
          </div>
          {file.lines === null ? (
            <p className="muted small" style={{ margin: 0 }}>
              Too many changes to show here (more than {MAX_DIFF_EDITS.toLocaleString("en-US")} lines added and
              removed).
            </p>
          ) : file.change === "unchanged" ? (
            <p className="muted small" style={{ margin: 0 }}>
              No changes.
            </p>
          ) : (
            <pre className="code-block diff" tabIndex={0} aria-label={`Changes to ${file.path}`}>
              <code>
                {foldUnchanged(file.lines).map((line, index) =>
                  line.kind === "folded" ? (
                    <span key={index} className="diff-line diff-folded">
                      … {line.count} unchanged {line.count === 1 ? "line" : "lines"}
                    </span>
                  ) : (
                    <span key={index} className={`diff-line diff-${line.kind}`} data-kind={line.kind}>
                      <span aria-hidden="true">
                        {line.kind === "added" ? "+ " : line.kind === "removed" ? "- " : "  "}
                      </span>
                      {line.kind !== "same" && (
                        <span className="visually-hidden">{line.kind === "added" ? "Added: " : "Removed: "}</span>
                      )}
                      {line.text}
                    </span>
                  ),
                )}
              </code>
            </pre>
          )}
        </div>
      ))}
    </div>
  );
}

function VersionSelect({
  label,
  numbers,
  value,
  onChange,
}: {
  label: string;
  numbers: number[];
  value: number;
  onChange: (version: number) => void;
}) {
  return (
    <label className="row small">
      {label}
      <select className="select" value={value} onChange={(event) => onChange(Number(event.target.value))}>
        {numbers.map((version) => (
          <option key={version} value={version}>
            {version}
          </option>
        ))}
      </select>
    </label>
  );
}
