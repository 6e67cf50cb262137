/**
 * The dashboard's variables form, as far as it is logic: the input each schema gets, what an input's text sends,
 * where the API's 400 details are shown, and the "Other variables" JSON beside the declared ones.
 */
import { describe, expect, it } from "vitest";
import { catalogue, catalogueVariablesSchema } from "@/lib/catalogue/catalogue";
import { schemaFromPreviewProps } from "@/lib/render/analysis/variables";
import { JSON_SCHEMA_DIALECT, type VariableSchema, type VariablesSchema } from "@/lib/templates/variables-schema";
import {
  blankItem,
  blankValue,
  describeType,
  fieldShape,
  inputId,
  otherVariablesText,
  OTHER_VARIABLES,
  placeErrors,
  setIn,
  valueFromInput,
  withOtherVariables,
  type FieldShape,
} from "@/lib/dashboard/variables-form";

const schemaOf = (properties: Record<string, VariableSchema>, required: string[] = []): VariablesSchema => ({
  type: "object",
  properties,
  required,
  additionalProperties: true,
});

const ORDER = schemaOf(
  {
    customer: { type: "string", description: "Who ordered" },
    status: { type: "string", enum: ["draft", "sent"] },
    note: { type: ["string", "null"] },
    items: {
      type: "array",
      items: {
        type: "object",
        properties: { name: { type: "string" }, qty: { type: "number" } },
        required: ["name", "qty"],
        additionalProperties: true,
      },
    },
    tags: { type: "array", items: { type: "string" } },
    meta: {},
    address: {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: true,
    },
  },
  ["customer", "items"],
);

describe("the input each schema gets", () => {
  const cases: [string, VariableSchema, FieldShape][] = [
    ["a string", { type: "string" }, { kind: "text", inputType: "text", nullable: false }],
    ["a URL", { type: "string", format: "uri" }, { kind: "text", inputType: "url", nullable: false }],
    ["an email address", { type: "string", format: "email" }, { kind: "text", inputType: "email", nullable: false }],
    ["a string or null", { type: ["string", "null"] }, { kind: "text", inputType: "text", nullable: true }],
    ["a number", { type: "number" }, { kind: "number", integer: false, nullable: false }],
    ["an integer", { type: "integer" }, { kind: "number", integer: true, nullable: false }],
    ["a boolean", { type: "boolean" }, { kind: "boolean" }],
    [
      "a boolean or null: a select, as a checkbox has no third state",
      { type: ["boolean", "null"] },
      { kind: "select", options: [true, false], nullable: true },
    ],
    [
      "string literals",
      { type: "string", enum: ["draft", "sent"] },
      { kind: "select", options: ["draft", "sent"], nullable: false },
    ],
    [
      "string literals or null",
      { enum: ["draft", "sent", null] },
      { kind: "select", options: ["draft", "sent"], nullable: true },
    ],
    ["a constant", { const: "v1" }, { kind: "select", options: ["v1"], nullable: false }],
    [
      'a URL or "" (the catalogue\'s optional links)',
      {
        anyOf: [
          { type: "string", const: "" },
          { type: "string", format: "uri" },
        ],
      },
      { kind: "text", inputType: "url", nullable: false },
    ],
    [
      "a number or null, written as anyOf",
      { anyOf: [{ type: "number" }, { type: "null" }] },
      { kind: "number", integer: false, nullable: true },
    ],
    [
      "a string or a number: JSON",
      { anyOf: [{ type: "string" }, { type: "number" }] },
      { kind: "json", nullable: false },
    ],
    ["anything: JSON", {}, { kind: "json", nullable: false }],
    ["several types: JSON", { type: ["string", "number"] }, { kind: "json", nullable: false }],
    [
      "an object with members: a fieldset",
      ORDER.properties.address,
      { kind: "object", properties: { city: { type: "string" } }, required: ["city"] },
    ],
    ["an object with no members (a map): JSON", { type: "object" }, { kind: "json", nullable: false }],
    [
      "an object or null: JSON",
      { type: ["object", "null"], properties: { a: { type: "string" } } },
      { kind: "json", nullable: true },
    ],
    [
      "an array of objects: a repeatable group",
      ORDER.properties.items,
      {
        kind: "list",
        items: ORDER.properties.items.items!,
        itemShape: {
          kind: "object",
          properties: { name: { type: "string" }, qty: { type: "number" } },
          required: ["name", "qty"],
        },
      },
    ],
    [
      "an array of strings: repeatable inputs",
      { type: "array", items: { type: "string" } },
      { kind: "list", items: { type: "string" }, itemShape: { kind: "text", inputType: "text", nullable: false } },
    ],
    ["an array of anything: JSON", { type: "array" }, { kind: "json", nullable: false }],
    [
      "an array of arrays: JSON",
      { type: "array", items: { type: "array", items: { type: "number" } } },
      { kind: "json", nullable: false },
    ],
  ];
  it.each(cases)("%s", (_name, schema, shape) => {
    expect(fieldShape(schema)).toEqual(shape);
  });

  it("covers every catalogue variable without a JSON fallback", () => {
    const fallbacks = catalogue.flatMap((entry) =>
      Object.entries(catalogueVariablesSchema(entry).properties)
        .filter(([, schema]) => fieldShape(schema).kind === "json")
        .map(([name]) => `${entry.slug}.${name}`),
    );
    expect(fallbacks).toEqual([]);
  });
});

describe("a type in a label", () => {
  it.each([
    [{ type: "string" }, "string"],
    [{ type: "string", format: "uri" }, "URL"],
    [{ type: ["string", "null"] }, "string | null"],
    [{ enum: ["draft", "sent"] }, '"draft" | "sent"'],
    [
      {
        anyOf: [
          { type: "string", const: "" },
          { type: "string", format: "uri" },
        ],
      },
      "URL or empty",
    ],
    [{ anyOf: [{ type: "string" }, { type: "number" }] }, "string | number"],
    [ORDER.properties.items, "array of object"],
    [{}, "any"],
  ] as [VariableSchema, string][])("%j is %s", (schema, label) => {
    expect(describeType(schema)).toBe(label);
  });
});

describe("what an input sends", () => {
  const text = { kind: "text", inputType: "text", nullable: false } as const;
  const nullableText = { ...text, nullable: true };
  const number = { kind: "number", integer: false, nullable: false } as const;
  it.each([
    ["a string as typed", text, "Ada", false, "Ada"],
    ["nothing for an empty string: the default applies", text, "", false, undefined],
    ["null for an empty string that may be null", nullableText, "", false, null],
    ["the empty string for an empty list item", text, "", true, ""],
    ["a number", number, " 2.5 ", false, 2.5],
    ["nothing for an empty number", number, " ", false, undefined],
    ["text that is not a number as it is, for the API to refuse", number, "two", false, "two"],
  ] as const)("%s", (_name, shape, typed, inList, sent) => {
    expect(valueFromInput(shape, typed, inList)).toEqual(sent);
  });
});

describe("values", () => {
  it("are set along a path without touching the rest, and removed with undefined", () => {
    const value = { customer: "Ada", items: [{ name: "Pen", qty: 1 }], meta: { a: 1 } };
    const next = setIn(value, ["items", 0, "qty"], 3);
    expect(next).toEqual({ customer: "Ada", items: [{ name: "Pen", qty: 3 }], meta: { a: 1 } });
    expect((next as typeof value).meta).toBe(value.meta);
    expect(value.items[0].qty).toBe(1);
    expect(setIn(value, ["customer"], undefined)).toEqual({ items: [{ name: "Pen", qty: 1 }], meta: { a: 1 } });
  });

  it("of a new list item are its defaults, else its required members' empty values", () => {
    expect(blankValue(ORDER.properties.items.items!)).toEqual({ name: "" });
    expect(blankValue({ type: "object", properties: { n: { type: "number", default: 2 } }, required: ["n"] })).toEqual({
      n: 2,
    });
    expect(blankItem({ type: "number" })).toBe("");
    expect(blankValue({ enum: ["a", "b"] })).toBe("a");
  });
});

describe("other variables", () => {
  const value = { customer: "Ada", coupon: "SPRING", extra: { a: 1 } };
  it("are the undeclared ones, as JSON", () => {
    expect(otherVariablesText(ORDER, value)).toBe(JSON.stringify({ coupon: "SPRING", extra: { a: 1 } }, null, 2));
    expect(otherVariablesText(ORDER, { customer: "Ada" })).toBe("");
  });

  it("replace the undeclared ones and keep the declared ones", () => {
    expect(withOtherVariables(ORDER, value, '{ "coupon": "FALL" }')).toEqual({
      ok: true,
      value: { customer: "Ada", coupon: "FALL" },
    });
    expect(withOtherVariables(ORDER, value, "  ")).toEqual({ ok: true, value: { customer: "Ada" } });
  });

  it("must be a JSON object of undeclared names", () => {
    expect(withOtherVariables(ORDER, value, "{ coupon")).toEqual({ ok: false, error: "This is not valid JSON yet." });
    expect(withOtherVariables(ORDER, value, "[1]")).toEqual({
      ok: false,
      error: 'Write a JSON object, e.g. { "name": "Ada" }.',
    });
    expect(withOtherVariables(ORDER, value, '{ "customer": "Grace", "status": "sent" }')).toEqual({
      ok: false,
      error: "customer, status have a field above.",
    });
  });
});

describe("the API's 400 details on the form", () => {
  const value = { customer: "Ada", items: [{ name: "Pen", qty: 1 }, { name: "Ink" }], meta: {}, coupon: 5 };

  it("go to their input, to the JSON that holds them, or to the summary", () => {
    const details = [
      { field: "variables.items.1.qty", message: "is required" },
      { field: "variables.customer", message: "must be a string" },
      { field: "variables.items", message: "must have at most 100 items" },
      { field: "variables.address.city", message: "is required" },
      { field: "variables.meta.deep.x", message: "must be a number" },
      { field: "variables.coupon", message: "must be a string" },
      { field: "variables.items.7.qty", message: "is required" },
      { field: "variables", message: "must be at most 1 MB as JSON" },
    ];
    expect(placeErrors(ORDER, value, details)).toEqual({
      byPath: {
        "items.1.qty": ["is required"],
        customer: ["must be a string"],
        items: ["must have at most 100 items"],
        "address.city": ["is required"],
        meta: ["deep.x: must be a number"],
        [OTHER_VARIABLES]: ["coupon: must be a string"],
      },
      summary: [
        { field: "variables.items.7.qty", message: "is required" },
        { field: "variables", message: "must be at most 1 MB as JSON" },
      ],
    });
  });

  it("of undeclared variables go to the summary when the schema allows none", () => {
    const closed = { ...ORDER, additionalProperties: false };
    expect(placeErrors(closed, value, [{ field: "variables.coupon", message: "is not allowed" }])).toEqual({
      byPath: {},
      summary: [{ field: "variables.coupon", message: "is not allowed" }],
    });
  });
});

it("gives each input an id from its path", () => {
  expect(inputId(["items", 1, "qty"])).toBe("var-items-1-qty");
  expect(inputId(["a b", "c.d"])).toBe("var-a_b-c_d");
});

describe("a draft's variables, read off its PreviewProps", () => {
  it("declare each declarable name as optional, of its sample's type, never with the sample as default", () => {
    expect(
      schemaFromPreviewProps({ name: "Ada", count: 2, vip: true, "first-name": "x", toString: "y", list: [1, 2] }),
    ).toEqual({
      $schema: JSON_SCHEMA_DIALECT,
      type: "object",
      properties: {
        name: { type: "string" },
        count: { type: "number" },
        vip: { type: "boolean" },
        list: { type: "array", items: { type: "number" } },
      },
      additionalProperties: true,
    });
  });

  it("say nothing about values nested past 16 levels", () => {
    let deep: unknown = "leaf";
    for (let level = 0; level < 20; level++) deep = { next: deep };
    let schema = schemaFromPreviewProps({ deep: deep as Record<string, unknown> }).properties.deep;
    let typedLevels = 0;
    while (schema.type === "object") {
      typedLevels++;
      schema = schema.properties!.next;
    }
    expect({ typedLevels, beyond: schema }).toEqual({ typedLevels: 16, beyond: {} });
  });
});
