"use client";
import type { VariableDeclaration } from "@/lib/schemas/templates";

export type VariableField = Pick<VariableDeclaration, "name" | "type" | "required" | "description">;
/** Raw input per field: text for strings, numbers and JSON; a boolean for checkboxes. */
export type Drafts = Record<string, string | boolean>;

export function fieldsFor(declarations: VariableDeclaration[], sample: Record<string, unknown>): VariableField[] {
  const fields: VariableField[] = declarations.map(({ name, type, required, description }) => ({
    name,
    type,
    required,
    description,
  }));
  for (const [name, value] of Object.entries(sample)) {
    if (fields.some((field) => field.name === name)) continue;
    const type = Array.isArray(value) ? "array" : value === null ? "string" : (typeof value as VariableField["type"]);
    fields.push({
      name,
      type: ["string", "number", "boolean", "array", "object"].includes(type) ? type : "string",
      required: false,
    });
  }
  return fields;
}

export function draftsFrom(fields: VariableField[], values: Record<string, unknown>): Drafts {
  const drafts: Drafts = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.type === "boolean") drafts[field.name] = value === true;
    else if (field.type === "array" || field.type === "object")
      drafts[field.name] = value === undefined ? "" : JSON.stringify(value, null, 2);
    else drafts[field.name] = value === undefined || value === null ? "" : String(value);
  }
  return drafts;
}

/** Turns the drafts into the `variables` object, or the per-field problems that stop it being sent. */
export function variablesFrom(
  fields: VariableField[],
  drafts: Drafts,
): { variables: Record<string, unknown>; errors: Record<string, string> } {
  const variables: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = drafts[field.name];
    if (field.type === "boolean") {
      variables[field.name] = raw === true;
      continue;
    }
    const text = typeof raw === "string" ? raw : "";
    if (field.type === "string") {
      if (text !== "" || field.required) variables[field.name] = text;
    } else if (field.type === "number") {
      if (text.trim() === "") continue;
      const number = Number(text);
      if (Number.isFinite(number)) variables[field.name] = number;
      else errors[field.name] = "Enter a number";
    } else {
      if (text.trim() === "") continue;
      try {
        const parsed = JSON.parse(text);
        const ok =
          field.type === "array"
            ? Array.isArray(parsed)
            : parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
        if (ok) variables[field.name] = parsed;
        else
          errors[field.name] =
            field.type === "array" ? "Enter a JSON array, e.g. [ … ]" : "Enter a JSON object, e.g. { … }";
      } catch {
        errors[field.name] = "This is not valid JSON yet";
      }
    }
  }
  return { variables, errors };
}

export function VariablesEditor({
  fields,
  drafts,
  errors,
  onChange,
}: {
  fields: VariableField[];
  drafts: Drafts;
  errors: Record<string, string>;
  onChange: (name: string, value: string | boolean) => void;
}) {
  if (fields.length === 0) {
    return <p className="muted small">This template declares no variables.</p>;
  }
  return (
    <div className="var-list">
      {fields.map((field) => {
        const id = `var-${field.name}`;
        const error = errors[field.name];
        const describedBy =
          [error ? `${id}-error` : null, field.description ? `${id}-hint` : null].filter(Boolean).join(" ") ||
          undefined;
        const label = (
          <span className="row" style={{ gap: 6 }}>
            <span className="var-name">{field.name}</span>
            <span className="var-type">
              {field.type}
              {field.required ? " · required" : ""}
            </span>
          </span>
        );
        // Under the name, before the input: what the variable is for is read before a value is typed.
        const description = field.description ? (
          <span id={`${id}-hint`} className="hint">
            {field.description}
          </span>
        ) : null;
        const errorLine = error ? (
          <span id={`${id}-error`} className="field-error">
            {error}
          </span>
        ) : null;
        if (field.type === "boolean") {
          return (
            <div key={field.name} className="field">
              <label className="checkbox" htmlFor={id}>
                <input
                  id={id}
                  type="checkbox"
                  checked={drafts[field.name] === true}
                  aria-describedby={describedBy}
                  onChange={(event) => onChange(field.name, event.target.checked)}
                />
                {label}
              </label>
              {description}
              {errorLine}
            </div>
          );
        }
        const value = typeof drafts[field.name] === "string" ? (drafts[field.name] as string) : "";
        const multiline = field.type === "array" || field.type === "object" || value.length > 70;
        return (
          <div key={field.name} className="field">
            <label className="label" htmlFor={id}>
              {label}
            </label>
            {description}
            {multiline ? (
              <textarea
                id={id}
                className={`textarea${field.type === "array" || field.type === "object" ? " code" : ""}`}
                rows={
                  field.type === "array" || field.type === "object"
                    ? Math.min(12, Math.max(4, value.split("\n").length))
                    : 3
                }
                value={value}
                spellCheck={field.type === "string"}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy}
                onChange={(event) => onChange(field.name, event.target.value)}
              />
            ) : (
              <input
                id={id}
                className="input"
                type={field.type === "number" ? "number" : "text"}
                step={field.type === "number" ? "any" : undefined}
                inputMode={field.type === "number" ? "decimal" : undefined}
                value={value}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy}
                onChange={(event) => onChange(field.name, event.target.value)}
              />
            )}
            {errorLine}
          </div>
        );
      })}
    </div>
  );
}
