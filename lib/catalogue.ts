import { z } from "zod";
import { catalogue, type CatalogueEntry } from "@/emails/_catalogue";
import type { VariableDeclaration } from "@/lib/schemas/templates";
import type { VariableSchema, VariablesSchema } from "@/lib/schemas/variables";

export { catalogue };

// The trusted catalogue: components compiled into the app (rendered natively, no per-request compilation) and
// their zod variable schemas, keyed by slug.

const bySlug = new Map(catalogue.map((entry) => [entry.slug, entry]));

export function getCatalogueEntry(slug: string): CatalogueEntry | undefined {
  return bySlug.get(slug);
}

type JsonSchemaProperty = { type?: string | string[]; default?: unknown; description?: string };

/** Variable declarations (name, type, required, default) read off a catalogue template's zod schema. */
export function declareVariables(schema: z.ZodObject): VariableDeclaration[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, JsonSchemaProperty>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const rawType = Array.isArray(property.type) ? property.type.find((t) => t !== "null") : property.type;
    const type = rawType === "integer" ? "number" : rawType;
    return {
      name,
      type: (["string", "number", "boolean", "array", "object"].includes(type ?? "")
        ? type
        : "string") as VariableDeclaration["type"],
      required: required.has(name),
      ...(property.default !== undefined ? { default: property.default } : {}),
      ...(property.description ? { description: property.description } : {}),
    };
  });
}

const variablesSchemas = new Map<string, VariablesSchema>();

/**
 * A catalogue template's variables as JSON Schema, from its zod schema (as a caller sends them: defaults make a
 * variable optional). Objects accept undeclared members, which reach the component as the contract says.
 */
export function catalogueVariablesSchema(entry: CatalogueEntry): VariablesSchema {
  let schema = variablesSchemas.get(entry.slug);
  if (!schema) {
    const json = openObjects(z.toJSONSchema(entry.variables, { io: "input", unrepresentable: "any" }) as VariableSchema);
    schema = { ...json, type: "object", properties: json.properties ?? {}, additionalProperties: true };
    variablesSchemas.set(entry.slug, schema);
  }
  return schema;
}

function openObjects(schema: VariableSchema): VariableSchema {
  const open: VariableSchema = { ...schema };
  if (schema.properties) {
    open.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, openObjects(v)]));
    open.additionalProperties ??= true;
  }
  if (schema.items) open.items = openObjects(schema.items);
  if (schema.anyOf) open.anyOf = schema.anyOf.map(openObjects);
  return open;
}
