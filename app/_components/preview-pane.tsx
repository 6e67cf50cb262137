"use client";
import { useState } from "react";
import { EmailFrame } from "./email-frame";

export type PreviewStatus = "idle" | "rendering" | "error";

/**
 * The live preview: desktop/mobile width and HTML/plain-text switches around a sandboxed iframe. `stale`: why what it
 * shows is an older render (the code does not compile, say), said over it, dimmed; null while it is current.
 */
export function PreviewPane({
  html,
  text,
  status,
  error,
  stale,
  title,
  actions,
}: {
  html: string | null;
  text?: string | null;
  status: PreviewStatus;
  error?: string | null;
  stale?: string | null;
  title: string;
  actions?: React.ReactNode;
}) {
  const [device, setDevice] = useState<"desktop" | "mobile">("desktop");
  const [view, setView] = useState<"html" | "text">("html");
  return (
    <section className="card" aria-label="Preview">
      <div className="preview-toolbar">
        <strong>Preview</strong>
        <div className="segmented" role="group" aria-label="Preview width">
          <button type="button" aria-pressed={device === "desktop"} onClick={() => setDevice("desktop")}>
            Desktop
          </button>
          <button type="button" aria-pressed={device === "mobile"} onClick={() => setDevice("mobile")}>
            Mobile
          </button>
        </div>
        {text !== undefined && (
          <div className="segmented" role="group" aria-label="Preview format">
            <button type="button" aria-pressed={view === "html"} onClick={() => setView("html")}>
              HTML
            </button>
            <button type="button" aria-pressed={view === "text"} onClick={() => setView("text")}>
              Plain text
            </button>
          </div>
        )}
        <span className="spacer" />
        <span className="small muted row" aria-live="polite" data-testid="preview-status">
          {status === "rendering" ? (
            <>
              <span className="spinner" aria-hidden="true" /> Rendering…
            </>
          ) : status === "error" ? (
            <span style={{ color: "var(--danger)" }}>Not updated</span>
          ) : html ? (
            "Up to date"
          ) : null}
        </span>
        {actions}
      </div>
      {error && (
        <div className="alert alert-danger" role="alert" style={{ margin: 12 }}>
          <p style={{ whiteSpace: "pre-wrap" }}>{error}</p>
        </div>
      )}
      <div className={`preview-stage${stale ? " is-stale" : ""}`}>
        {/* There while empty (null), so that screen readers announce the reason when it comes. */}
        {stale !== undefined && (
          <div role="status" className="preview-stale">
            {stale && <p className="preview-stale-note">Not updated: {stale}</p>}
          </div>
        )}
        {html === null ? (
          <div className="skeleton" style={{ width: "100%", height: 480 }} aria-hidden="true" />
        ) : view === "text" && text !== undefined ? (
          <pre className="plain-text" style={{ maxWidth: device === "mobile" ? 375 : undefined }}>
            {text ?? "Plain text appears after the next render."}
          </pre>
        ) : (
          <EmailFrame html={html} title={title} mobile={device === "mobile"} />
        )}
      </div>
    </section>
  );
}
