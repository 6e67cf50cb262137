import { Fragment } from "react";
import { ScrollBox } from "./scroll-box";
import { ColumnHeadings } from "../_components/column-headings";

// Renders JSON Schema (as generated from the API's zod schemas) as readable tables.

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  propertyNames?: JsonSchema;
};

/** A description from the document, its `code` spans (CommonMark's backticks, as the schemas write them) as code. */
export function Description({ text }: { text: string }) {
  return text
    .split("`")
    .map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>));
}

export const refName = (ref: string) => ref.split("/").pop() ?? ref;
export const schemaAnchor = (name: string) => `schema-${name}`;

function TypeLabel({ schema }: { schema: JsonSchema }): React.ReactNode {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return <a href={`#${schemaAnchor(name)}`}>{name}</a>;
  }
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    return variants.map((variant, index) => (
      <span key={index}>
        {index > 0 && " | "}
        <TypeLabel schema={variant} />
      </span>
    ));
  }
  if (schema.const !== undefined) return <code>{JSON.stringify(schema.const)}</code>;
  if (schema.enum)
    return schema.enum.map((value, index) => (
      <span key={index}>
        {index > 0 && " | "}
        <code>{JSON.stringify(value)}</code>
      </span>
    ));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes("array")) {
    const rest = types.filter((type) => type !== "array");
    return (
      <>
        array of {schema.items ? <TypeLabel schema={schema.items} /> : "any"}
        {rest.length > 0 && ` | ${rest.join(" | ")}`}
      </>
    );
  }
  if (
    types.includes("object") &&
    !schema.properties &&
    schema.additionalProperties &&
    typeof schema.additionalProperties === "object"
  ) {
    return (
      <>
        object of <TypeLabel schema={schema.additionalProperties} />
      </>
    );
  }
  if (types.length === 0) return "any";
  return `${types.join(" | ")}${schema.format ? ` (${schema.format})` : ""}`;
}

const SAFE = 9007199254740991;

function constraints(schema: JsonSchema): string[] {
  const notes: string[] = [];
  if (schema.minimum !== undefined && Math.abs(schema.minimum) !== SAFE) notes.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) notes.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined && Math.abs(schema.maximum) !== SAFE) notes.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) notes.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) notes.push(`max length ${schema.maxLength}`);
  if (schema.minItems !== undefined) notes.push(`at least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}`);
  if (schema.maxItems !== undefined) notes.push(`at most ${schema.maxItems} items`);
  if (schema.pattern && !schema.format) notes.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

type Row = { path: string; depth: number; schema: JsonSchema; required: boolean };

function flatten(schema: JsonSchema, depth = 0, prefix = ""): Row[] {
  const rows: Row[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    rows.push({ path, depth, schema: property, required: required.has(name) });
    if (depth < 3) {
      if (property.properties) rows.push(...flatten(property, depth + 1, path));
      else if (property.items?.properties) rows.push(...flatten(property.items, depth + 1, `${path}[]`));
    }
  }
  return rows;
}

/** A schema as a table of its fields (nested objects indented), named `name`; a $ref or scalar as one line. */
export function SchemaTable({ schema, name }: { schema: JsonSchema; name: string }) {
  const variants = schema.anyOf ?? schema.oneOf;
  if (!schema.properties && variants?.some((variant) => variant.properties)) {
    return (
      <div className="stack-sm">
        <p className="small muted" style={{ margin: 0 }}>
          One of:
        </p>
        {variants.map((variant, index) => (
          <SchemaTable key={index} schema={variant} name={`${name}, option ${index + 1}`} />
        ))}
      </div>
    );
  }
  if (!schema.properties) {
    return (
      <p className="small">
        <TypeLabel schema={schema} />
      </p>
    );
  }
  const rows = flatten(schema);
  return (
    <ScrollBox className="table-wrap card" style={{ marginBottom: 12 }} name={name}>
      <table className="table schema-table">
        <ColumnHeadings columns={["Field", "Type", "Notes"]} />
        <tbody>
          {rows.map((row) => {
            const notes = constraints(row.schema);
            return (
              <tr key={row.path}>
                <td style={{ paddingLeft: 16 + row.depth * 18 }}>
                  {row.path.split(".").pop()}
                  {row.required && (
                    <span className="badge badge-accent" style={{ marginLeft: 8 }} title="required">
                      required
                    </span>
                  )}
                </td>
                <td className="small">
                  <TypeLabel schema={row.schema} />
                </td>
                <td className="small muted">
                  {row.schema.description && (
                    <div>
                      <Description text={row.schema.description} />
                    </div>
                  )}
                  {notes.length > 0 && <div>{notes.join(" · ")}</div>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollBox>
  );
}

export function SchemaRef({ schema }: { schema: JsonSchema }) {
  return <TypeLabel schema={schema} />;
}
