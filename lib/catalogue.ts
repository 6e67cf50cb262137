import { z } from "zod";
import { catalogue, type CatalogueEntry } from "@/emails/_catalogue";
import type { VariableDeclaration } from "@/lib/schemas/templates";

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
