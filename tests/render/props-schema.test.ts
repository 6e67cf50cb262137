/**
 * A user template's variables schema, derived from the props type of its default export
 * (lib/render/analysis/props-schema.ts): TSX in, the exact JSON Schema out.
 */
import { describe, expect, it } from "vitest";
import { deriveVariablesSchema } from "@/lib/render/analysis/props-schema";
import { compileTemplate } from "@/lib/render/sandbox/compile";
import { parseTemplateSource } from "@/lib/render/analysis/template-syntax";
import { JSON_SCHEMA_DIALECT, type VariableSchema, type VariablesSchema } from "@/lib/templates/variables-schema";

/** The whole `variables` schema with these properties. */
function variables(
  properties: Record<string, VariableSchema>,
  required: string[] = [],
  additionalProperties: boolean | VariableSchema = true,
): VariablesSchema {
  return {
    $schema: JSON_SCHEMA_DIALECT,
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties,
  };
}

const derive = (source: string) => deriveVariablesSchema(parseTemplateSource(source));

const PROPS = `interface Props {
  name: string;
  count?: number;
}
`;
const PROPS_SCHEMA = variables({ name: { type: "string" }, count: { type: "number" } }, ["name"]);

type Case = { name: string; source: string; schema: VariablesSchema | null };

describe("the default export's forms", () => {
  const cases: Case[] = [
    {
      name: "export default function Email(props: Props)",
      source: `${PROPS}export default function Email(props: Props) { return <p>{props.name}</p>; }`,
      schema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { name: { type: "string" }, count: { type: "number" } },
        required: ["name"],
        additionalProperties: true,
      },
    },
    {
      name: "export default function Email({ name, count = 1 }: Props)",
      source: `${PROPS}export default function Email({ name, count = 1 }: Props) { return <p>{name}{count}</p>; }`,
      schema: variables({ name: { type: "string" }, count: { type: "number", default: 1 } }, ["name"]),
    },
    {
      name: "an arrow function in a const, exported by name",
      source: `${PROPS}const Email = (props: Props) => <p>{props.name}</p>;\nexport default Email;`,
      schema: PROPS_SCHEMA,
    },
    {
      name: "a function declaration, exported by name",
      source: `${PROPS}function Email(props: Props) { return null; }\nexport default Email;`,
      schema: PROPS_SCHEMA,
    },
    {
      name: "export default (props: Props) => …",
      source: `${PROPS}export default (props: Props) => <p>{props.name}</p>;`,
      schema: PROPS_SCHEMA,
    },
    {
      name: "export default function expression in parentheses",
      source: `${PROPS}export default (function (props: Props) { return null; });`,
      schema: PROPS_SCHEMA,
    },
    {
      name: "export { Email as default }",
      source: `${PROPS}const Email = function (props: Props) { return null; };\nexport { Email as default };`,
      schema: PROPS_SCHEMA,
    },
    {
      name: "const Email: React.FC<Props>",
      source: `import * as React from "react";\n${PROPS}const Email: React.FC<Props> = (props) => <p>{props.name}</p>;\nexport default Email;`,
      schema: PROPS_SCHEMA,
    },
    {
      name: "const Email: FC<Props> with defaults in the destructuring",
      source: `import type { FC } from "react";\n${PROPS}const Email: FC<Props> = ({ name = "there" }) => <p>{name}</p>;\nexport default Email;`,
      schema: variables({ name: { type: "string", default: "there" }, count: { type: "number" } }),
    },
    {
      name: "a default for the whole parameter: ({ … }: Props = {})",
      source: `${PROPS}export default function Email({ name = "there" }: Partial<Props> = {}) { return null; }`,
      schema: variables({ name: { type: "string", default: "there" }, count: { type: "number" } }),
    },
    {
      name: "Readonly<Props>",
      source: `${PROPS}export default function Email(props: Readonly<Props>) { return null; }`,
      schema: PROPS_SCHEMA,
    },
    {
      name: "Partial<Props>: every member optional",
      source: `${PROPS}export default function Email(props: Partial<Props>) { return null; }`,
      schema: variables({ name: { type: "string" }, count: { type: "number" } }),
    },
    {
      name: "Required<Props>: every member required",
      source: `${PROPS}export default function Email(props: Required<Props>) { return null; }`,
      schema: variables({ name: { type: "string" }, count: { type: "number" } }, ["name", "count"]),
    },
    {
      name: "a parenthesized type",
      source: `${PROPS}export default function Email(props: (Readonly<(Props)>)) { return null; }`,
      schema: PROPS_SCHEMA,
    },
  ];
  it.each(cases)("$name", ({ source, schema }) => {
    expect(derive(source)).toEqual(schema);
  });
});

describe("untyped props: null, so the caller falls back to PreviewProps", () => {
  const cases: Case[] = [
    { name: "no annotation", source: `export default function Email(props) { return null; }`, schema: null },
    {
      name: "a destructured parameter without annotation",
      source: `export default function Email({ name = "there" }) { return <p>{name}</p>; }`,
      schema: null,
    },
    { name: "no parameter", source: `export default function Email() { return null; }`, schema: null },
    {
      name: "a const without annotation",
      source: `const Email = (props) => null;\nexport default Email;`,
      schema: null,
    },
    {
      name: "a component made by a call",
      source: `import { memo } from "react";\nexport default memo(function Email(props: { name: string }) { return null; });`,
      schema: null,
    },
    {
      name: "a class component",
      source: `import { Component } from "react";\nexport default class Email extends Component<{ name: string }> { render() { return null; } }`,
      schema: null,
    },
  ];
  it.each(cases)("$name", ({ source, schema }) => {
    expect(derive(source)).toEqual(schema);
  });
});

/** A module whose default export's props are `type`. */
const withProps = (declarations: string, type = "Props") =>
  `${declarations}\nexport default function Email(props: ${type}) { return null; }`;

describe("the props type's forms", () => {
  const cases: Case[] = [
    {
      name: "an inline type literal",
      source: `export default function Email({ name }: { name: string; plan?: string }) { return <p>{name}</p>; }`,
      schema: variables({ name: { type: "string" }, plan: { type: "string" } }, ["name"]),
    },
    {
      name: "an interface extending the file's interfaces, the derived one's members overriding",
      source: withProps(`
        interface Named { name: string; kind: string }
        interface Dated { date?: string }
        interface Base extends Named { id: number }
        interface Props extends Base, Dated { kind: "welcome" | "reset"; extra: boolean }`),
      schema: variables(
        {
          name: { type: "string" },
          kind: { type: "string", enum: ["welcome", "reset"] },
          id: { type: "number" },
          date: { type: "string" },
          extra: { type: "boolean" },
        },
        ["name", "kind", "id", "extra"],
      ),
    },
    {
      name: "an interface declared twice (merged) and one extending an unreadable type",
      source: withProps(`
        import type { CSSProperties } from "react";
        interface Props extends CSSProperties { name: string }
        interface Props { count: number }`),
      schema: variables({ name: { type: "string" }, count: { type: "number" } }, ["name", "count"]),
    },
    {
      name: "a type alias of a type literal",
      source: withProps(`type Props = { name: string; count?: number };`),
      schema: PROPS_SCHEMA,
    },
    {
      name: "an intersection of the file's object types",
      source: withProps(`
        type Named = { name: string };
        interface Counted { count?: number }
        type Props = Named & Counted & { url: string };`),
      schema: variables({ name: { type: "string" }, count: { type: "number" }, url: { type: "string" } }, [
        "name",
        "url",
      ]),
    },
    {
      name: "an intersection with an unreadable type keeps what it can read",
      source: withProps(`
        import type { ComponentProps } from "react";
        type Props = ComponentProps<"div"> & { name: string };`),
      schema: variables({ name: { type: "string" } }, ["name"]),
    },
    {
      name: "references to the file's types at any depth, declared in any order",
      source: withProps(`
        type Props = { order: Order };
        interface Order { customer: Customer; lines: Line[] }
        type Customer = { name: string; address: Address };
        interface Address { city: string; zip?: string }
        type Line = { sku: string; qty: number };`),
      schema: variables(
        {
          order: {
            type: "object",
            properties: {
              customer: {
                type: "object",
                properties: {
                  name: { type: "string" },
                  address: {
                    type: "object",
                    properties: { city: { type: "string" }, zip: { type: "string" } },
                    required: ["city"],
                    additionalProperties: true,
                  },
                },
                required: ["name", "address"],
                additionalProperties: true,
              },
              lines: {
                type: "array",
                items: {
                  type: "object",
                  properties: { sku: { type: "string" }, qty: { type: "number" } },
                  required: ["sku", "qty"],
                  additionalProperties: true,
                },
              },
            },
            required: ["customer", "lines"],
            additionalProperties: true,
          },
        },
        ["order"],
      ),
    },
    {
      name: "a recursive type accepts anything where it repeats",
      source: withProps(`
        interface Category { name: string; children: Category[]; parent?: Category }
        type Props = { root: Category };`),
      schema: variables(
        {
          root: {
            type: "object",
            properties: { name: { type: "string" }, children: { type: "array", items: {} }, parent: {} },
            required: ["name", "children"],
            additionalProperties: true,
          },
        },
        ["root"],
      ),
    },
    {
      name: "aliases of each other, and an interface extending itself through another",
      source: withProps(`
        type A = B;
        type B = A;
        interface C extends D { c: string }
        interface D extends C { d: string }
        type Props = { a: A; c: C };`),
      schema: variables(
        {
          a: {},
          c: {
            type: "object",
            properties: { d: { type: "string" }, c: { type: "string" } },
            required: ["d", "c"],
            additionalProperties: true,
          },
        },
        ["a", "c"],
      ),
    },
    {
      name: "a generic type of the file accepts anything",
      source: withProps(`
        interface Box<T> { value: T }
        type Props = { box: Box<string>; plain: Box };`),
      schema: variables({ box: {}, plain: {} }, ["box", "plain"]),
    },
    {
      name: "Pick and Omit of the file's types",
      source: withProps(`
        interface User { name: string; email: string; password: string }
        type Props = { shown: Pick<User, "name" | "email">; safe: Omit<User, "password"> };`),
      schema: variables(
        {
          shown: {
            type: "object",
            properties: { name: { type: "string" }, email: { type: "string" } },
            required: ["name", "email"],
            additionalProperties: true,
          },
          safe: {
            type: "object",
            properties: { name: { type: "string" }, email: { type: "string" } },
            required: ["name", "email"],
            additionalProperties: true,
          },
        },
        ["shown", "safe"],
      ),
    },
    {
      name: "a union of object types as the props: every branch's properties, required when in all",
      source: withProps(`
        type Props =
          | { kind: "order"; id: string; total: number }
          | { kind: "refund"; id: string; reason?: string };`),
      schema: variables(
        {
          kind: {
            anyOf: [
              { type: "string", enum: ["order"] },
              { type: "string", enum: ["refund"] },
            ],
          },
          id: { type: "string" },
          total: { type: "number" },
          reason: { type: "string" },
        },
        ["kind", "id"],
      ),
    },
  ];
  it.each(cases)("$name", ({ source, schema }) => {
    expect(derive(source)).toEqual(schema);
  });

  it.each([
    ["a type from elsewhere", `import type { ComponentProps } from "react";`, `ComponentProps<"div">`],
    ["any", ``, "any"],
    ["unknown", ``, "unknown"],
  ])("reads props typed as %s as untyped, so PreviewProps describe them", (_, imports, type) => {
    expect(derive(withProps(imports, type))).toBeNull();
  });

  it("stops following nested types at the depth cap", () => {
    const levels = 200;
    const chain = Array.from({ length: levels }, (_, i) => `type T${i} = { next: T${i + 1} };`).join("\n");
    const schema = derive(withProps(`${chain}\ntype T${levels} = { end: string };\ntype Props = T0;`));
    // Each level of the chain is three steps of the walk (a reference, its type literal, the member), so the cap of
    // 64 steps is reached 20 objects below the top.
    let expected: VariableSchema = {};
    for (let i = 0; i < 20; i++) {
      expected = { type: "object", properties: { next: expected }, required: ["next"], additionalProperties: true };
    }
    expect(schema).toEqual(variables({ next: expected }, ["next"]));
  });

  it("reads a type referenced twice per level for 30 levels in bounded time and size", () => {
    const levels = 30;
    const tree = Array.from({ length: levels }, (_, i) => `type L${i} = { left: L${i + 1}; right: L${i + 1} };`);
    const source = withProps(`${tree.join("\n")}\ntype L${levels} = { leaf: string };\ntype Props = L0;`);
    const started = performance.now();
    const schema = derive(source);
    expect(performance.now() - started).toBeLessThan(1000);
    // Fully expanded it would have 2^30 leaves. Reading stops when the budget is spent, within the left half: the
    // right member is left undeclared, so whatever it is passes.
    expect(JSON.stringify(schema).length).toBeLessThan(1_000_000);
    expect(schema).toMatchObject({ required: ["left"], additionalProperties: true });
    expect(Object.keys(schema!.properties)).toEqual(["left"]);
  });
  it("bounds the text a long comment or literal puts into the schema, however often its type is referenced", () => {
    const long = "x".repeat(60_000);
    const references = Array.from({ length: 1000 }, (_, i) => `r${i}: Doc;`).join(" ");
    const source = withProps(`
      interface Doc {
        /** ${long} */
        a: "${long}";
      }
      type Props = { ${references} };`);
    const schema = derive(source);
    // 1000 copies would be 120 MB. The first reference's literal and its description (cut to 500 characters) fit;
    // the second's literal does not and spends the budget, so its member accepts anything and the rest are not read.
    expect(JSON.stringify(schema).length).toBeLessThan(1_000_000);
    expect(schema).toEqual(
      variables(
        {
          r0: {
            type: "object",
            properties: { a: { description: `${"x".repeat(499)}…`, type: "string", enum: [long] } },
            required: ["a"],
            additionalProperties: true,
          },
          r1: { type: "object", properties: { a: {} }, required: ["a"], additionalProperties: true },
        },
        ["r0", "r1"],
      ),
    );
  });
});

/** `write(0)` to `write(count - 1)`, joined by `separator`. */
const many = (count: number, write: (i: number) => string, separator: string) =>
  Array.from({ length: count }, (_, i) => write(i)).join(separator);

/** The schema of the member `value: <type>`. */
const member = (type: string, optional = false) =>
  derive(withProps(`type Props = { value${optional ? "?" : ""}: ${type} };`));

describe("member types", () => {
  const cases: [string, VariableSchema][] = [
    ["string", { type: "string" }],
    ["number", { type: "number" }],
    ["boolean", { type: "boolean" }],
    ["string | null", { type: ["string", "null"] }],
    ["null | string | undefined", { type: ["string", "null"] }],
    ["string | undefined", { type: "string" }],
    ["string | number", { type: ["string", "number"] }],
    ['"a" | "b"', { type: "string", enum: ["a", "b"] }],
    ["1 | 2 | -3", { type: "number", enum: [1, 2, -3] }],
    ['"a" | 1 | true', { type: ["string", "number", "boolean"], enum: ["a", 1, true] }],
    ['"a" | "b" | null', { type: ["string", "null"], enum: ["a", "b", null] }],
    ['"only"', { type: "string", enum: ["only"] }],
    ["true", { type: "boolean", enum: [true] }],
    ['"a" | string', { type: "string" }],
    ["string | 1", { anyOf: [{ type: "string" }, { type: "number", enum: [1] }] }],
    ["string | 1 | 2 | 3", { anyOf: [{ type: "string" }, { type: "number", enum: [1, 2, 3] }] }],
    ['number | "a" | "b"', { anyOf: [{ type: "number" }, { type: "string", enum: ["a", "b"] }] }],
    [
      "string | 1 | true | null",
      { anyOf: [{ type: "string" }, { type: ["number", "boolean"], enum: [1, true] }, { type: "null" }] },
    ],
    [
      '{ id: string } | "a" | 1',
      {
        anyOf: [
          { type: ["string", "number"], enum: ["a", 1] },
          { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: true },
        ],
      },
    ],
    ["`order-${string}`", { type: "string" }],
    ["string[]", { type: "array", items: { type: "string" } }],
    ["Array<number>", { type: "array", items: { type: "number" } }],
    ["ReadonlyArray<boolean>", { type: "array", items: { type: "boolean" } }],
    ["readonly string[]", { type: "array", items: { type: "string" } }],
    ["(string | null)[]", { type: "array", items: { type: ["string", "null"] } }],
    ["string[][]", { type: "array", items: { type: "array", items: { type: "string" } } }],
    ["[string, number]", { type: "array" }],
    [
      "{ a: string; b?: { c: number } }",
      {
        type: "object",
        properties: {
          a: { type: "string" },
          b: { type: "object", properties: { c: { type: "number" } }, required: ["c"], additionalProperties: true },
        },
        required: ["a"],
        additionalProperties: true,
      },
    ],
    ["{ a?: string }", { type: "object", properties: { a: { type: "string" } }, additionalProperties: true }],
    ["{}", {}],
    ["Record<string, number>", { type: "object", additionalProperties: { type: "number" } }],
    ["Record<string, unknown>", { type: "object", additionalProperties: true }],
    ["{ [key: string]: string }", { type: "object", additionalProperties: { type: "string" } }],
    [
      "{ id: string; [key: string]: string }",
      {
        type: "object",
        properties: { id: { type: "string" } },
        required: ["id"],
        additionalProperties: { type: "string" },
      },
    ],
    [
      "{ id: string } | { sku: string }",
      {
        anyOf: [
          { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: true },
          { type: "object", properties: { sku: { type: "string" } }, required: ["sku"], additionalProperties: true },
        ],
      },
    ],
    [
      "{ id: string } | null",
      {
        type: ["object", "null"],
        properties: { id: { type: "string" } },
        required: ["id"],
        additionalProperties: true,
      },
    ],
    ["string[] | number", { anyOf: [{ type: "number" }, { type: "array", items: { type: "string" } }] }],
    ["string & { __brand: 'Email' }", { type: "string" }],
    ["any", {}],
    ["unknown", {}],
    ["object", {}],
    ["Date", {}],
    ["() => void", {}],
    ["React.ReactNode", {}],
    ["ReactNode", {}],
    ["Map<string, string>", {}],
    ["keyof Props", {}],
    ["typeof something", {}],
    ["string | any", {}],
    ["undefined", {}],
    ["null", { type: "null" }],
  ];
  it.each(cases)("%s", (type, schema) => {
    expect(member(type)).toEqual(variables({ value: schema }, ["value"]));
  });

  it("`| undefined` leaves a required member required and an optional one optional", () => {
    expect(derive(withProps(`type Props = { a: string | undefined; b?: string | undefined };`))).toEqual(
      variables({ a: { type: "string" }, b: { type: "string" } }, ["a"]),
    );
  });

  it("a method is a member that accepts anything", () => {
    expect(derive(withProps(`interface Props { format(value: number): string; onSend?: () => void }`))).toEqual(
      variables({ format: {}, onSend: {} }, ["format"]),
    );
  });

  it("takes property names as the type writes them and skips computed ones", () => {
    const source = withProps(`
      const KEY = "computed";
      type Props = { "first-name": string; 'last name'?: string; 42: number; [KEY]: string; ["literal"]: string };`);
    expect(derive(source)).toEqual(
      variables({ "first-name": { type: "string" }, "last name": { type: "string" }, "42": { type: "number" } }, [
        "first-name",
        "42",
      ]),
    );
  });

  it("keeps names that are also Object.prototype's own keys, but not __proto__, which no request can send", () => {
    const source = withProps(`type Props = { constructor: string; __proto__: number; toString?: boolean };`);
    const schema = derive(source);
    expect(Object.keys(schema!.properties)).toEqual(["constructor", "toString"]);
    expect(schema).toEqual(
      variables(
        Object.fromEntries([
          ["constructor", { type: "string" }],
          ["toString", { type: "boolean" }],
        ]),
        ["constructor"],
      ),
    );
  });
});

describe("unions and enums within the bounds the event loop checks against", () => {
  /** `{ k<i>: string }` and its schema. */
  const objectType = (i: number) => `{ k${i}: string }`;
  const objectSchema = (i: number): VariableSchema => ({
    type: "object",
    properties: { [`k${i}`]: { type: "string" } },
    required: [`k${i}`],
    additionalProperties: true,
  });
  const strings = (count: number) => Array.from({ length: count }, (_, i) => `s${i}`);
  const numbers = (count: number) => Array.from({ length: count }, (_, i) => i);

  const cases: [string, string, VariableSchema][] = [
    [
      "a union of 50 branches is listed",
      many(50, objectType, " | "),
      { anyOf: Array.from({ length: 50 }, (_, i) => objectSchema(i)) },
    ],
    [
      "a union of 51 object types is any object",
      many(51, objectType, " | "),
      { type: "object", additionalProperties: true },
    ],
    [
      "a union of 49 object types, string and null is any of those types",
      `string | ${many(49, objectType, " | ")} | null`,
      { type: ["string", "object", "null"], additionalProperties: true },
    ],
    [
      "a union of 51 branches, one of them untyped, is anything",
      `${many(50, objectType, " | ")} | (string[] | number[])`,
      {},
    ],
    ["100 string literals are an enum", many(100, (i) => `"s${i}"`, " | "), { type: "string", enum: strings(100) }],
    ["101 string literals are a string", many(101, (i) => `"s${i}"`, " | "), { type: "string" }],
    [
      "99 string literals and null are an enum",
      `${many(99, (i) => `"s${i}"`, " | ")} | null`,
      { type: ["string", "null"], enum: [...strings(99), null] },
    ],
    [
      "100 string literals and null are a string or null",
      `${many(100, (i) => `"s${i}"`, " | ")} | null`,
      { type: ["string", "null"] },
    ],
    [
      "60 string and 60 number literals are a string or a number",
      `${many(60, (i) => `"s${i}"`, " | ")} | ${many(60, String, " | ")}`,
      { type: ["string", "number"] },
    ],
    [
      "string and 101 number literals are a string or a number",
      `string | ${many(101, String, " | ")}`,
      { type: ["string", "number"] },
    ],
    [
      "101 number literals beside an object type are a number, in an anyOf",
      `${many(101, String, " | ")} | ${objectType(0)}`,
      { anyOf: [{ type: "number" }, objectSchema(0)] },
    ],
    [
      "an alias of 60 literals in a union with 60 more is a string",
      "Sixty | " + many(60, (i) => `"t${i}"`, " | "),
      { type: "string" },
    ],
    ["100 number literals are an enum", many(100, String, " | "), { type: "number", enum: numbers(100) }],
  ];
  it.each(cases)("%s", (_, type, schema) => {
    const aliases = `type Sixty = ${many(60, (i) => `"s${i}"`, " | ")};`;
    expect(derive(withProps(`${aliases}\ntype Props = { value: ${type} };`))).toEqual(
      variables({ value: schema }, ["value"]),
    );
  });
});

describe("objects declare at most 200 members, the rest passing as undeclared", () => {
  /** The members `<prefix><from>: string` up to `<prefix><to - 1>`, their schemas and their names. */
  const members = (prefix: string, from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}: string;`).join(" ");
  const declared = (prefix: string, from: number, to: number): Record<string, VariableSchema> =>
    Object.fromEntries(Array.from({ length: to - from }, (_, i) => [`${prefix}${from + i}`, { type: "string" }]));
  const names = (prefix: string, from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`);

  it("declares the first 200 of a type literal's members, and requires only those", () => {
    expect(derive(withProps(`type Props = { ${members("m", 0, 201)} };`))).toEqual(
      variables(declared("m", 0, 200), names("m", 0, 200)),
    );
  });

  it("declares 200 members, in order, however many the type's declarations and bases have together", () => {
    const source = withProps(`
      interface Base { ${members("b", 0, 150)} }
      interface Props extends Base { ${members("p", 0, 100)} }
      interface Props { ${members("q", 0, 100)} }`);
    expect(derive(source)).toEqual(
      variables({ ...declared("b", 0, 150), ...declared("p", 0, 50) }, [...names("b", 0, 150), ...names("p", 0, 50)]),
    );
  });

  it("lets members past the 200th pass whatever the index signature says", () => {
    const source = withProps(`
      type Big = { [key: string]: string; ${members("m", 0, 250)} };
      interface Extended extends Big { [key: string]: string }
      type Props = { big: Big; extended: Extended };`);
    const big: VariableSchema = {
      type: "object",
      properties: declared("m", 0, 200),
      required: names("m", 0, 200),
      additionalProperties: true,
    };
    expect(derive(source)).toEqual(variables({ big, extended: big }, ["big", "extended"]));
  });

  it("declares the first 200 keys of props that are a union of object types", () => {
    const source = withProps(`type Props =
      | { id: string; ${members("a", 0, 100)} }
      | { id: string; ${members("b", 0, 100)} }
      | { id: string; ${members("c", 0, 100)} };`);
    expect(derive(source)).toEqual(
      variables({ id: { type: "string" }, ...declared("a", 0, 100), ...declared("b", 0, 99) }, ["id"]),
    );
  });
});

describe("defaults in the parameter's destructuring", () => {
  const cases: Case[] = [
    {
      name: "JSON literals become `default` and make the member optional",
      source: `
        type Props = { name: string; count: number; offset: number; on: boolean; note: string | null;
          tags: string[]; meta: { a: number }; plain: string };
        export default function Email({ name = "there", count = 3, offset = -1.5, on = false, note = null,
          tags = ["a", "b"], meta = { a: 1 }, plain }: Props) { return null; }`,
      schema: variables(
        {
          name: { type: "string", default: "there" },
          count: { type: "number", default: 3 },
          offset: { type: "number", default: -1.5 },
          on: { type: "boolean", default: false },
          note: { type: ["string", "null"], default: null },
          tags: { type: "array", items: { type: "string" }, default: ["a", "b"] },
          meta: {
            type: "object",
            properties: { a: { type: "number" } },
            required: ["a"],
            additionalProperties: true,
            default: { a: 1 },
          },
          plain: { type: "string" },
        },
        ["plain"],
      ),
    },
    {
      name: "a default that is not JSON makes the member optional without `default`",
      source: `
        const FALLBACK = "x";
        type Props = { when: string; label: string; list: string[]; total: number };
        export default function Email({ when = new Date().toISOString(), label = FALLBACK, list = [FALLBACK],
          total = 1 + 1 }: Props) { return null; }`,
      schema: variables({
        when: { type: "string" },
        label: { type: "string" },
        list: { type: "array", items: { type: "string" } },
        total: { type: "number" },
      }),
    },
    {
      name: "a renamed member counts for its name; a rest element changes nothing",
      source: `
        interface Props { name: string; "first-name": string; other: number }
        export default function Email({ name: who = "there", "first-name": first = "Ada", ...rest }: Props) {
          return null;
        }`,
      schema: variables(
        {
          name: { type: "string", default: "there" },
          "first-name": { type: "string", default: "Ada" },
          other: { type: "number" },
        },
        ["other"],
      ),
    },
    {
      name: "nested destructuring defaults apply to the nested object",
      source: `
        interface Address { city: string; country: string }
        interface Props { address: Address }
        export default function Email({ address: { city, country = "NZ" } = { city: "Wellington" } }: Props) {
          return null;
        }`,
      schema: variables({
        address: {
          type: "object",
          properties: { city: { type: "string" }, country: { type: "string", default: "NZ" } },
          required: ["city"],
          additionalProperties: true,
          default: { city: "Wellington" },
        },
      }),
    },
    {
      name: "a default for a member the type does not declare is ignored",
      source: `export default function Email({ name, stray = 1 }: { name: string }) { return null; }`,
      schema: variables({ name: { type: "string" } }, ["name"]),
    },
  ];
  it.each(cases)("$name", ({ source, schema }) => {
    expect(derive(source)).toEqual(schema);
  });

  it("records a default of up to 2,000 characters of JSON; a longer one makes the member optional only", () => {
    const fits = "x".repeat(1_998);
    const tooLong = "x".repeat(1_999);
    const source = `
      type Props = { a: string; b: string; c: string[] };
      export default function Email({ a = "${fits}", b = "${tooLong}", c = ["${tooLong}"] }: Props) { return null; }`;
    expect(derive(source)).toEqual(
      variables({
        a: { type: "string", default: fits },
        b: { type: "string" },
        c: { type: "array", items: { type: "string" } },
      }),
    );
  });

  it("counts defaults against the schema's text budget", () => {
    const literal = "x".repeat(99_000);
    const fits = "y".repeat(1_500);
    const source = `
      type Props = { a: "${literal}"; b: string; c: string };
      export default function Email({ c = "ok", b = "${fits}" }: Props) { return null; }`;
    // The literal and the names leave fewer than 1,000 characters: "ok" fits in them, the second default does not.
    expect(derive(source)).toEqual(
      variables(
        { a: { type: "string", enum: [literal] }, b: { type: "string" }, c: { type: "string", default: "ok" } },
        ["a"],
      ),
    );
  });
});

describe("JSDoc comments become descriptions", () => {
  it("on members of the props and of nested types, without tags", () => {
    const source = withProps(`
      interface Line {
        /** Stock keeping unit */
        sku: string;
      }
      interface Props {
        /** The customer's first name */
        name: string;
        /**
         * Items ordered,
         * in the order they were added.
         * @example [{ "sku": "A1" }]
         * @deprecated use orders
         */
        lines: Line[];
        // A line comment is not documentation.
        total: number;
        /* Nor is a block comment. */
        currency: string;
        /** @internal */
        secret?: string;
        /** An earlier comment */
        /** The nearest comment */
        plan: "free" | "pro";
        zone: string; /** On zone's line: not region's description */
        region: string;
      }`);
    expect(derive(source)).toEqual(
      variables(
        {
          name: { description: "The customer's first name", type: "string" },
          lines: {
            description: "Items ordered,\nin the order they were added.",
            type: "array",
            items: {
              type: "object",
              properties: { sku: { description: "Stock keeping unit", type: "string" } },
              required: ["sku"],
              additionalProperties: true,
            },
          },
          total: { type: "number" },
          currency: { type: "string" },
          secret: { type: "string" },
          plan: { description: "The nearest comment", type: "string", enum: ["free", "pro"] },
          zone: { type: "string" },
          region: { type: "string" },
        },
        ["name", "lines", "total", "currency", "plan", "zone", "region"],
      ),
    );
  });

  it("cuts a description to 500 characters, ending with …, and never inside a character", () => {
    const fits = "a".repeat(500);
    const long = "b".repeat(600);
    const emoji = "😀".repeat(300);
    const source = withProps(`
      interface Props {
        /** ${fits} */
        fits: string;
        /** ${long} */
        long: string;
        /** ${emoji} */
        emoji: string;
      }`);
    expect(derive(source)).toEqual(
      variables(
        {
          fits: { description: fits, type: "string" },
          long: { description: `${"b".repeat(499)}…`, type: "string" },
          emoji: { description: `${"😀".repeat(249)}…`, type: "string" },
        },
        ["fits", "long", "emoji"],
      ),
    );
  });
});

describe("compileTemplate", () => {
  it("answers the variables schema with the compiled code", () => {
    const source = `import { Html, Text } from "@react-email/components";
interface Props {
  /** Who the email greets */
  name?: string;
  plan: "free" | "pro";
}
export default function Hello({ name = "there", plan }: Props) {
  return <Html><Text>Hello {name}, on {plan}</Text></Html>;
}
`;
    expect(compileTemplate(source)).toEqual({
      ok: true,
      code: expect.stringContaining("exports.default = Hello"),
      variables: variables(
        {
          name: { description: "Who the email greets", type: "string", default: "there" },
          plan: { type: "string", enum: ["free", "pro"] },
        },
        ["plan"],
      ),
    });
  });

  it("answers null variables when the props are untyped", () => {
    expect(compileTemplate(`export default function Hello(props) { return <p>{props.name}</p>; }`)).toEqual({
      ok: true,
      code: expect.stringContaining("exports.default = Hello"),
      variables: null,
    });
  });
});
