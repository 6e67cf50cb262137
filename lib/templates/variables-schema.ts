/**
 * A template's variables schema: the JSON Schema (2020-12) subset every template's contract is written in.
 * Catalogue templates' schemas come from their zod schemas (z.toJSONSchema), user templates' from the props type of
 * their default export (lib/render/analysis/props-schema.ts), or from their PreviewProps when the props are untyped.
 * Undeclared variables are accepted everywhere (passed to the component and warned about), so every object schema
 * we produce says `additionalProperties: true` unless it maps keys to a value schema.
 */
export type JsonSchemaType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type VariableSchema = {
  type?: JsonSchemaType | JsonSchemaType[];
  description?: string;
  default?: JsonValue;
  enum?: (string | number | boolean | null)[];
  const?: JsonValue;
  properties?: Record<string, VariableSchema>;
  required?: string[];
  additionalProperties?: boolean | VariableSchema;
  items?: VariableSchema;
  anyOf?: VariableSchema[];
  // Catalogue schemas (from zod) may also carry these; the catalogue validates with zod itself.
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};

/** The schema of a whole `variables` object. */
export type VariablesSchema = VariableSchema & {
  $schema?: string;
  type: "object";
  properties: Record<string, VariableSchema>;
  additionalProperties: boolean | VariableSchema;
};

export const JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** The schema of a template that declares nothing: every variable passes through. */
export const OPEN_VARIABLES_SCHEMA: VariablesSchema = {
  $schema: JSON_SCHEMA_DIALECT,
  type: "object",
  properties: {},
  additionalProperties: true,
};
