import "server-only";
import { isDeclarableVariableName } from "@/lib/render";
import { JSON_SCHEMA_DIALECT, type VariableSchema, type VariablesSchema } from "@/lib/schemas/variables";

// Deeper sample values say nothing more about a template's variables: past this depth a value is "anything".
const MAX_DEPTH = 16;

/**
 * A variables schema read off a component's PreviewProps: each declarable name becomes an optional variable of its
 * sample value's type, nested objects and arrays (typed by their first item) included. Samples never become
 * defaults, so sample data cannot leak into real emails; names that are not declarable still pass through.
 */
export function schemaFromPreviewProps(previewProps: Record<string, unknown>): VariablesSchema {
  const properties: Record<string, VariableSchema> = {};
  for (const [name, value] of Object.entries(previewProps)) {
    if (isDeclarableVariableName(name)) properties[name] = schemaOfSample(value, 1);
  }
  return { $schema: JSON_SCHEMA_DIALECT, type: "object", properties, additionalProperties: true };
}

function schemaOfSample(value: unknown, depth: number): VariableSchema {
  if (depth > MAX_DEPTH) return {};
  if (typeof value === "string") return { type: "string" };
  if (typeof value === "number") return { type: "number" };
  if (typeof value === "boolean") return { type: "boolean" };
  if (Array.isArray(value)) {
    return value.length === 0 ? { type: "array" } : { type: "array", items: schemaOfSample(value[0], depth + 1) };
  }
  if (value !== null && typeof value === "object") {
    const properties: Record<string, VariableSchema> = {};
    for (const [name, member] of Object.entries(value)) properties[name] = schemaOfSample(member, depth + 1);
    return { type: "object", properties, additionalProperties: true };
  }
  return {}; // null says nothing about the type
}
