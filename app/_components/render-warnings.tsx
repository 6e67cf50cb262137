import type { RenderWarning } from "@/lib/render/analysis/warnings";

/**
 * A render's warnings, as the API orders them: the variables' and the size's listed, the email client ones (the
 * longest list, and the least urgent) folded under one line, so the warning that matters is not buried among them.
 */
export function RenderWarnings({ warnings }: { warnings: readonly RenderWarning[] }) {
  const listed = warnings.filter((warning) => warning.kind !== "compatibility");
  const compatibility = warnings.filter((warning) => warning.kind === "compatibility");
  return (
    <div className="alert alert-warning" role="status" data-testid="render-warnings">
      <div>
        <p>The render answered with warnings:</p>
        {listed.length > 0 && <WarningList warnings={listed} />}
        {compatibility.length > 0 && (
          <details className="small" style={{ marginTop: 6 }}>
            <summary>
              {compatibility.length} email client {compatibility.length === 1 ? "warning" : "warnings"}
            </summary>
            <WarningList warnings={compatibility} />
          </details>
        )}
      </div>
    </div>
  );
}

function WarningList({ warnings }: { warnings: readonly RenderWarning[] }) {
  return (
    <ul className="small" style={{ margin: "6px 0 0", paddingLeft: 18 }}>
      {warnings.map((warning) => (
        <li key={`${warning.field}:${warning.message}`}>
          <code>{warning.field}</code>: {warning.message}
        </li>
      ))}
    </ul>
  );
}
