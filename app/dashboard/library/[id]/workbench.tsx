"use client";
import type { ValidationDetail } from "@/lib/core/errors";
import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { TEST_EMAILS_PER_DAY } from "@/lib/core/plans";
import type { VariablesSchema } from "@/lib/templates/variables-schema";
import type { RenderWarning } from "@/lib/render/analysis/warnings";
import { filesEntryFirst, type TemplateFiles } from "@/lib/templates/files";
import { writeZip } from "@/lib/templates/zip";
import { callApi, callDashboard, describeFailure, downloadFile } from "../../../_components/api-client";
import { CopyButton } from "../../../_components/copy-button";
import { FileTabs } from "../../../_components/file-tabs";
import { DownloadIcon, SendIcon } from "../../../_components/icons";
import { PreviewPane, type PreviewStatus } from "../../../_components/preview-pane";
import { RenderWarnings } from "../../../_components/render-warnings";
import { VariablesForm } from "../../../_components/variables-form";
import { sendTestEmailAction, type SendTestState } from "./actions";
import { CardSection } from "../../../_components/card-section";
import { FormField } from "../../../_components/form-field";

type Sender = { domain: string; address: string };
type Variables = Record<string, unknown>;
type SourceFile = { path: string; content: string };

/** Whether an API detail is about `path` or something inside it (`items` covers `items.1.qty`). */
const isAtOrUnder = (field: string, path: string) =>
  field === `variables.${path}` || field.startsWith(`variables.${path}.`);

export function TemplateWorkbench({
  templateId,
  name,
  fileName,
  schema,
  sampleVariables,
  locales,
  initialHtml,
  initialText,
  initialError,
  files,
  senders,
  canSend,
  accountEmail,
}: {
  templateId: string;
  name: string;
  fileName: string;
  schema: VariablesSchema;
  sampleVariables: Variables;
  /** A template with messages: the locales to preview, the default first (its first render's); null shows no picker. */
  locales: string[] | null;
  initialHtml: string | null;
  initialText: string | null;
  initialError: string | null;
  /** The template's files, the entry first; a template of one file is that file, named `fileName`. */
  files: SourceFile[];
  senders: Sender[];
  canSend: boolean;
  accountEmail: string;
}) {
  const [variables, setVariables] = useState<Variables>(sampleVariables);
  const [locale, setLocale] = useState<string | null>(locales?.[0] ?? null);
  const [valid, setValid] = useState(true);
  const [html, setHtml] = useState<string | null>(initialHtml ?? "");
  const [text, setText] = useState<string | null>(initialText);
  const [status, setStatus] = useState<PreviewStatus>(initialError ? "error" : "idle");
  const [renderError, setRenderError] = useState<string | null>(initialError);
  const [fieldErrors, setFieldErrors] = useState<ValidationDetail[]>([]);
  const [warnings, setWarnings] = useState<RenderWarning[]>([]);
  const firstRender = useRef(true);
  const requestSeq = useRef(0);

  const render = useCallback(
    async (vars: Variables, inLocale: string | null) => {
      const seq = ++requestSeq.current;
      setStatus("rendering");
      // The API resolves the locale and gives the component the resolved tag as its `locale` prop.
      const result = await callDashboard<{ html: string; text?: string; warnings?: RenderWarning[] }>(
        `/templates/${templateId}/render`,
        {
          method: "POST",
          body: { variables: vars, format: "html", plain_text: true, ...(inLocale ? { locale: inLocale } : {}) },
        },
      );
      if (seq !== requestSeq.current) return; // a newer render superseded this one
      if (result.ok) {
        setHtml(result.data.html);
        setText(result.data.text ?? null);
        setRenderError(null);
        setFieldErrors([]);
        setWarnings(result.data.warnings ?? []);
        setStatus("idle");
        return;
      }
      const aboutVariables = (result.failure.details ?? []).filter(
        (detail) => detail.field === "variables" || detail.field.startsWith("variables."),
      );
      setFieldErrors(aboutVariables);
      setRenderError(
        aboutVariables.length > 0
          ? "Fix the highlighted variables to update the preview."
          : describeFailure(result.failure),
      );
      setStatus("error");
    },
    [templateId],
  );

  // Re-render (debounced) whenever the variables change; the first render came from the server. An input whose text is
  // no value yet (JSON that does not parse, not a number) keeps its variable's last good value, so it holds back
  // sending but not the preview of the other fields.
  const variablesKey = JSON.stringify(variables);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const timer = window.setTimeout(() => void render(JSON.parse(variablesKey), locale), 650);
    return () => window.clearTimeout(timer);
  }, [variablesKey, locale, render]);

  const update = useCallback((next: Variables, changed: string) => {
    setVariables(next);
    // The API's word on an edited field no longer holds; the others' still does until the next render.
    setFieldErrors((current) => current.filter((detail) => !isAtOrUnder(detail.field, changed)));
  }, []);

  return (
    <div className="stack">
      <div className="workbench">
        <section className="card wb-vars" aria-labelledby="variables-title">
          <div className="card-header">
            <h2 id="variables-title">Variables</h2>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => {
                setVariables(sampleVariables);
                setFieldErrors([]);
              }}
            >
              Reset
            </button>
          </div>
          <div className="card-body">
            {locales && (
              <div style={{ marginBottom: 14 }}>
                <FormField id="preview-locale" label="Locale">
                  <select
                    id="preview-locale"
                    className="select"
                    value={locale ?? ""}
                    onChange={(event) => setLocale(event.target.value)}
                    aria-describedby="preview-locale-help"
                    data-testid="locale-picker"
                  >
                    {locales.map((tag, index) => (
                      <option key={tag} value={tag}>
                        {index === 0 ? `${tag} (default)` : tag}
                      </option>
                    ))}
                  </select>
                  <span id="preview-locale-help" className="hint">
                    The preview and the test email render in this locale, given to the template as its{" "}
                    <code>locale</code> prop.
                  </span>
                </FormField>
              </div>
            )}
            <VariablesForm
              schema={schema}
              value={variables}
              onChange={update}
              errors={fieldErrors}
              onValidityChange={setValid}
            />
            <p className="hint" style={{ marginTop: 14, marginBottom: 0 }}>
              The preview updates as you type; previews are not API calls. An empty field is left out, so the
              template&apos;s default applies.
            </p>
          </div>
        </section>
        <div className="preview-pane wb-preview stack-sm">
          {warnings.length > 0 && <RenderWarnings warnings={warnings} />}
          <PreviewPane html={html} text={text} status={status} error={renderError} title={`Preview of ${name}`} />
        </div>
        <div className="wb-send">
          <SendTestForm
            templateId={templateId}
            name={name}
            variables={variables}
            locale={locale}
            blocked={!valid}
            senders={senders}
            canSend={canSend}
            accountEmail={accountEmail}
          />
        </div>
      </div>

      <SourceCard templateId={templateId} fileName={fileName} files={files} variables={variables} blocked={!valid} />
    </div>
  );
}

function SendTestForm({
  templateId,
  name,
  variables,
  locale,
  blocked,
  senders,
  canSend,
  accountEmail,
}: {
  templateId: string;
  name: string;
  variables: Record<string, unknown>;
  locale: string | null;
  blocked: boolean;
  senders: Sender[];
  canSend: boolean;
  accountEmail: string;
}) {
  const [sending, setSending] = useState(false);
  const [state, setState] = useState<SendTestState>({ status: "idle" });

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSending(true);
    try {
      setState(
        await sendTestEmailAction({
          templateId,
          to: String(form.get("to") ?? "").trim(),
          subject: String(form.get("subject") ?? ""),
          from: String(form.get("from") ?? ""),
          variables,
          ...(locale ? { locale } : {}),
        }),
      );
    } catch {
      setState({ status: "error", message: "Could not reach the server. Check your connection and try again." });
    } finally {
      setSending(false);
    }
  }

  return (
    <CardSection headingId="send-title" title="Send a test">
      <form className="card-body stack" onSubmit={submit}>
        {!canSend && (
          <div className="alert alert-warning">
            <p>
              Sending needs a verified domain. <Link href="/dashboard/domains">Add and verify one</Link> first.
            </p>
          </div>
        )}
        <FormField id="test-to" label="To">
          <input
            id="test-to"
            name="to"
            type="email"
            className="input"
            required
            defaultValue={accountEmail}
            autoComplete="email"
          />
        </FormField>
        <FormField id="test-subject" label="Subject">
          <input
            id="test-subject"
            name="subject"
            className="input"
            required
            maxLength={998}
            defaultValue={`[Test] ${name}`}
          />
        </FormField>
        {senders.length > 0 && (
          <FormField id="test-from" label="From">
            <select id="test-from" name="from" className="select" defaultValue="">
              <option value="">Default sender</option>
              {senders.map((sender) => (
                <option key={sender.address} value={sender.address}>
                  {sender.address}
                </option>
              ))}
            </select>
          </FormField>
        )}
        <p className="hint" style={{ margin: 0 }}>
          Test emails stay in your outbox, marked Test, as a test key&apos;s do: they never reach the recipient, and
          Emails shows their simulated delivery (an address at bounce.test bounces). Not counted in the month&apos;s
          emails; at most {TEST_EMAILS_PER_DAY} a day.
        </p>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={!canSend || blocked || sending}>
            {sending ? <span className="spinner" aria-hidden="true" /> : <SendIcon size={16} />}
            {sending ? "Sending…" : "Send test email"}
          </button>
          {blocked && <span className="field-error">Fix the variables first.</span>}
        </div>
        <div aria-live="polite">
          {state.status === "success" && (
            <div className="alert alert-success" data-testid="send-result">
              <p>
                {state.message} <Link href={`/dashboard/emails/${state.emailId}`}>View in Emails</Link>
              </p>
            </div>
          )}
          {state.status === "error" && (
            <div className="alert alert-danger" role="alert">
              <p style={{ whiteSpace: "pre-wrap" }}>{state.message}</p>
            </div>
          )}
        </div>
      </form>
    </CardSection>
  );
}

function SourceCard({
  templateId,
  fileName,
  files,
  variables,
  blocked,
}: {
  templateId: string;
  fileName: string;
  files: SourceFile[];
  variables: Record<string, unknown>;
  blocked: boolean;
}) {
  const [busy, setBusy] = useState<"source" | "react" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [activePath, setActivePath] = useState(files[0].path);
  const active = files.find((file) => file.path === activePath) ?? files[0];
  const several = files.length > 1;

  async function downloadSource() {
    setBusy("source");
    setError(null);
    const result = await callApi<{ source: { code: string } }>(`/templates/${templateId}/source`);
    setBusy(null);
    if (result.ok) downloadFile(fileName, result.data.source.code, "text/typescript");
    else setError(describeFailure(result.failure));
  }

  async function downloadWithVariables() {
    setBusy("react");
    setError(null);
    const result = await callDashboard<{ react: string; files?: TemplateFiles; entry?: string }>(
      `/templates/${templateId}/render`,
      { method: "POST", body: { variables, format: "react" } },
    );
    setBusy(null);
    if (!result.ok) setError(describeFailure(result.failure));
    // The entry alone would break on its relative imports: a template of several files comes as a zip of them all.
    else if (result.data.files && result.data.entry)
      downloadFile(
        fileName.replace(/\.tsx$/, ".with-variables.zip"),
        writeZip(filesEntryFirst(result.data.files, result.data.entry)),
        "application/zip",
      );
    else downloadFile(fileName.replace(/\.tsx$/, ".with-variables.tsx"), result.data.react, "text/typescript");
  }

  const view = (
    <pre className="code-block source-view" tabIndex={0} aria-label={`Source of ${active.path}`}>
      <code>{active.content}</code>
    </pre>
  );

  return (
    <CardSection
      headingId="source-title"
      title="Source"
      aside={
        <div className="row">
          <CopyButton value={active.content} />
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={downloadWithVariables}
            disabled={busy !== null || blocked}
          >
            {busy === "react" ? <span className="spinner" aria-hidden="true" /> : <DownloadIcon size={15} />} Download
            with current variables
          </button>
          {/* Every file of the template, as a zip (GET /api/dashboard/templates/{id}/download). */}
          <a className="btn btn-secondary btn-sm" href={`/api/dashboard/templates/${templateId}/download`} download>
            <DownloadIcon size={15} /> Download .zip
          </a>
          {/* The entry of several files alone would break on its relative imports: the zip is the way to get them. */}
          {!several && (
            <button
              type="button"
              className="btn btn-primary btn-sm btn-wraps"
              onClick={downloadSource}
              disabled={busy !== null}
            >
              {busy === "source" ? <span className="spinner" aria-hidden="true" /> : <DownloadIcon size={15} />}{" "}
              Download {fileName}
            </button>
          )}
        </div>
      }
    >
      {error && (
        <div className="alert alert-danger" role="alert" style={{ margin: 16 }}>
          <p>{error}</p>
        </div>
      )}
      <div className="card-body stack-sm">
        {several ? (
          <>
            <FileTabs
              paths={files.map((file) => file.path)}
              active={active.path}
              entry={files[0].path}
              idPrefix="source-tab"
              panelId="source-panel"
              onSelect={setActivePath}
            />
            <div id="source-panel" role="tabpanel" aria-labelledby={`source-tab-${active.path}`}>
              {view}
            </div>
          </>
        ) : (
          view
        )}
      </div>
    </CardSection>
  );
}
