import type { JsonSchemaType, JsonValue, VariableSchema, VariablesSchema } from "@/lib/templates/variables-schema";
import { JSON_SCHEMA_DIALECT, OPEN_VARIABLES_SCHEMA } from "@/lib/templates/variables-schema";
import { MAX_DETAILS, type ValidationDetail } from "@/lib/core/errors";
import { MAX_JSON_DEPTH, MAX_VARIABLES_BYTES } from "@/lib/core/limits";
import { holdsNul } from "@/lib/core/schemas";
import type { RenderWarning } from "@/lib/render/analysis/warnings";

// Checks a request's variables against a user template's variables schema (JSON Schema, the subset in
// lib/templates/variables-schema.ts), and lists the variables a schema does not declare. Both run on the event loop, so
// both walk the value once and bound what a schema can add to that (schemas derived from users' code are bounded too,
// in lib/render/analysis/props-schema.ts); nothing here builds code from a schema.

/**
 * The problems found so far. A 400 lists at most MAX_DETAILS of them, so the walk stops once it has one more: past
 * that, a value built to fail everywhere (items missing every member) would cost time and memory for nothing.
 */
class Problems {
  readonly list: ValidationDetail[] = [];
  get full(): boolean {
    return this.list.length > MAX_DETAILS;
  }
  add(field: string, message: string): void {
    if (!this.full) this.list.push({ field, message });
  }
}

type Checker = (value: unknown, path: string, problems: Problems) => void;

const TYPE_NAMES: Record<JsonSchemaType, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};
const KNOWN_TYPES = new Set(Object.keys(TYPE_NAMES));

/** An enum's values named in its message; a longer enum is cut there. */
const MAX_ENUM_VALUES_NAMED = 20;

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

/** The JSON type a value is filed under when a union's branches are looked up (integers are numbers). */
function jsonKind(value: unknown): JsonSchemaType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    default:
      return "object";
  }
}

/** The schema's types this checker knows; null when it states none (or only unknown ones): any type then. */
function typesOf(schema: VariableSchema): JsonSchemaType[] | null {
  const stated = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const known = stated.filter((type) => KNOWN_TYPES.has(type));
  return known.length > 0 ? known : null;
}

/** The values an enum or const allows, for lookups in constant time; null when it has neither. */
function allowedValues(schema: VariableSchema): Set<unknown> | null {
  if (schema.enum) return new Set(schema.enum);
  return schema.const !== undefined ? new Set([schema.const]) : null;
}

function enumMessage(values: Set<unknown>): string {
  const named = [...values].slice(0, MAX_ENUM_VALUES_NAMED).map((value) => JSON.stringify(value));
  const rest = values.size - named.length;
  return `must be one of ${named.join(", ")}${rest > 0 ? ` (or ${rest.toLocaleString("en-US")} more)` : ""}`;
}

/** One of the schema's types, as a message: "must be a string or null". */
function expectedTypes(types: readonly JsonSchemaType[]): string {
  const names = types.map((type) => TYPE_NAMES[type]);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

function join(path: string, key: string | number): string {
  return `${path}.${key}`;
}

type Branch = { types: JsonSchemaType[] | null; allowed: Set<unknown> | null; check: Checker };

/**
 * A union's branches filed by the JSON type they accept, and within a type by the values their enums allow: finding
 * a value's branch costs the same however many branches the union has.
 */
function fileBranches(branches: Branch[]): (value: unknown) => Branch | undefined {
  const byKind = new Map<JsonSchemaType, { byValue: Map<unknown, Branch>; open: Branch[] }>();
  const kinds: JsonSchemaType[] = ["string", "number", "boolean", "object", "array", "null"];
  for (const branch of branches) {
    for (const kind of kinds) {
      const accepts =
        !branch.types || branch.types.some((type) => type === kind || (type === "integer" && kind === "number"));
      if (!accepts) continue;
      let filed = byKind.get(kind);
      if (!filed) byKind.set(kind, (filed = { byValue: new Map(), open: [] }));
      if (branch.allowed) {
        for (const value of branch.allowed) if (!filed.byValue.has(value)) filed.byValue.set(value, branch);
      } else filed.open.push(branch);
    }
  }
  return (value) => {
    const filed = byKind.get(jsonKind(value));
    if (!filed) return undefined;
    const byValue = filed.byValue.get(value);
    if (byValue) return byValue;
    // Open branches differ only in type within a kind: the first that takes the value (an integer) is the one.
    return filed.open.find((branch) => !branch.types || branch.types.some((type) => hasType(value, type)));
  };
}

/**
 * A checker for one schema, built once per template version. It looks at each value once and at each declared name
 * only when the value has it or the schema requires it, so its cost is that of the variables plus the required
 * members of the objects in them (and stops at the problems a 400 can list).
 */
function compileSchema(schema: VariableSchema, depth = 0): Checker {
  // Derived schemas are bounded in depth; a deeper one (stored by hand) accepts anything below this level.
  if (depth > 64) return () => {};
  const types = typesOf(schema);
  const typeMessage = types ? `must be ${expectedTypes(types)}` : "";
  const allowed = allowedValues(schema);
  const allowedMessage = allowed ? enumMessage(allowed) : "";
  const branchOf = schema.anyOf
    ? fileBranches(
        schema.anyOf.map((branch) => ({
          types: typesOf(branch),
          allowed: allowedValues(branch),
          check: compileSchema(branch, depth + 1),
        })),
      )
    : null;
  const members = new Map<string, Checker>();
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    members.set(name, compileSchema(property, depth + 1));
  }
  const required = (schema.required ?? []).filter((name) => members.has(name));
  const additional =
    typeof schema.additionalProperties === "object" ? compileSchema(schema.additionalProperties, depth + 1) : null;
  const items = schema.items ? compileSchema(schema.items, depth + 1) : null;

  return (value, path, problems) => {
    if (problems.full) return;
    if (types && !types.some((type) => hasType(value, type))) return problems.add(path, typeMessage);
    if (allowed && !allowed.has(value)) return problems.add(path, allowedMessage);
    if (branchOf) {
      const branch = branchOf(value);
      if (!branch) return problems.add(path, "does not match any of the shapes this variable takes");
      branch.check(value, path, problems);
    }
    if (isPlainObject(value) && (members.size > 0 || additional)) {
      for (const key of Object.keys(value)) {
        (members.get(key) ?? additional)?.(value[key], join(path, key), problems);
        if (problems.full) return;
      }
      for (const name of required) {
        if (!Object.hasOwn(value, name) || value[name] === undefined) problems.add(join(path, name), "is required");
      }
      return;
    }
    if (Array.isArray(value) && items) {
      for (let index = 0; index < value.length && !problems.full; index++) {
        items(value[index], join(path, index), problems);
      }
    }
  };
}

/** A compiled variables schema: `check(variables)` answers the problems found, none when the variables fit. */
export type VariablesChecker = (variables: Record<string, unknown>) => ValidationDetail[];

/**
 * Variables reach the component as given: a declared default is the component's own (it was read off its
 * destructuring), so the component applies it.
 */
export function compileVariablesSchema(schema: VariablesSchema): VariablesChecker {
  const check = compileSchema(schema);
  return (variables) => {
    const problems = new Problems();
    check(variables, "variables", problems);
    return problems.list;
  };
}

/** At most this many variables are named in warnings; one more entry counts the rest. */
export const MAX_VARIABLE_WARNINGS = 50;
/** Names longer than this get no suggestion: slips happen in names people type. */
const MAX_SUGGESTED_NAME_LENGTH = 40;
const MAX_SUGGESTION_EDITS = 3;
/** Edit-distance cells one request may spend on suggestions, whatever the schema's names. */
const SUGGESTION_BUDGET_CELLS = 200_000;

/** A level's declared names, read once per schema: lowercased, and without case and separators. */
type DeclaredNames = { count: number; names: string[]; lower: string[]; bySpelling: Map<string, string> };
const declaredNamesCache = new WeakMap<object, DeclaredNames>();

function declaredNames(properties: Record<string, VariableSchema>): DeclaredNames {
  let names = declaredNamesCache.get(properties);
  if (!names) {
    names = namesToSuggest(Object.keys(properties));
    declaredNamesCache.set(properties, names);
  }
  return names;
}

function namesToSuggest(all: readonly string[]): DeclaredNames {
  const list = all.filter((name) => name.length <= MAX_SUGGESTED_NAME_LENGTH);
  const bySpelling = new Map<string, string>();
  for (const name of list) if (!bySpelling.has(spelling(name))) bySpelling.set(spelling(name), name);
  return { count: all.length, names: list, lower: list.map((name) => name.toLowerCase()), bySpelling };
}

/**
 * The one of `candidates` closest to `name` when it is close enough to be a slip (as a variable's did-you-mean), and
 * not `name` itself; null otherwise. Its cost is bounded as the variables' is: names past 40 characters are not
 * compared, and the comparisons stop at the same budget of edit-distance cells.
 */
export function closestNameAmong(name: string, candidates: readonly string[]): string | null {
  const closest = closestName(name, namesToSuggest(candidates), { cells: SUGGESTION_BUDGET_CELLS });
  return closest === name ? null : closest;
}

/**
 * Warnings for the variables the schema does not declare, at any depth where it declares members: they reach the
 * component unchanged, but are most likely misspelt, so a declared name close to one is suggested. A level that
 * declares nothing (an open schema) warns about nothing.
 */
export function undeclaredVariableWarnings(
  schema: VariablesSchema,
  variables: Record<string, unknown>,
): RenderWarning[] {
  const warnings: RenderWarning[] = [];
  const budget = { cells: SUGGESTION_BUDGET_CELLS };
  let unlisted = 0;
  const visit = (level: VariableSchema, value: unknown, path: string, depth: number): void => {
    if (depth > 64) return;
    if (Array.isArray(value) && level.items) {
      const items = level.items;
      value.forEach((item, index) => visit(items, item, join(path, index), depth + 1));
      return;
    }
    const declared = level.properties;
    if (!isPlainObject(value) || !declared) return;
    const names = declaredNames(declared);
    if (names.count === 0) return;
    for (const key of Object.keys(value)) {
      const field = join(path, key);
      if (Object.hasOwn(declared, key)) {
        visit(declared[key], value[key], field, depth + 1);
      } else if (warnings.length >= MAX_VARIABLE_WARNINGS) {
        unlisted++;
      } else {
        const suggestion = closestName(key, names, budget);
        warnings.push({
          field,
          kind: "variables",
          message: `not a variable of this template${suggestion ? `; did you mean ${suggestion}?` : ""}`,
        });
      }
    }
  };
  visit(schema, variables, "variables", 0);
  if (unlisted > 0) {
    warnings.push({
      field: "variables",
      kind: "variables",
      message: `${unlisted.toLocaleString("en-US")} more variables are not variables of this template`,
    });
  }
  return warnings;
}

/** The declared name closest to `name` when it is close enough to be a slip: case, separators, or a few edits. */
function closestName(name: string, declared: DeclaredNames, budget: { cells: number }): string | null {
  if (name.length > MAX_SUGGESTED_NAME_LENGTH) return null;
  const sameSpelling = declared.bySpelling.get(spelling(name)); // customer_name → customerName
  if (sameSpelling) return sameSpelling;
  const lower = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  for (let index = 0; index < declared.names.length; index++) {
    const candidate = declared.lower[index];
    const allowance = Math.min(
      MAX_SUGGESTION_EDITS,
      Math.max(1, Math.floor(Math.max(name.length, candidate.length) / 4)),
    );
    if (Math.abs(name.length - candidate.length) > allowance) continue;
    budget.cells -= name.length * candidate.length;
    if (budget.cells < 0) break;
    const distance = editDistance(lower, candidate, allowance);
    if (distance <= allowance && distance < bestDistance) {
      best = declared.names[index];
      bestDistance = distance;
    }
  }
  return best;
}

/** A name as it sounds: lowercase, without underscores and dashes. */
function spelling(name: string): string {
  return name.toLowerCase().replaceAll("_", "").replaceAll("-", "");
}

/**
 * Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment), stopping early
 * once every path is past `limit`.
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

/** The deepest variables every request can carry: a batch item's sit three levels into its body (`emails`, the item). */
const MAX_VARIABLES_DEPTH = MAX_JSON_DEPTH - 3;

/**
 * Why a value could not be sent as variables (larger than MAX_VARIABLES_BYTES as JSON, nested deeper than
 * MAX_VARIABLES_DEPTH, or holding text a request's body may not: the NUL character, an unpaired surrogate), as the end
 * of a sentence; null when it could.
 */
export function variablesProblem(value: Record<string, unknown>): string | null {
  let textProblem: string | null = null;
  const json = JSON.stringify(value, (key: string, item: unknown) => {
    textProblem ??= refusedTextProblem(key) ?? (typeof item === "string" ? refusedTextProblem(item) : null);
    return item;
  });
  if (json.length > MAX_VARIABLES_BYTES || Buffer.byteLength(json) > MAX_VARIABLES_BYTES) {
    return `are larger than ${MAX_VARIABLES_BYTES / 1024 / 1024} MB as JSON, the most a request's variables may be`;
  }
  if (textProblem) return textProblem;
  let level: unknown[] = [value];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > MAX_VARIABLES_DEPTH) {
      return `nest deeper than ${MAX_VARIABLES_DEPTH} levels, the most a batch's variables may`;
    }
    level = level.flatMap((item) =>
      item !== null && typeof item === "object"
        ? Object.values(item).filter((v) => v !== null && typeof v === "object")
        : [],
    );
  }
  return null;
}

/**
 * Why a template's derived schema cannot be kept: a default holding `$ref` as a key, which JSON Schema tools reading
 * the schema (the ref parser in everyone's `npx letterpress types`, say) would follow as a reference to a URL or a
 * file; null when none does. Defaults are read off the props' destructuring (lib/render/analysis/props-schema.ts), so
 * they sit on properties, nested or not; derived schemas have no other data (`examples`, `const`, object enums).
 */
export function defaultsProblem(schema: VariablesSchema): string | null {
  const visit = (level: VariableSchema, path: string, depth: number): string | null => {
    if (depth > 64) return null;
    for (const [name, property] of Object.entries(level.properties ?? {})) {
      const field = join(path, name);
      const found =
        (property.default !== undefined && referenceKeyIn(property.default, field)) ||
        visit(property, field, depth + 1);
      if (found) return found;
    }
    return null;
  };
  const found = visit(schema, "variables", 0);
  return (
    found && `$ref cannot be a key in a default, as at ${found} (JSON Schema tools would follow it as a reference)`
  );
}

/** The path of the first `$ref` key in a JSON value at `path`, or null. */
function referenceKeyIn(value: JsonValue, path: string): string | null {
  if (value === null || typeof value !== "object") return null;
  if (!Array.isArray(value) && Object.hasOwn(value, "$ref")) return join(path, "$ref");
  for (const [key, item] of Object.entries(value)) {
    const found = referenceKeyIn(item, join(path, key));
    if (found) return found;
  }
  return null;
}

/** Why a request's body may not hold `text` (a key or a string), as the end of a sentence; null when it may. */
function refusedTextProblem(text: string): string | null {
  if (holdsNul(text)) return "hold the NUL character (\\u0000), which a request's variables may not";
  if (!text.isWellFormed())
    return "hold text that is not valid Unicode (an unpaired surrogate), which a request's variables may not";
  return null;
}

/**
 * The schema of a template whose props are untyped, from its PreviewProps: each declarable name becomes an optional
 * variable of its sample value's type, nested objects and arrays (typed by their first item) included. Samples never
 * become defaults, so sample data cannot reach a real email. Without PreviewProps, an open schema.
 */
export function schemaFromPreviewProps(previewProps: Record<string, unknown> | null): VariablesSchema {
  if (!previewProps) return OPEN_VARIABLES_SCHEMA;
  const properties: Record<string, VariableSchema> = {};
  for (const [name, value] of Object.entries(previewProps).slice(0, MAX_SAMPLE_MEMBERS)) {
    if (isDeclarableVariableName(name)) properties[name] = schemaOfSample(value, 1);
  }
  return { $schema: JSON_SCHEMA_DIALECT, type: "object", properties, additionalProperties: true };
}

/** The most variables previewPropsRenderFailure names; the rest are counted. */
const MAX_NAMED_VARIABLES = 10;

/**
 * The message of a render of a template's PreviewProps that failed with `failure` (the render's own message) when they
 * lack variables its props type requires, the likely cause: those variables first. Null when they lack none.
 */
export function previewPropsRenderFailure(
  schema: VariablesSchema | null,
  previewProps: Record<string, unknown> | null,
  failure: string,
): string | null {
  const lacking = (schema?.required ?? []).filter((name) => !previewProps || !Object.hasOwn(previewProps, name));
  if (lacking.length === 0) return null;
  const more = lacking.length > MAX_NAMED_VARIABLES ? ` and ${lacking.length - MAX_NAMED_VARIABLES} more` : "";
  const variables = `${lacking.length > 1 ? "variables" : "variable"} ${lacking.slice(0, MAX_NAMED_VARIABLES).join(", ")}${more}`;
  const subject = previewProps ? "PreviewProps lacks" : "PreviewProps is not set, so it lacks";
  return `${subject} the required ${variables}: the example render failed with: ${failure}`;
}

// Deeper sample values say nothing more about a template's variables: past this depth a value is "anything".
const MAX_SAMPLE_DEPTH = 16;
// As a props type's (lib/render/analysis/props-schema.ts): the rest of an object's members pass through undeclared.
const MAX_SAMPLE_MEMBERS = 200;

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
    for (const [name, member] of Object.entries(value).slice(0, MAX_SAMPLE_MEMBERS)) {
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
