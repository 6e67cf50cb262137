import type { VariablesSchema } from "@/lib/templates/variables-schema";
import { describeType } from "@/lib/dashboard/variables-form";

/** The variables a template takes: name, type, whether required, description (read-only). */
export function VariablesList({ schema, label }: { schema: VariablesSchema; label: string }) {
  const entries = Object.entries(schema.properties);
  const required = new Set(schema.required ?? []);
  if (entries.length === 0) {
    return (
      <p className="muted small" style={{ margin: 0 }}>
        Declares no variables: every variable given reaches the template unchanged.
      </p>
    );
  }
  return (
    <ul className="var-summary" aria-label={label}>
      {entries.map(([name, variable]) => (
        <li key={name} data-testid="variable-summary">
          <span className="row" style={{ gap: 8 }}>
            <code className="var-name">{name}</code>
            <span className="var-type">{describeType(variable)}</span>
            {required.has(name) ? (
              <span className="badge badge-accent">required</span>
            ) : (
              <span className="var-type">optional</span>
            )}
            {variable.default !== undefined && (
              <span className="var-type">
                default <code>{JSON.stringify(variable.default)}</code>
              </span>
            )}
          </span>
          {variable.description && <span className="hint">{variable.description}</span>}
        </li>
      ))}
    </ul>
  );
}
