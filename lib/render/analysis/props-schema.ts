/**
 * A user template's variables schema, read from the props type of its default export as written in the file:
 * TypeScript's syntax tree only (./template-syntax.ts), no type checker, so only the interfaces and type
 * aliases declared in the file are followed. Whatever cannot be read that way (imported types, generics, functions,
 * React's types) becomes `{}`, which accepts any value: a schema may be looser than the type, never stricter.
 * Runs on the compile workers (sandbox/compile.ts), under their deadline.
 */
import ts from "typescript";
import {
  JSON_SCHEMA_DIALECT,
  type JsonSchemaType,
  type JsonValue,
  type VariableSchema,
  type VariablesSchema,
} from "../../templates/variables-schema";

/** Nesting followed (references, members, elements, union members) before the rest is taken to accept anything. */
const MAX_DEPTH = 64;
/**
 * Type nodes and members read per template. A type referenced many times is read each time, so types referencing
 * each other twice per level would grow the schema exponentially: past this, the rest accepts anything.
 */
const MAX_TYPE_NODES = 5_000;
/**
 * Characters of property names, descriptions and string literals the schema may hold, for the same reason: a long
 * comment or literal is copied into the schema once per reference to its type.
 */
const MAX_SCHEMA_TEXT = 100_000;
/** anyOf branches a union may list: requests are checked against them on the event loop, so wider unions say less. */
const MAX_UNION_BRANCHES = 50;
/** Values an enum may list, for the same reason: a longer literal union is checked by its type alone. */
const MAX_ENUM_VALUES = 100;
/** Members an object schema may declare, for the same reason: the rest pass as undeclared. */
const MAX_MEMBERS = 200;
/** Characters of JSON a destructuring default may have to be recorded: each request missing it gets a copy. */
const MAX_DEFAULT_CHARS = 2_000;
/** Characters of a member's description: a description helps a reader, a long one only weighs on the schema. */
const MAX_DESCRIPTION_CHARS = 500;

/** The props type annotations of function components: `React.FC<P>`, `FC<P>`, ... */
const COMPONENT_TYPES = new Set(["FC", "FunctionComponent", "VFC", "VoidFunctionComponent", "ComponentType"]);

type Declaration = ts.InterfaceDeclaration | ts.TypeAliasDeclaration;

type Component = { parameter: ts.ParameterDeclaration | undefined; annotatedProps: ts.TypeNode | undefined };

type ScalarType = "string" | "number" | "boolean";

/**
 * The JSON Schema of the default export's props, or null when they are not typed (no annotation on the first
 * parameter, no `FC<P>`-like annotation on the component, or one that cannot be read here), so that the caller falls
 * back to PreviewProps.
 */
export function deriveVariablesSchema(file: ts.SourceFile): VariablesSchema | null {
  const component = findDefaultComponent(file);
  const propsType = component?.parameter?.type ?? component?.annotatedProps;
  if (!component || !propsType) return null;
  const reader = new TypeReader(file);
  const read = reader.schemaOf(propsType, 0);
  // `any`, `unknown` or a type from elsewhere says nothing: PreviewProps say more.
  if (Object.keys(read).length === 0) return null;
  const schema = topLevel(read);
  const pattern = component.parameter?.name;
  if (pattern && ts.isObjectBindingPattern(pattern)) {
    applyBindingDefaults(schema, pattern, (text) => reader.takeText(text), 0);
  }
  return schema;
}

function findDefaultComponent(file: ts.SourceFile): Component | null {
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) {
      return { parameter: statement.parameters[0], annotatedProps: undefined };
    }
    if (ts.isExportAssignment(statement) && !statement.isExportEquals) {
      const expression = unwrapExpression(statement.expression);
      if (ts.isIdentifier(expression)) return findLocalComponent(file, expression.text);
      return ts.isArrowFunction(expression) || ts.isFunctionExpression(expression)
        ? { parameter: expression.parameters[0], annotatedProps: undefined }
        : null;
    }
    if (
      ts.isExportDeclaration(statement) &&
      !statement.isTypeOnly &&
      !statement.moduleSpecifier &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      const element = statement.exportClause.elements.find((e) => !e.isTypeOnly && e.name.text === "default");
      if (element) return findLocalComponent(file, (element.propertyName ?? element.name).text);
    }
  }
  return null;
}

/** The top-level function or variable `name`: `function Email(…)`, `const Email: FC<P> = (…) => …`. */
function findLocalComponent(file: ts.SourceFile, name: string): Component | null {
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) {
      return { parameter: statement.parameters[0], annotatedProps: undefined };
    }
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || declaration.name.text !== name) continue;
      const initializer = declaration.initializer && unwrapExpression(declaration.initializer);
      const fn =
        initializer && (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer))
          ? initializer
          : undefined;
      return { parameter: fn?.parameters[0], annotatedProps: componentPropsType(declaration.type) };
    }
  }
  return null;
}

/** P of `React.FC<P>` and the like. */
function componentPropsType(type: ts.TypeNode | undefined): ts.TypeNode | undefined {
  if (!type || !ts.isTypeReferenceNode(type) || !type.typeArguments?.length) return undefined;
  const name = ts.isIdentifier(type.typeName) ? type.typeName : type.typeName.right;
  return COMPONENT_TYPES.has(name.text) ? type.typeArguments[0] : undefined;
}

function unwrapExpression(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current)) {
    current = current.expression;
  }
  return current;
}

function hasModifier(node: ts.HasModifiers, kind: ts.SyntaxKind): boolean {
  return ts.getModifiers(node)?.some((modifier) => modifier.kind === kind) ?? false;
}

/** Reads type nodes into schemas, following the file's interfaces and type aliases. */
class TypeReader {
  private readonly declarations = new Map<string, Declaration[]>();
  /** Declarations being read, for the recursion guard: a type met again inside itself accepts anything there. */
  private readonly reading = new Set<string>();
  private readonly descriptions = new Map<ts.Node, string | undefined>();
  private budget = MAX_TYPE_NODES;
  private textBudget = MAX_SCHEMA_TEXT;

  constructor(private readonly file: ts.SourceFile) {
    for (const statement of file.statements) {
      if (!ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement)) continue;
      const same = this.declarations.get(statement.name.text);
      if (same) same.push(statement);
      else this.declarations.set(statement.name.text, [statement]);
    }
  }

  /** False once a budget is spent (then nothing more is read) or past the depth cap. */
  private enter(depth: number): boolean {
    if (depth > MAX_DEPTH || this.budget <= 0 || this.textBudget <= 0) return false;
    this.budget--;
    return true;
  }

  /** Whether `text` fits in what is left of the text budget; when it does not, the budget is spent. */
  takeText(text: string): boolean {
    if (text.length > this.textBudget) {
      this.textBudget = 0;
      return false;
    }
    this.textBudget -= text.length;
    return true;
  }

  schemaOf(node: ts.TypeNode, depth: number): VariableSchema {
    if (!this.enter(depth)) return {};
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { type: "string" };
      case ts.SyntaxKind.NumberKeyword:
        return { type: "number" };
      case ts.SyntaxKind.BooleanKeyword:
        return { type: "boolean" };
      case ts.SyntaxKind.TemplateLiteralType:
        return { type: "string" };
    }
    if (ts.isParenthesizedTypeNode(node)) return this.schemaOf(node.type, depth + 1);
    if (ts.isTypeOperatorNode(node)) {
      return node.operator === ts.SyntaxKind.ReadonlyKeyword ? this.schemaOf(node.type, depth + 1) : {};
    }
    if (ts.isLiteralTypeNode(node)) {
      const schema = literalTypeSchema(node.literal);
      const [value] = schema.enum ?? [];
      return typeof value === "string" && !this.takeText(value) ? {} : schema;
    }
    if (ts.isArrayTypeNode(node)) return { type: "array", items: this.schemaOf(node.elementType, depth + 1) };
    if (ts.isTupleTypeNode(node)) return { type: "array" };
    if (ts.isUnionTypeNode(node)) return this.unionSchema(node.types, depth);
    if (ts.isIntersectionTypeNode(node)) {
      return intersectionSchema(node.types.map((type) => this.schemaOf(type, depth + 1)));
    }
    if (ts.isTypeLiteralNode(node)) return objectSchema(this.readMembers(node.members, depth));
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      return this.namedSchema(node.typeName.text, node.typeArguments ?? [], depth);
    }
    // any, unknown, object, functions, React.ReactNode and other qualified names, typeof, keyof, mapped types, …
    return {};
  }

  private unionSchema(types: readonly ts.TypeNode[], depth: number): VariableSchema {
    const scalars: VariableSchema[] = [];
    const others: VariableSchema[] = [];
    let nullable = false;
    for (const type of types) {
      // `| undefined` makes no difference to JSON values; whether the member must be given is its `?`.
      if (type.kind === ts.SyntaxKind.UndefinedKeyword) continue;
      const schema = this.schemaOf(type, depth + 1);
      if (isEmpty(schema)) return {};
      if (schema.type === "null" && schema.enum === undefined) nullable = true;
      else if (scalarType(schema)) scalars.push(schema);
      else others.push(schema);
    }
    const branches = [...mergeScalars(scalars), ...others];
    if (branches.length === 0) return nullable ? { type: "null" } : {};
    if (branches.length === 1) return nullable ? withNull(branches[0]) : branches[0];
    const anyOf: VariableSchema[] = nullable ? [...branches, { type: "null" }] : branches;
    return anyOf.length > MAX_UNION_BRANCHES ? typesOf(anyOf) : { anyOf };
  }

  /** A reference by name: a declaration of the file (shadowing the global ones), else a TypeScript utility type. */
  private namedSchema(name: string, typeArguments: readonly ts.TypeNode[], depth: number): VariableSchema {
    const declarations = this.declarations.get(name);
    // A generic declaration's type parameters could be anything.
    if (declarations) return typeArguments.length > 0 ? {} : this.declarationSchema(name, declarations, depth);
    const [first, second] = typeArguments;
    if (!first) return {};
    switch (name) {
      case "Array":
      case "ReadonlyArray":
        return { type: "array", items: this.schemaOf(first, depth + 1) };
      case "Readonly":
        return this.schemaOf(first, depth + 1);
      case "Partial":
        return withRequired(this.schemaOf(first, depth + 1), () => []);
      case "Required":
        return withRequired(this.schemaOf(first, depth + 1), (schema) => Object.keys(schema.properties ?? {}));
      case "Record":
        return second ? { type: "object", additionalProperties: valueSchema(this.schemaOf(second, depth + 1)) } : {};
      case "Pick":
      case "Omit": {
        const keys = second && stringEnum(this.schemaOf(second, depth + 1));
        if (!keys) return {};
        const keep = name === "Pick" ? (key: string) => keys.has(key) : (key: string) => !keys.has(key);
        return pickProperties(this.schemaOf(first, depth + 1), keep);
      }
    }
    // Date (JSON has no dates), Map, Promise, imported and unknown types.
    return {};
  }

  private declarationSchema(name: string, declarations: Declaration[], depth: number): VariableSchema {
    if (this.reading.has(name) || declarations.some((declaration) => declaration.typeParameters)) return {};
    this.reading.add(name);
    try {
      const alias = declarations.find(ts.isTypeAliasDeclaration);
      if (alias) return this.schemaOf(alias.type, depth + 1);
      const object: ObjectParts = { properties: new Map(), required: new Set(), additionalProperties: true };
      // Inherited members first, in the order of the `extends` clauses; the interface's own members override them.
      for (const declaration of declarations as ts.InterfaceDeclaration[]) {
        for (const clause of declaration.heritageClauses ?? []) {
          for (const base of clause.types) {
            if (!ts.isIdentifier(base.expression) || !this.enter(depth + 1)) continue;
            const schema = this.namedSchema(base.expression.text, base.typeArguments ?? [], depth + 1);
            if (schema.type !== "object") continue;
            for (const [key, value] of Object.entries(schema.properties ?? {})) object.properties.set(key, value);
            for (const key of schema.required ?? []) object.required.add(key);
          }
        }
      }
      for (const declaration of declarations as ts.InterfaceDeclaration[]) {
        const own = this.readMembers(declaration.members, depth);
        for (const [key, value] of own.properties) object.properties.set(key, value);
        for (const key of own.required) object.required.add(key);
        if (own.additionalProperties !== true) object.additionalProperties = own.additionalProperties;
      }
      return objectSchema(object);
    } finally {
      this.reading.delete(name);
    }
  }

  private readMembers(members: ts.NodeArray<ts.TypeElement>, depth: number): ObjectParts {
    const object: ObjectParts = { properties: new Map(), required: new Set(), additionalProperties: true };
    for (const member of members) {
      if (!this.enter(depth + 1)) break;
      if (ts.isIndexSignatureDeclaration(member)) {
        if (member.parameters[0]?.type?.kind === ts.SyntaxKind.StringKeyword) {
          object.additionalProperties = valueSchema(this.schemaOf(member.type, depth + 2));
        }
        continue;
      }
      // Call and construct signatures, accessors: nothing a JSON value has.
      if (!ts.isPropertySignature(member) && !ts.isMethodSignature(member)) continue;
      const key = propertyKey(member.name);
      if (key === undefined) continue;
      if (object.properties.size >= MAX_MEMBERS && !object.properties.has(key)) break;
      if (!this.takeText(key)) break;
      const schema = ts.isPropertySignature(member) && member.type ? this.schemaOf(member.type, depth + 2) : {};
      const description = this.description(member);
      object.properties.set(key, description && this.takeText(description) ? { description, ...schema } : schema);
      if (member.questionToken) object.required.delete(key);
      else object.required.add(key);
    }
    return object;
  }

  /**
   * The text of the member's JSDoc comment (the last one before it), without its tags. As in TypeScript, a comment
   * on the line of the token before it (after `a: string;`) belongs to that line, not to the next member.
   */
  private description(member: ts.Node): string | undefined {
    // A member is read each time its type is referenced; its comment is scanned once.
    if (this.descriptions.has(member)) return this.descriptions.get(member);
    const text = this.file.text;
    const comment = (ts.getLeadingCommentRanges(text, member.pos) ?? [])
      .filter((range) => range.end - range.pos > 4 && text.startsWith("/**", range.pos))
      .at(-1);
    let description: string | undefined;
    if (comment) {
      const lines: string[] = [];
      for (const rawLine of text.slice(comment.pos + 3, comment.end - 2).split("\n")) {
        let line = rawLine.trim();
        if (line.startsWith("*")) line = line.slice(1).trim();
        if (line.startsWith("@")) break;
        lines.push(line);
      }
      description = truncated(lines.join("\n").trim()) || undefined;
    }
    this.descriptions.set(member, description);
    return description;
  }
}

/** `text`, cut to MAX_DESCRIPTION_CHARS with "…", never between the two halves of a surrogate pair. */
function truncated(text: string): string {
  if (text.length <= MAX_DESCRIPTION_CHARS) return text;
  let end = MAX_DESCRIPTION_CHARS - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

type ObjectParts = {
  properties: Map<string, VariableSchema>;
  required: Set<string>;
  additionalProperties: boolean | VariableSchema;
};

/**
 * `properties` and `required` only when not empty; a type without members (`{}`) accepts anything, as in TS. The first
 * MAX_MEMBERS members are declared; an object declaring that many may have had more (here or where its members were
 * read), which pass as undeclared whatever its index signature says.
 */
function objectSchema({ properties, required, additionalProperties }: ObjectParts): VariableSchema {
  if (properties.size === 0 && additionalProperties === true) return {};
  const declared = new Map([...properties].slice(0, MAX_MEMBERS));
  const declaredRequired = [...required].filter((key) => declared.has(key));
  return {
    type: "object",
    ...(declared.size > 0 ? { properties: Object.fromEntries(declared) } : {}),
    ...(declaredRequired.length > 0 ? { required: declaredRequired } : {}),
    additionalProperties: declared.size >= MAX_MEMBERS ? true : additionalProperties,
  };
}

function objectParts(schema: VariableSchema): ObjectParts {
  return {
    properties: new Map(Object.entries(schema.properties ?? {})),
    required: new Set(schema.required),
    additionalProperties: schema.additionalProperties ?? true,
  };
}

/** An object type's schema with another `required` (Partial, Required); anything else unchanged. */
function withRequired(schema: VariableSchema, required: (schema: VariableSchema) => string[]): VariableSchema {
  if (schema.type !== "object") return schema;
  return objectSchema({ ...objectParts(schema), required: new Set(required(schema)) });
}

function pickProperties(schema: VariableSchema, keep: (key: string) => boolean): VariableSchema {
  if (schema.type !== "object") return {};
  const parts = objectParts(schema);
  return objectSchema({
    properties: new Map([...parts.properties].filter(([key]) => keep(key))),
    required: new Set([...parts.required].filter(keep)),
    additionalProperties: parts.additionalProperties,
  });
}

/** `A & B` of object types: their properties together (the first one's schema for a key in both). */
function intersectionSchema(parts: VariableSchema[]): VariableSchema {
  // `string & { brand: … }`: every value of the intersection is a string.
  const notObject = parts.find((part) => !isEmpty(part) && part.type !== "object");
  if (notObject) return notObject;
  const object: ObjectParts = { properties: new Map(), required: new Set(), additionalProperties: true };
  for (const part of parts) {
    for (const [key, value] of Object.entries(part.properties ?? {})) {
      if (!object.properties.has(key)) object.properties.set(key, value);
    }
    for (const key of part.required ?? []) object.required.add(key);
  }
  return objectSchema(object);
}

/** An index signature's or Record's value schema as `additionalProperties`. */
function valueSchema(schema: VariableSchema): true | VariableSchema {
  return isEmpty(schema) ? true : schema;
}

function isEmpty(schema: VariableSchema): boolean {
  return Object.keys(schema).length === 0;
}

function literalTypeSchema(literal: ts.LiteralTypeNode["literal"]): VariableSchema {
  if (literal.kind === ts.SyntaxKind.NullKeyword) return { type: "null" };
  const value = jsonLiteral(literal, 0);
  switch (typeof value) {
    case "string":
      return { type: "string", enum: [value] };
    case "number":
      return { type: "number", enum: [value] };
    case "boolean":
      return { type: "boolean", enum: [value] };
  }
  return {};
}

/** "string", "number" or "boolean" for `{ type }` and `{ type, enum }` of one of them, else undefined. */
function scalarType(schema: VariableSchema): ScalarType | undefined {
  const { type, enum: values, ...rest } = schema;
  if (!isEmpty(rest) || (values !== undefined && values.length === 0)) return undefined;
  return type === "string" || type === "number" || type === "boolean" ? type : undefined;
}

/**
 * Scalar union members as at most two schemas: the types written as keywords, and the literals of the other types.
 * `"a" | "b"` → `{ type: "string", enum: ["a", "b"] }`, `string | number` → `{ type: ["string", "number"] }`, a literal
 * within its own type (`"a" | string`) → that type, `string | 1 | 2` → `{ type: "string" }` and
 * `{ type: "number", enum: [1, 2] }`, for an anyOf.
 */
function mergeScalars(scalars: VariableSchema[]): VariableSchema[] {
  if (scalars.length <= 1) return scalars;
  const types = [...new Set(scalars.map((schema) => scalarType(schema)!))];
  const keywordTypes = new Set(scalars.filter((schema) => !schema.enum).map((schema) => scalarType(schema)!));
  const values = new Set(scalars.flatMap((schema) => (keywordTypes.has(scalarType(schema)!) ? [] : schema.enum!)));
  // More literals than an enum may list are checked by their types alone, as if written as keywords.
  const literalTypes = values.size > MAX_ENUM_VALUES ? [] : types.filter((type) => !keywordTypes.has(type));
  const plainTypes = types.filter((type) => !literalTypes.includes(type));
  const merged: VariableSchema[] = [];
  if (plainTypes.length > 0) merged.push({ type: oneOrMany(plainTypes) });
  if (literalTypes.length > 0) merged.push({ type: oneOrMany(literalTypes), enum: [...values] });
  return merged;
}

function oneOrMany<T>(types: T[]): T | T[] {
  return types.length === 1 ? types[0] : types;
}

/** A union too wide to list as anyOf: its branches' types together, or anything when a branch has no type. */
function typesOf(branches: VariableSchema[]): VariableSchema {
  const types = new Set<JsonSchemaType>();
  for (const branch of branches) {
    if (branch.type === undefined) return {};
    for (const type of Array.isArray(branch.type) ? branch.type : [branch.type]) types.add(type);
  }
  const type = oneOrMany([...types]);
  // As every object schema here: the members it does not declare pass.
  return types.has("object") ? { type, additionalProperties: true } : { type };
}

/** `T | null`. */
function withNull(schema: VariableSchema): VariableSchema {
  if (schema.type === undefined) return { anyOf: [schema, { type: "null" }] };
  const { enum: values, ...rest } = schema;
  return {
    ...rest,
    type: [...(Array.isArray(schema.type) ? schema.type : [schema.type]), "null"],
    // null is one more value, which a full enum has no room for.
    ...(values && values.length < MAX_ENUM_VALUES ? { enum: [...values, null] } : {}),
  };
}

/** The string literals of a key type (`"a" | "b"` for Pick and Omit), or undefined when not all are. */
function stringEnum(schema: VariableSchema): Set<string> | undefined {
  if (schema.type !== "string" || !schema.enum) return undefined;
  return new Set(schema.enum.map(String));
}

/**
 * The whole `variables` object. Props that are a union of object types get the properties of every branch (required
 * when required in all of them), so no valid combination is refused; anything else that is not an object type
 * declares nothing.
 */
function topLevel(schema: VariableSchema): VariablesSchema {
  const branches = (schema.anyOf ?? [schema]).filter((branch) => branch.type === "object");
  const open: VariablesSchema = {
    $schema: JSON_SCHEMA_DIALECT,
    type: "object",
    properties: {},
    additionalProperties: true,
  };
  if (branches.length === 0) return open;
  if (branches.length === 1) {
    const [object] = branches;
    return {
      ...open,
      properties: object.properties ?? {},
      ...(object.required ? { required: object.required } : {}),
      additionalProperties: object.additionalProperties ?? true,
    };
  }
  // Each key's distinct schemas, by their JSON, and how many branches require it.
  const variants = new Map<string, Map<string, VariableSchema>>();
  const requiredBy = new Map<string, number>();
  for (const branch of branches) {
    for (const [key, value] of Object.entries(branch.properties ?? {})) {
      const seen = variants.get(key) ?? new Map<string, VariableSchema>();
      variants.set(key, seen.set(JSON.stringify(value), value));
    }
    for (const key of branch.required ?? []) requiredBy.set(key, (requiredBy.get(key) ?? 0) + 1);
  }
  // As in any object schema, the first MAX_MEMBERS keys are declared and the rest pass.
  const properties = [...variants].slice(0, MAX_MEMBERS).map(([key, seen]): [string, VariableSchema] => {
    const schemas = [...seen.values()];
    return [key, schemas.length === 1 ? schemas[0] : { anyOf: schemas }];
  });
  const required = properties.map(([key]) => key).filter((key) => requiredBy.get(key) === branches.length);
  return {
    ...open,
    properties: Object.fromEntries(properties),
    ...(required.length > 0 ? { required } : {}),
  };
}

/**
 * Defaults in the parameter's destructuring (`{ name = "there" }`, `{ name: alias = "there" }`, nested patterns):
 * the member becomes optional, with its `default` when the default is written as a JSON value of at most
 * MAX_DEFAULT_CHARS that fits in the text budget (`takeText`).
 */
function applyBindingDefaults(
  schema: VariableSchema,
  pattern: ts.ObjectBindingPattern,
  takeText: (text: string) => boolean,
  depth: number,
): void {
  if (depth > MAX_DEPTH || schema.type !== "object" || !schema.properties) return;
  for (const element of pattern.elements) {
    if (element.dotDotDotToken) continue;
    const key = element.propertyName
      ? propertyKey(element.propertyName)
      : ts.isIdentifier(element.name)
        ? element.name.text
        : undefined;
    if (key === undefined || !Object.hasOwn(schema.properties, key)) continue;
    const property = schema.properties[key];
    if (element.initializer) {
      if (schema.required) {
        schema.required = schema.required.filter((name) => name !== key);
        if (schema.required.length === 0) delete schema.required;
      }
      const value = jsonLiteral(element.initializer, 0);
      const json = value === undefined ? undefined : JSON.stringify(value);
      if (json !== undefined && json.length <= MAX_DEFAULT_CHARS && takeText(json)) property.default = value;
    }
    if (ts.isObjectBindingPattern(element.name)) applyBindingDefaults(property, element.name, takeText, depth + 1);
  }
}

/**
 * The name of a member or a destructured property; undefined for a computed one, and for `__proto__`, which is never a
 * variable (request bodies and PreviewProps leave it out), so the example made from the type can always be sent.
 */
function propertyKey(name: ts.PropertyName): string | undefined {
  const key = ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) ? name.text : undefined;
  return key === "__proto__" ? undefined : key;
}

/** The value of an expression written as JSON (literals, arrays and objects of them), or undefined. */
function jsonLiteral(node: ts.Node, depth: number): JsonValue | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return finite(Number(node.text));
  if (
    ts.isPrefixUnaryExpression(node) &&
    node.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(node.operand)
  ) {
    return finite(-Number(node.operand.text));
  }
  switch (node.kind) {
    case ts.SyntaxKind.TrueKeyword:
      return true;
    case ts.SyntaxKind.FalseKeyword:
      return false;
    case ts.SyntaxKind.NullKeyword:
      return null;
  }
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
    return jsonLiteral(node.expression, depth + 1);
  }
  if (ts.isArrayLiteralExpression(node)) {
    const items: JsonValue[] = [];
    for (const element of node.elements) {
      const value = jsonLiteral(element, depth + 1); // spreads and holes are not JSON
      if (value === undefined) return undefined;
      items.push(value);
    }
    return items;
  }
  if (ts.isObjectLiteralExpression(node)) {
    const entries: [string, JsonValue][] = [];
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property)) return undefined;
      const key = propertyKey(property.name);
      const value = jsonLiteral(property.initializer, depth + 1);
      if (key === undefined || value === undefined) return undefined;
      entries.push([key, value]);
    }
    return Object.fromEntries(entries);
  }
  return undefined;
}

function finite(value: number): number | undefined {
  return Number.isFinite(value) ? value : undefined;
}

/** A variable a template passes through to a shared component: its schema there, and whether it must be given. */
export type PassedThroughVariable = { schema: VariableSchema; required: boolean };

/**
 * The variables a template passes through to the shared components it imports: `<Footer address={props.address} />`,
 * or `address={address}` with `address` destructured from the default export's props, where Footer's props are typed
 * `{ address: string }`, make `address` a string variable, required when the component requires it and the template
 * gives it no default. `componentFile` is the syntax tree of an `@components/<name>` import's entry (null when there
 * is none). The first component to declare a variable decides its schema.
 */
export function passedThroughVariables(
  file: ts.SourceFile,
  componentFile: (specifier: string) => ts.SourceFile | null,
): Map<string, PassedThroughVariable> {
  const passed = new Map<string, PassedThroughVariable>();
  const parameter = findDefaultComponent(file)?.parameter;
  if (!parameter) return passed;
  // The template's own props: `props.x`, or the names its parameter destructures (a default makes one optional).
  const propsName = ts.isIdentifier(parameter.name) ? parameter.name.text : null;
  const bound = new Map<string, { key: string; hasDefault: boolean }>();
  if (ts.isObjectBindingPattern(parameter.name)) {
    for (const element of parameter.name.elements) {
      if (element.dotDotDotToken || !ts.isIdentifier(element.name)) continue;
      const key = element.propertyName ? propertyKey(element.propertyName) : element.name.text;
      if (key !== undefined) bound.set(element.name.text, { key, hasDefault: element.initializer !== undefined });
    }
  }
  // The local names of what it imports from its components: the default export, or a named one.
  const imported = new Map<string, { specifier: string; exported: string }>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const specifier = statement.moduleSpecifier.text;
    const clause = statement.importClause;
    if (!specifier.startsWith("@components/") || !clause || clause.isTypeOnly) continue;
    if (clause.name) imported.set(clause.name.text, { specifier, exported: "default" });
    if (clause.namedBindings && ts.isNamedImports(clause.namedBindings))
      for (const element of clause.namedBindings.elements)
        if (!element.isTypeOnly)
          imported.set(element.name.text, { specifier, exported: (element.propertyName ?? element.name).text });
  }
  if (imported.size === 0) return passed;
  const propsOf = new Map<string, ObjectParts | null>();
  const componentProps = (target: { specifier: string; exported: string }): ObjectParts | null => {
    const key = `${target.specifier}#${target.exported}`;
    if (propsOf.has(key)) return propsOf.get(key)!;
    const source = componentFile(target.specifier);
    const component =
      source &&
      (target.exported === "default" ? findDefaultComponent(source) : findLocalComponent(source, target.exported));
    const type = component?.parameter?.type ?? component?.annotatedProps;
    const schema = source && type ? new TypeReader(source).schemaOf(type, 0) : null;
    const parts = schema?.type === "object" ? objectParts(schema) : null;
    propsOf.set(key, parts);
    return parts;
  };
  const variableOf = (expression: ts.Expression): { key: string; hasDefault: boolean } | null => {
    const value = unwrapExpression(expression);
    if (ts.isIdentifier(value)) return bound.get(value.text) ?? null;
    if (
      propsName !== null &&
      ts.isPropertyAccessExpression(value) &&
      ts.isIdentifier(value.expression) &&
      value.expression.text === propsName &&
      value.name.text !== "__proto__"
    )
      return { key: value.name.text, hasDefault: false };
    return null;
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) && ts.isIdentifier(node.tagName)) {
      const target = imported.get(node.tagName.text);
      const parts = target && componentProps(target);
      if (parts) {
        for (const attribute of node.attributes.properties) {
          if (!ts.isJsxAttribute(attribute) || !ts.isIdentifier(attribute.name)) continue;
          const initializer = attribute.initializer;
          if (!initializer || !ts.isJsxExpression(initializer) || !initializer.expression) continue;
          const variable = variableOf(initializer.expression);
          const schema = parts.properties.get(attribute.name.text);
          if (!variable || !schema || passed.has(variable.key)) continue;
          passed.set(variable.key, {
            schema,
            required: parts.required.has(attribute.name.text) && !variable.hasDefault,
          });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return passed;
}

/**
 * A template's variables with those it passes through to its components (passedThroughVariables) that it does not
 * declare itself added.
 */
export function withPassedThroughVariables(
  schema: VariablesSchema,
  passed: Record<string, PassedThroughVariable> | undefined,
): VariablesSchema {
  if (!passed) return schema;
  const added = Object.entries(passed).filter(([key]) => !Object.hasOwn(schema.properties ?? {}, key));
  if (added.length === 0) return schema;
  const required = [
    ...(schema.required ?? []),
    ...added.filter(([, { required: isRequired }]) => isRequired).map(([key]) => key),
  ];
  return {
    ...schema,
    properties: { ...schema.properties, ...Object.fromEntries(added.map(([key, { schema: value }]) => [key, value])) },
    ...(required.length > 0 ? { required } : {}),
  };
}
