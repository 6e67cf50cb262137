import type { MessagesProblem } from "@/lib/templates/messages";

/** A save's warnings beside its result: each key a locale lacks, and where its message comes from instead. */
export function SaveWarnings({ warnings }: { warnings: readonly MessagesProblem[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="alert alert-warning" role="status" data-testid="save-warnings">
      <div style={{ minWidth: 0 }}>
        <p>
          Saved with {warnings.length === 1 ? "a warning" : `${warnings.length} warnings`}: renders in these locales use
          the fallback&apos;s message until you add the key.
        </p>
        <ul className="small" style={{ margin: "6px 0 0", paddingLeft: 18, overflowWrap: "anywhere" }}>
          {warnings.map((warning) => (
            <li key={`${warning.field}:${warning.message}`}>
              <code>{warning.field}</code>: {warning.message}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
