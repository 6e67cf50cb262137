import type { JsonSchemaType, JsonValue, VariableSchema, VariablesSchema } from "@/lib/schemas/variables";
import { JSON_SCHEMA_DIALECT, OPEN_VARIABLES_SCHEMA } from "@/lib/schemas/variables";

// Checks a request's variables against a user template's variables schema (JSON Schema, the subset in
// lib/schemas/variables.ts), and lists the variables a schema does not declare. Both walk the value once, so their
// cost is linear in the variables (at most 1 MB); nothing here builds code from a schema.

export type VariableProblem = { field: string; message: string };

type Checker = (value: unknown, path: string, problems: VariableProblem[]) => unknown;

const TYPE_NAMES: Record<JsonSchemaType, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasType(value: unknown, type: JsonSchemaType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return isPlainObject(value);
    case "array":
      return Array.isArray(value);
    case "null":
      return value === null;
  }
}

function describeEnum(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(", ");
}

/** One of the schema's types, as a message: "must be a string or null". */
function expectedTypes(types: readonly JsonSchemaType[]): string {
  const names = types.map((type) => TYPE_NAMES[type]);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

function join(path: string, key: string | number): string {
  return `${path}.${key}`;
}

/**
 * A checker for one schema, built once: it returns the value with declared defaults filled in, and pushes a problem
 * for each value that does not match (one per place, with its dotted path).
 */
function compileSchema(schema: VariableSchema, depth = 0): Checker {
  // Derived schemas are bounded in depth; a deeper one (stored by hand) accepts anything below this level.
  if (depth > 64) return (value) => value;
  const types = schema.type === undefined ? null : Array.isArray(schema.type) ? schema.type : [schema.type];
  const allowed = schema.enum ?? (schema.const !== undefined ? [schema.const] : null);
  const anyOf = schema.anyOf?.map((branch) => [branch, compileSchema(branch, depth + 1)] as const);
  const properties = schema.properties
    ? Object.entries(schema.properties)
        .filter(([name]) => name !== "__proto__") // assigning it would replace the props' prototype
        .map(([name, property]) => [name, compileSchema(property, depth + 1), property.default] as const)
    : null;
  const required = new Set(schema.required ?? []);
  const additional =
    typeof schema.additionalProperties === "object" ? compileSchema(schema.additionalProperties, depth + 1) : null;
  const items = schema.items ? compileSchema(schema.items, depth + 1) : null;

  return (value, path, problems) => {
    if (types && !types.some((type) => hasType(value, type))) {
      problems.push({ field: path, message: `must be ${expectedTypes(types)}` });
      return value;
    }
    if (allowed && !allowed.some((option) => option === value)) {
      problems.push({ field: path, message: `must be one of ${describeEnum(allowed)}` });
      return value;
    }
    if (anyOf) {
      // The first branch whose type fits is the one checked in depth: trying every branch in depth would cost a
      // product of the branches at every level of nested unions.
      const branch = anyOf.find(([branchSchema]) => fitsShallowly(branchSchema, value));
      if (!branch) {
        problems.push({ field: path, message: "does not match any of the shapes this variable takes" });
        return value;
      }
      value = branch[1](value, path, problems);
    }
    if (isPlainObject(value) && (properties || additional)) {
      const result: Record<string, unknown> = { ...value };
      for (const [name, check, fallback] of properties ?? []) {
        const present = Object.hasOwn(value, name) && value[name] !== undefined;
        if (present) result[name] = check(value[name], join(path, name), problems);
        else if (fallback !== undefined) result[name] = structuredClone(fallback);
        else if (required.has(name)) problems.push({ field: join(path, name), message: "is required" });
      }
      if (additional) {
        const declared = schema.properties ?? {};
        for (const key of Object.keys(value)) {
          if (!Object.hasOwn(declared, key)) result[key] = additional(value[key], join(path, key), problems);
        }
      }
      return result;
    }
    if (Array.isArray(value) && items) return value.map((item, index) => items(item, join(path, index), problems));
    return value;
  };
}

/** Whether a value has one of the schema's types and is one of its values, without looking inside it. */
function fitsShallowly(schema: VariableSchema, value: unknown): boolean {
  const types = schema.type === undefined ? null : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types && !types.some((type) => hasType(value, type))) return false;
  if (schema.const !== undefined && schema.const !== value) return false;
  return !schema.enum || schema.enum.some((option) => option === value);
}

/** A compiled variables schema: `check(variables)` answers the props to render with, or the problems found. */
export type VariablesChecker = (
  variables: Record<string, unknown>,
) => { ok: true; props: Record<string, unknown> } | { ok: false; problems: VariableProblem[] };

export function compileVariablesSchema(schema: VariablesSchema): VariablesChecker {
  const check = compileSchema(schema);
  return (variables) => {
    const problems: VariableProblem[] = [];
    const props = check(variables, "variables", problems) as Record<string, unknown>;
    return problems.length === 0 ? { ok: true, props } : { ok: false, problems };
  };
}

/** At most this many variables are named in warnings; one more entry counts the rest. */
export const MAX_VARIABLE_WARNINGS = 50;
const MAX_SUGGESTED_NAME_LENGTH = 100;

/**
 * Warnings for the variables the schema does not declare, at any depth where it declares members: they reach the
 * component unchanged, but are most likely misspelt, so a declared name close to one is suggested. A schema that
 * declares nothing at a level (an open schema) warns about nothing there.
 */
export function undeclaredVariableWarnings(
  schema: VariablesSchema,
  variables: Record<string, unknown>,
): VariableProblem[] {
  const warnings: VariableProblem[] = [];
  let unlisted = 0;
  const visit = (level: VariableSchema, value: unknown, path: string, depth: number): void => {
    if (depth > 64) return;
    if (Array.isArray(value) && level.items) {
      value.forEach((item, index) => visit(level.items!, item, join(path, index), depth + 1));
      return;
    }
    if (!isPlainObject(value)) return;
    const declared = level.properties;
    if (!declared || Object.keys(declared).length === 0) return;
    for (const [key, member] of Object.entries(value)) {
      const field = join(path, key);
      if (Object.hasOwn(declared, key)) {
        visit(declared[key], member, field, depth + 1);
        continue;
      }
      if (warnings.length >= MAX_VARIABLE_WARNINGS) {
        unlisted++;
        continue;
      }
      const suggestion = closestName(key, Object.keys(declared));
      warnings.push({
        field,
        message: `not a variable of this template${suggestion ? `; did you mean ${suggestion}?` : ""}`,
      });
    }
  };
  visit(schema, variables, "variables", 0);
  if (unlisted > 0) {
    warnings.push({
      field: "variables",
      message: `${unlisted.toLocaleString("en-US")} more variables are not variables of this template`,
    });
  }
  return warnings;
}

/** The declared name closest to `name` when it is close enough to be a slip: case, separators, or a few edits. */
export function closestName(name: string, declared: readonly string[]): string | null {
  if (name.length > MAX_SUGGESTED_NAME_LENGTH) return null;
  const normalized = normalizeName(name);
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of declared) {
    if (candidate.length > MAX_SUGGESTED_NAME_LENGTH) continue;
    if (normalizeName(candidate) === normalized) return candidate; // customer_name → customerName
    const allowance = Math.max(1, Math.floor(Math.max(name.length, candidate.length) / 4));
    if (Math.abs(name.length - candidate.length) > allowance) continue;
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase(), allowance);
    if (distance <= allowance && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function normalizeName(name: string): string {
  return name.toLowerCase().replaceAll("_", "").replaceAll("-", "");
}

/**
 * Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment), stopping early
 * once every path is past `limit` (names are at most 100 characters).
 */
function editDistance(a: string, b: string, limit: number): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        current[j] = Math.min(current[j], beforePrevious[j - 2] + 1);
      }
      rowMinimum = Math.min(rowMinimum, current[j]);
    }
    if (rowMinimum > limit) return rowMinimum;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length];
}

const objectPrototypeNames = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Whether a PreviewProps key declares a variable: an ASCII identifier of at most 100 characters, and not a name every
 * object has already (sample data is not a declaration; other keys still reach the component).
 */
function isDeclarableVariableName(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]{0,99}$/.test(name) && !objectPrototypeNames.has(name);
}

/**
 * The schema of a template whose props are untyped, from its PreviewProps: each declarable name becomes an optional
 * variable of its sample value's type, nested objects and arrays (typed by their first item) included. Samples never
 * become defaults, so sample data cannot reach a real email. Without PreviewProps, an open schema.
 */
export function schemaFromPreviewProps(previewProps: Record<string, unknown> | null): VariablesSchema {
  if (!previewProps) return OPEN_VARIABLES_SCHEMA;
  const properties: Record<string, VariableSchema> = {};
  for (const [name, value] of Object.entries(previewProps)) {
    if (isDeclarableVariableName(name)) properties[name] = schemaOfSample(value, 1);
  }
  return { $schema: JSON_SCHEMA_DIALECT, type: "object", properties, additionalProperties: true };
}

// Deeper sample values say nothing more about a template's variables: past this depth a value is "anything".
const MAX_SAMPLE_DEPTH = 16;

function schemaOfSample(value: unknown, depth: number): VariableSchema {
  if (depth > MAX_SAMPLE_DEPTH) return {};
  if (typeof value === "string") return { type: "string" };
  if (typeof value === "number") return { type: "number" };
  if (typeof value === "boolean") return { type: "boolean" };
  if (Array.isArray(value)) {
    return value.length === 0 ? { type: "array" } : { type: "array", items: schemaOfSample(value[0], depth + 1) };
  }
  if (value !== null && typeof value === "object") {
    const properties: Record<string, VariableSchema> = {};
    for (const [name, member] of Object.entries(value)) {
      if (name !== "__proto__") properties[name] = schemaOfSample(member, depth + 1);
    }
    return { type: "object", properties, additionalProperties: true };
  }
  return {}; // null says nothing about the type
}

/** Sample values made from a schema: each member's default, else a value of its type (an enum's first option). */
export function exampleFromSchema(schema: VariableSchema, depth = 0): JsonValue {
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.anyOf && schema.anyOf.length > 0) return exampleFromSchema(schema.anyOf[schema.anyOf.length - 1], depth);
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== "null") ?? "null") : schema.type;
  if (depth > 16) return null;
  switch (type) {
    case "string":
      return schema.format === "uri" ? "https://example.com" : "";
    case "number":
    case "integer":
      return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 1;
    case "boolean":
      return false;
    case "null":
      return null;
    case "array":
      return schema.items ? [exampleFromSchema(schema.items, depth + 1)] : [];
    case "object":
    case undefined: {
      if (!schema.properties) return type === "object" ? {} : null;
      const example: Record<string, JsonValue> = {};
      for (const [name, property] of Object.entries(schema.properties)) {
        if (name !== "__proto__") example[name] = exampleFromSchema(property, depth + 1);
      }
      return example;
    }
  }
}
