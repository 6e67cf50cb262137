import type { ValidationDetail } from "@/lib/core/errors";
import type { JsonSchemaType, VariableSchema, VariablesSchema } from "@/lib/templates/variables-schema";

// What the dashboard's variables form (app/_components/variables-form.tsx) makes of a variables schema: which input
// each variable gets, what an input's text means as a value, and where the API's errors go. Pure, so it is tested
// without a browser.

export type Path = (string | number)[];
export type Choice = string | number | boolean | null;

/** The input a schema gets. `nullable`: an empty input means `null` rather than leaving the variable out. */
export type FieldShape =
  | { kind: "text"; inputType: "text" | "url" | "email"; nullable: boolean }
  | { kind: "number"; integer: boolean; nullable: boolean }
  | { kind: "boolean" }
  | { kind: "select"; options: Choice[]; nullable: boolean }
  | { kind: "object"; properties: Record<string, VariableSchema>; required: string[] }
  | { kind: "list"; items: VariableSchema; itemShape: FieldShape }
  | { kind: "json"; nullable: boolean };

const typesOf = (schema: VariableSchema): JsonSchemaType[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

const isNullOnly = (schema: VariableSchema) =>
  schema.const === null || (typesOf(schema).length === 1 && typesOf(schema)[0] === "null");

const isChoice = (value: unknown): value is Choice =>
  value === null || ["string", "number", "boolean"].includes(typeof value);

function withNullable(shape: FieldShape, nullable: boolean): FieldShape {
  if (!nullable) return shape;
  switch (shape.kind) {
    case "boolean":
      return { kind: "select", options: [true, false], nullable: true };
    case "object":
    case "list":
      return json(true); // an object or a list that may be null is written as JSON
    default:
      return { ...shape, nullable: true };
  }
}

/** The input for a schema: typed inputs for what they can express, JSON for the rest (`{}`, mixed `anyOf`, maps). */
export function fieldShape(schema: VariableSchema): FieldShape {
  const types = typesOf(schema);
  if (schema.enum) {
    const options = schema.enum.filter((option) => option !== null);
    return { kind: "select", options, nullable: options.length < schema.enum.length || types.includes("null") };
  }
  if (schema.const !== undefined) {
    return isChoice(schema.const) ? { kind: "select", options: [schema.const], nullable: false } : json(false);
  }
  if (schema.anyOf) return unionShape(schema.anyOf);
  const nullable = types.includes("null");
  const nonNull = types.filter((type) => type !== "null");
  if (nonNull.length === 0) return schema.properties ? objectShape(schema) : json(nullable);
  if (nonNull.length > 1) return json(nullable);
  let shape: FieldShape;
  switch (nonNull[0]) {
    case "string":
      shape = {
        kind: "text",
        inputType:
          schema.format === "uri" || schema.format === "url" ? "url" : schema.format === "email" ? "email" : "text",
        nullable: false,
      };
      break;
    case "number":
    case "integer":
      shape = { kind: "number", integer: nonNull[0] === "integer", nullable: false };
      break;
    case "boolean":
      shape = { kind: "boolean" };
      break;
    case "object":
      shape = objectShape(schema);
      break;
    case "array": {
      const itemShape = schema.items ? fieldShape(schema.items) : null;
      shape =
        schema.items && itemShape && itemShape.kind !== "json" && itemShape.kind !== "list"
          ? { kind: "list", items: schema.items, itemShape }
          : json(false);
      break;
    }
    default:
      shape = json(false);
  }
  return withNullable(shape, nullable);
}

function json(nullable: boolean): FieldShape {
  return { kind: "json", nullable };
}

function objectShape(schema: VariableSchema): FieldShape {
  // An object with no declared members, or one mapping any key to a value schema, has no fields to show.
  if (!schema.properties || Object.keys(schema.properties).length === 0) return json(false);
  return { kind: "object", properties: schema.properties, required: schema.required ?? [] };
}

/** `anyOf`: one input when its branches agree (a URL or "", a string or null), JSON otherwise. */
function unionShape(branches: VariableSchema[]): FieldShape {
  const nullable = branches.some(isNullOnly);
  const shapes = branches.filter((branch) => !isNullOnly(branch)).map(fieldShape);
  if (shapes.length === 0) return json(true);
  if (shapes.length === 1) return withNullable(shapes[0], nullable);
  const texts = shapes.filter((shape) => shape.kind === "text");
  const stringChoices = shapes.every(
    (shape) =>
      shape.kind === "text" || (shape.kind === "select" && shape.options.every((option) => typeof option === "string")),
  );
  if (texts.length > 0 && stringChoices) {
    const inputTypes = new Set(texts.map((shape) => shape.inputType));
    return { kind: "text", inputType: inputTypes.size === 1 ? [...inputTypes][0] : "text", nullable };
  }
  if (shapes.every((shape) => shape.kind === "select")) {
    const options = [...new Set(shapes.flatMap((shape) => shape.options))];
    return { kind: "select", options, nullable };
  }
  if (shapes.every((shape) => shape.kind === "number")) {
    return { kind: "number", integer: shapes.every((shape) => shape.integer), nullable };
  }
  return json(nullable);
}

/**
 * A schema's type in a few words for a label: `string`, `URL`, `URL or empty`, `"draft" | "sent"`,
 * `array of object`, `any`.
 */
export function describeType(schema: VariableSchema): string {
  if (schema.enum) return schema.enum.map((option) => JSON.stringify(option)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) {
    const branches = [...new Set(schema.anyOf.map(describeType))];
    // The catalogue's optional links: a URL, or "" for none.
    const orEmpty = branches.length > 1 && branches.includes('""');
    return `${branches.filter((branch) => !orEmpty || branch !== '""').join(" | ")}${orEmpty ? " or empty" : ""}`;
  }
  const types = typesOf(schema);
  if (types.length === 0) return schema.properties ? "object" : "any";
  return types
    .map((type) => {
      if (type === "string") return schema.format === "uri" ? "URL" : schema.format === "email" ? "email" : "string";
      if (type === "array") return schema.items ? `array of ${describeType(schema.items)}` : "array";
      return type;
    })
    .join(" | ");
}

// ---------- Values ----------

export function getIn(value: unknown, path: Path): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = Object.hasOwn(current, key) ? (current as Record<string | number, unknown>)[key] : undefined;
  }
  return current;
}

/**
 * `root` with the value at `path` replaced (copies along the path, the rest shared). `undefined` removes an object's
 * member: the variable is then not sent, and the template's default applies.
 */
export function setIn(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path;
  if (Array.isArray(root) && typeof key === "number") {
    const copy = root.slice();
    copy[key] = setIn(root[key], rest, value);
    return copy;
  }
  const base =
    root !== null && typeof root === "object" && !Array.isArray(root) ? (root as Record<string, unknown>) : {};
  const next = setIn(base[key], rest, value);
  const { [key]: _previous, ...others } = base;
  return next === undefined ? others : { ...others, [key]: next };
}

/**
 * What a text or number input's text sends. Empty: nothing (the default applies), `null` when the schema allows it,
 * or, for an item of a list (which has no "nothing"), the empty text itself. A number field's text that is not a
 * number is sent as it is, so the API's own check says what is wrong with it.
 */
export function valueFromInput(
  shape: Extract<FieldShape, { kind: "text" | "number" }>,
  text: string,
  inList = false,
): unknown {
  if (text === "" || (shape.kind === "number" && text.trim() === "")) {
    return inList ? text : shape.nullable ? null : undefined;
  }
  if (shape.kind === "text") return text;
  const number = Number(text.trim());
  return Number.isFinite(number) ? number : text;
}

/** The text an input shows for a value. */
export function inputText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** A new item for a list: the schema's default, else each required member's, else an empty value of its type. */
export function blankValue(schema: VariableSchema): unknown {
  if (schema.default !== undefined) return structuredClone(schema.default);
  const shape = fieldShape(schema);
  switch (shape.kind) {
    case "text":
      return "";
    case "boolean":
      return false;
    case "select":
      return shape.options[0] ?? null;
    case "object": {
      const item: Record<string, unknown> = {};
      for (const name of shape.required) {
        const member = blankValue(shape.properties[name]);
        if (member !== undefined) item[name] = member;
      }
      return item;
    }
    case "list":
      return [];
    default:
      return undefined;
  }
}

/** A list item needs a value even when its input is empty: an array cannot leave a hole. */
export function blankItem(schema: VariableSchema): unknown {
  return blankValue(schema) ?? "";
}

/** The variables the schema does not declare, as the "Other variables" JSON shows them ("" for none). */
export function otherVariablesText(schema: VariablesSchema, value: Record<string, unknown>): string {
  const others = Object.fromEntries(Object.entries(value).filter(([name]) => !Object.hasOwn(schema.properties, name)));
  return Object.keys(others).length === 0 ? "" : JSON.stringify(others, null, 2);
}

/** `value` with its undeclared variables replaced by the "Other variables" JSON, or why that JSON cannot be used. */
export function withOtherVariables(
  schema: VariablesSchema,
  value: Record<string, unknown>,
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  let others: unknown = {};
  if (text.trim() !== "") {
    try {
      others = JSON.parse(text);
    } catch {
      return { ok: false, error: "This is not valid JSON yet." };
    }
  }
  if (others === null || typeof others !== "object" || Array.isArray(others)) {
    return { ok: false, error: 'Write a JSON object, e.g. { "name": "Ada" }.' };
  }
  const declared = Object.keys(others).filter((name) => Object.hasOwn(schema.properties, name));
  if (declared.length > 0) {
    return { ok: false, error: `${declared.join(", ")} ${declared.length === 1 ? "has" : "have"} a field above.` };
  }
  const kept = Object.fromEntries(Object.entries(value).filter(([name]) => Object.hasOwn(schema.properties, name)));
  return { ok: true, value: { ...kept, ...(others as Record<string, unknown>) } };
}

// ---------- Errors ----------

/** The "Other variables" JSON's place in the errors, beside the dotted paths of the declared variables. */
export const OTHER_VARIABLES = "(other variables)";

/**
 * The inputs the form shows for `value`, by dotted path (`items.1.qty`): `input` for a single input or a group's
 * fieldset, `json` for a JSON textarea, which stands for everything inside it.
 */
export function formInputs(schema: VariablesSchema, value: Record<string, unknown>): Map<string, "input" | "json"> {
  const inputs = new Map<string, "input" | "json">();
  const visit = (member: VariableSchema, path: Path) => {
    const shape = fieldShape(member);
    const key = path.join(".");
    inputs.set(key, shape.kind === "json" ? "json" : "input");
    if (shape.kind === "object") {
      for (const [name, property] of Object.entries(shape.properties)) visit(property, [...path, name]);
    } else if (shape.kind === "list") {
      const items = getIn(value, path);
      if (Array.isArray(items)) items.forEach((_, index) => visit(shape.items, [...path, index]));
    }
  };
  for (const [name, property] of Object.entries(schema.properties)) visit(property, [name]);
  return inputs;
}

/**
 * Places the API's 400 details (`variables.items.1.qty`) on the form: on their input, on the JSON textarea that holds
 * them (prefixed with the path inside it), or, with no input to show them by, in a summary.
 */
export function placeErrors(
  schema: VariablesSchema,
  value: Record<string, unknown>,
  details: ValidationDetail[],
): { byPath: Record<string, string[]>; summary: ValidationDetail[] } {
  const inputs = formInputs(schema, value);
  const byPath: Record<string, string[]> = {};
  const summary: ValidationDetail[] = [];
  const add = (key: string, message: string) => (byPath[key] ??= []).push(message);
  for (const detail of details) {
    if (!detail.field.startsWith("variables.")) {
      summary.push(detail);
      continue;
    }
    const path = detail.field.slice("variables.".length).split(".");
    const exact = path.join(".");
    if (inputs.has(exact)) {
      add(exact, detail.message);
      continue;
    }
    let placed = false;
    for (let length = path.length - 1; length > 0 && !placed; length--) {
      const ancestor = path.slice(0, length).join(".");
      if (inputs.get(ancestor) === "json") {
        add(ancestor, `${path.slice(length).join(".")}: ${detail.message}`);
        placed = true;
      }
    }
    if (placed) continue;
    if (!Object.hasOwn(schema.properties, path[0]) && schema.additionalProperties !== false) {
      add(OTHER_VARIABLES, `${exact}: ${detail.message}`);
      continue;
    }
    summary.push(detail);
  }
  return { byPath, summary };
}

/** An element id for the input at `path`: `var-items-1-qty`. */
export function inputId(path: Path): string {
  return `var-${path.map((key) => String(key).replace(/[^A-Za-z0-9_-]/g, "_")).join("-")}`;
}
