import { z } from "zod";
import { catalogue, type CatalogueEntry } from "@/emails/_catalogue";
import type { VariableSchema, VariablesSchema } from "@/lib/templates/variables-schema";

export { catalogue };

// The trusted catalogue: components compiled into the app (rendered natively, no per-request compilation) and
// their zod variable schemas, keyed by slug.

const bySlug = new Map(catalogue.map((entry) => [entry.slug, entry]));

export function getCatalogueEntry(slug: string): CatalogueEntry | undefined {
  return bySlug.get(slug);
}

const variablesSchemas = new Map<string, VariablesSchema>();

/**
 * A catalogue template's variables as JSON Schema, from its zod schema (as a caller sends them: defaults make a
 * variable optional). The zod schemas are loose objects: undeclared members reach the component, as the contract says.
 */
export function catalogueVariablesSchema(entry: CatalogueEntry): VariablesSchema {
  let schema = variablesSchemas.get(entry.slug);
  if (!schema) {
    const json = openObjects(
      z.toJSONSchema(entry.variables, { io: "input", unrepresentable: "any" }) as VariableSchema,
    );
    schema = { ...json, type: "object", properties: json.properties ?? {}, additionalProperties: true };
    variablesSchemas.set(entry.slug, schema);
  }
  return schema;
}

function openObjects(schema: VariableSchema): VariableSchema {
  const open: VariableSchema = { ...schema };
  if (schema.properties) {
    open.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, openObjects(v)]));
    // zod writes a loose object's "anything else" as {}: the same as true, which is what our schemas say.
    const additional = schema.additionalProperties;
    const acceptsAnything =
      additional === undefined || (typeof additional === "object" && Object.keys(additional).length === 0);
    open.additionalProperties = acceptsAnything ? true : additional;
  }
  if (schema.items) open.items = openObjects(schema.items);
  if (schema.anyOf) open.anyOf = schema.anyOf.map(openObjects);
  return open;
}
