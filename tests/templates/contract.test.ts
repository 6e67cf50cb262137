import { describe, expect, it } from "vitest";
import { POST as postSend } from "@/app/api/v1/send/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { GET as getTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { catalogue, catalogueVariablesSchema, getCatalogueEntry } from "@/lib/catalogue/catalogue";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { GMAIL_CLIP_BYTES } from "@/lib/core/limits";
import { MAX_DETAILS, type AppError } from "@/lib/core/errors";
import {
  compileVariablesSchema,
  exampleFromSchema,
  MAX_VARIABLE_WARNINGS,
  undeclaredVariableWarnings,
} from "@/lib/render/analysis/variables";
import type { VariablesSchema } from "@/lib/templates/variables-schema";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import {
  addToLibrary,
  auth,
  call,
  catalogueId,
  createUser,
  setApiCallsUsed,
  uniqueDomain,
  type TestUser,
} from "../support/api";
import { exampleCompatibility } from "../support/compatibility";

const TEMPLATE_NOT_FOUND = { error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false };
const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** A 400 VALIDATION_ERROR answer with these details, as `{ status, body }`. */
const invalid = (details: { field: string; message: string }[]) => ({
  status: 400,
  body: { error: "Invalid request body", code: "VALIDATION_ERROR", success: false, details },
});

const getDetails = (user: TestUser, id: string) => call(getTemplate, "/x", { params: { id }, headers: auth(user) });
const renderCall = (user: TestUser, id: string, body: unknown) =>
  call(postRender, "/x", { method: "POST", params: { id }, headers: auth(user), body });

const GREETING = `import { Html, Text } from "@react-email/components";
export default function Greeting({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text></Html>;
}
Greeting.PreviewProps = { name: "Ada" };
`;

describe("GET /api/v1/templates/{id}", () => {
  it("answers a catalogue template in the library with its schema, PreviewProps as example, and how it was added", async () => {
    const user = await createUser();
    const { template_id } = await addToLibrary(user, "receipt");
    const entry = getCatalogueEntry("receipt")!;
    const [row] = await getDb()`select updated_at from templates where id = ${template_id}`;
    const result = await getDetails(user, template_id);
    const example = ((await entry.loadComponent()) as unknown as { PreviewProps: Record<string, unknown> })
      .PreviewProps;
    expect({ status: result.status, body: result.body }).toEqual({
      status: 200,
      body: {
        success: true,
        template: {
          id: template_id,
          name: entry.name,
          description: entry.description,
          is_public: true,
          price: 19,
          slug: "receipt",
          alias: null,
          category: entry.category,
          author: entry.author,
          in_library: true,
          added_via: "purchased",
          updated_at: (row.updated_at as Date).toISOString(),
          version: 1,
          draft: null,
          variables: catalogueVariablesSchema(entry),
          example,
          compatibility: await exampleCompatibility(await entry.loadComponent(), entry.variables.parse(example)),
          // receipt has messages in five locales.
          locales: ["de", "en", "es", "fr", "pt-BR"],
          default_locale: "en",
        },
      },
    });
    expect(result.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("describes every variable of every catalogue template, nested ones included", () => {
    const undescribed: string[] = [];
    const visit = (schema: VariablesSchema["properties"], path: string) => {
      for (const [name, property] of Object.entries(schema)) {
        if (!property.description) undescribed.push(`${path}.${name}`);
        if (property.items?.properties) visit(property.items.properties, `${path}.${name}.0`);
      }
    };
    for (const entry of catalogue) {
      visit(catalogueVariablesSchema(entry).properties, entry.slug);
    }
    expect(undescribed).toEqual([]);
  });

  it("answers every public catalogue template, paid ones not bought included, as not in the library", async () => {
    const user = await createUser();
    const id = await catalogueId("newsletter");
    const result = await getDetails(user, id);
    expect(result.status).toBe(200);
    expect(result.body.template).toMatchObject({
      id,
      slug: "newsletter",
      price: 29,
      in_library: false,
      added_via: null,
    });
    expect(result.body.template.variables.required).toEqual(["articles"]);
  });

  it("answers the caller's own template, with the schema stored when it was saved", async () => {
    const user = await createUser();
    const { id } = await createTemplateFromSource(user.accountId, {
      name: "Greeting",
      description: "Hi",
      code: GREETING,
    });
    const result = await getDetails(user, id);
    expect(result.status).toBe(200);
    expect(result.body.template).toMatchObject({
      id,
      name: "Greeting",
      is_public: false,
      price: 0,
      slug: null,
      in_library: true,
      added_via: "created",
      example: { name: "Ada" },
    });
    expect(result.body.template.variables).toEqual((await storedSchema(id)) as VariablesSchema);
  });

  it("never runs a template's code: one saved before PreviewProps were kept gets an example made from its schema", async () => {
    const user = await createUser();
    const { id } = await createTemplateFromSource(user.accountId, {
      name: "Greeting",
      description: "",
      code: GREETING,
    });
    await getDb()`update templates set preview_props = null where id = ${id}`;
    const result = await getDetails(user, id);
    expect(result.body.template.example).toEqual({ name: "there" });
  });

  it("refuses to save PreviewProps that contradict the props type, or that no request could send", async () => {
    const user = await createUser();
    const save = (previewProps: string) =>
      createTemplateFromSource(user.accountId, {
        name: "Typed",
        description: "",
        code: `import { Html, Text } from "@react-email/components";
export default function Typed({ count }: { count: number }) {
  return <Html><Text>{String(count)}</Text></Html>;
}
Typed.PreviewProps = ${previewProps};
`,
      }).then(
        () => null,
        (error: AppError) => error.options.source?.message,
      );
    expect(await save(`{ count: "three" }`)).toBe("PreviewProps do not match the props type: count must be a number");
    expect(await save(`{ count: 3, notes: "x".repeat(1_100_000) }`)).toBe(
      "PreviewProps are larger than 1 MB as JSON, the most a request's variables may be",
    );
    expect(await save(`{ count: 3, notes: "a\\u0000b" }`)).toBe(
      "PreviewProps hold the NUL character (\\u0000), which a request's variables may not",
    );
    expect(await save(`{ count: 3, notes: { "\\ud800": "lone surrogate as a key" } }`)).toBe(
      "PreviewProps hold text that is not valid Unicode (an unpaired surrogate), which a request's variables may not",
    );
    const nested = (levels: number) => `${"{ a: ".repeat(levels - 1)}1${" }".repeat(levels - 1)}`;
    // 29 levels with the variables object: in a batch's item, 32 with the body, the most a body may nest.
    expect(await save(`{ count: 3, deep: ${nested(30)} }`)).toBe(
      "PreviewProps nest deeper than 29 levels, the most a batch's variables may",
    );
    expect(await save(`{ count: 3, deep: ${nested(29)} }`)).toBeNull();
  });

  it("leaves __proto__ keys out of PreviewProps when saving: the example answered renders and sends as it is", async () => {
    const user = await createUser("monthly");
    const domain = uniqueDomain();
    await addSendingDomain(user.accountId, { domain, verified: true });
    // An object literal's `__proto__:` sets the prototype; a computed key or JSON.parse makes it a key of its own.
    const created = await call(postTemplate, "/api/v1/templates", {
      method: "POST",
      headers: auth(user),
      body: {
        name: "Note",
        files: {
          "email.tsx": `import { Html, Text } from "@react-email/components";
export default function Note({ title, meta }) {
  return <Html><Text>{title} {meta.tag}</Text></Html>;
}
Note.PreviewProps = {
  title: "Hi",
  ["__proto__"]: { polluted: true },
  meta: JSON.parse('{"tag":"a","__proto__":{"polluted":true},"list":[{"__proto__":1,"b":2}]}'),
};
`,
        },
      },
    });
    expect(created.status).toBe(201);
    const example = { title: "Hi", meta: { tag: "a", list: [{ b: 2 }] } };
    expect(created.body.template.example).toEqual(example);
    const { id } = created.body.template;

    const details = await getDetails(user, id);
    expect(JSON.stringify(details.body.template.example)).toBe(JSON.stringify(example));
    const rendered = await renderCall(user, id, { variables: details.body.template.example });
    expect(rendered.status).toBe(200);
    expect(rendered.body.html).toContain("Hi<!-- --> <!-- -->a");
    const sent = await call(postSend, "/api/v1/send", {
      method: "POST",
      headers: auth(user),
      body: {
        from: `hi@${domain}`,
        to: "ada@example.com",
        subject: "Note",
        template_id: id,
        variables: details.body.template.example,
      },
    });
    expect(sent.status).toBe(200);
  });

  it("reads no __proto__ variable from the props type: the example made from it renders and sends", async () => {
    const user = await createUser("monthly");
    const domain = uniqueDomain();
    await addSendingDomain(user.accountId, { domain, verified: true });
    const created = await call(postTemplate, "/api/v1/templates", {
      method: "POST",
      headers: auth(user),
      body: {
        name: "Typed note",
        files: {
          "email.tsx": `import { Html, Text } from "@react-email/components";
type Props = { __proto__: string; title: string; meta?: { tag: string } };
export default function Note({ title, meta = { "__proto__": 1, tag: "a" } as never }: Props) {
  return <Html><Text>{title} {meta.tag}</Text></Html>;
}
`,
        },
      },
    });
    expect(created.status).toBe(201);
    const { id, variables, example } = created.body.template;
    expect(variables.properties).not.toHaveProperty("__proto__");
    expect(variables.required).toEqual(["title"]);
    const rendered = await renderCall(user, id, { variables: example });
    expect(rendered.status).toBe(200);
    const sent = await call(postSend, "/api/v1/send", {
      method: "POST",
      headers: auth(user),
      body: { from: `hi@${domain}`, to: "ada@example.com", subject: "Note", template_id: id, variables: example },
    });
    expect(sent.status).toBe(200);
  });

  it("answers 404 for another user's template, an unknown id and an id that is not a uuid, and is never metered", async () => {
    const owner = await createUser();
    const { id } = await createTemplateFromSource(owner.accountId, { name: "Mine", description: "", code: GREETING });
    const stranger = await createUser();
    await setApiCallsUsed(stranger, 499);
    for (const other of [id, "4b8f5d0e-7c1a-4e2b-9d3f-0a1b2c3d4e5f", "not-a-uuid"]) {
      const result = await getDetails(stranger, other);
      expect({ status: result.status, body: result.body }).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    }
    expect((await getDetails(stranger, await catalogueId("welcome"))).status).toBe(200);
    const usage = await call(getUsage, "/api/v1/usage", { headers: auth(stranger) });
    expect(usage.body.usage.remaining).toBe(1);
    // At the free plan's limit of API calls, it still answers.
    await setApiCallsUsed(stranger, 500);
    expect((await getDetails(stranger, await catalogueId("welcome"))).status).toBe(200);
  });
});

async function storedSchema(id: string): Promise<unknown> {
  const [row] = await getDb()`select variables from templates where id = ${id}`;
  return row.variables;
}

describe("variables checked against the schema", () => {
  it("lists each missing and mistyped variable of a catalogue template with a dotted path into nested values", async () => {
    const user = await createUser();
    const { template_id } = await addToLibrary(user, "receipt");
    const result = await renderCall(user, template_id, {
      variables: {
        items: [
          { name: "Pen", quantity: 1, unitPrice: 2 },
          { name: "Ink", quantity: "two", unitPrice: 3 },
        ],
      },
    });
    expect({ status: result.status, body: result.body }).toEqual(
      invalid([
        { field: "variables.orderId", message: "is required" },
        { field: "variables.items.1.quantity", message: "Invalid input: expected number, received string" },
      ]),
    );
  });

  it("warns about undeclared variables, suggests a close declared name, and still passes them to the template", async () => {
    const user = await createUser();
    const { template_id } = await addToLibrary(user, "welcome");
    const result = await renderCall(user, template_id, {
      variables: { username: "Ada", product_name: "Acme", favouriteColour: "green" },
    });
    expect(result.status).toBe(200);
    // A catalogue template's render has no email client warnings: its page lists them once.
    expect(result.body).toEqual({
      success: true,
      locale: "en",
      html: result.body.html,
      warnings: [
        {
          field: "variables.username",
          message: "not a variable of this template; did you mean userName?",
          kind: "variables",
        },
        {
          field: "variables.product_name",
          message: "not a variable of this template; did you mean productName?",
          kind: "variables",
        },
        { field: "variables.favouriteColour", message: "not a variable of this template", kind: "variables" },
      ],
    });
  });

  it("checks a typed user template's nested values, enums and required members", async () => {
    const user = await createUser();
    const code = `import { Html, Text } from "@react-email/components";
interface Line {
  /** What was bought */
  label: string;
  qty: number;
}
type Props = { orderId: string; status?: "paid" | "due"; lines?: Line[] };
export default function Order({ orderId, status = "due", lines = [] }: Props) {
  return <Html><Text>{orderId} {status} {lines.map((line) => line.label + " x" + line.qty).join(", ")}</Text></Html>;
}
`;
    const { id } = await createTemplateFromSource(user.accountId, { name: "Order", description: "", code });
    const details = await getDetails(user, id);
    expect(details.body.template.variables).toEqual({
      $schema: DIALECT,
      type: "object",
      properties: {
        orderId: { type: "string" },
        status: { type: "string", enum: ["paid", "due"], default: "due" },
        lines: {
          type: "array",
          items: {
            type: "object",
            properties: { label: { type: "string", description: "What was bought" }, qty: { type: "number" } },
            required: ["label", "qty"],
            additionalProperties: true,
          },
          default: [],
        },
      },
      required: ["orderId"],
      additionalProperties: true,
    });
    // No PreviewProps: the example is made from the schema, and it renders.
    expect(details.body.template.example).toEqual({ orderId: "", status: "due", lines: [] });
    expect((await renderCall(user, id, { variables: details.body.template.example })).status).toBe(200);

    const result = await renderCall(user, id, {
      variables: { status: "late", lines: [{ label: "Pen", qty: 1 }, { label: "Ink", qty: "2" }, { qty: 1 }] },
    });
    expect({ status: result.status, body: result.body }).toEqual(
      invalid([
        { field: "variables.status", message: 'must be one of "paid", "due"' },
        { field: "variables.lines.1.qty", message: "must be a number" },
        { field: "variables.lines.2.label", message: "is required" },
        { field: "variables.orderId", message: "is required" },
      ]),
    );
    const rendered = await renderCall(user, id, { variables: { orderId: "A-1", lines: [{ label: "Pen", qty: 2 }] } });
    expect(rendered.body.html).toContain("A-1<!-- --> <!-- -->due<!-- --> <!-- -->Pen x2");
  });

  it("applies the same checks and warnings to the react format", async () => {
    const user = await createUser();
    const { id } = await createTemplateFromSource(user.accountId, {
      name: "Greeting",
      description: "",
      code: GREETING,
    });
    const mistyped = await renderCall(user, id, { format: "react", variables: { name: 7 } });
    expect({ status: mistyped.status, body: mistyped.body }).toEqual(
      invalid([{ field: "variables.name", message: "must be a string" }]),
    );
    const warned = await renderCall(user, id, { format: "react", variables: { Name: "Grace" } });
    expect(warned.status).toBe(200);
    expect(warned.body.warnings).toEqual([
      { field: "variables.Name", message: "not a variable of this template; did you mean name?", kind: "variables" },
    ]);
  });

  it("answers send's warnings in its 200 body", async () => {
    const user = await createUser("monthly");
    const domain = uniqueDomain();
    await addSendingDomain(user.accountId, { domain, verified: true });
    const { template_id } = await addToLibrary(user, "welcome");
    const result = await call(postSend, "/api/v1/send", {
      method: "POST",
      headers: auth(user),
      body: { from: `hi@${domain}`, to: "ada@example.com", subject: "Hi", template_id, variables: { usrName: "Ada" } },
    });
    expect(result.status).toBe(200);
    expect(result.body.warnings).toEqual([
      {
        field: "variables.usrName",
        message: "not a variable of this template; did you mean userName?",
        kind: "variables",
      },
    ]);
  });
});

describe("the Gmail clipping warning", () => {
  it("comes with a render whose HTML passes 102 KB, and not below", async () => {
    const user = await createUser();
    const code = `import { Html, Text } from "@react-email/components";
export default function Long({ paragraphs = 1 }: { paragraphs?: number }) {
  return <Html>{Array.from({ length: paragraphs }, (_, i) => <Text key={i}>${"x".repeat(1000)}</Text>)}</Html>;
}
`;
    const { id } = await createTemplateFromSource(user.accountId, { name: "Long", description: "", code });
    const small = await renderCall(user, id, { variables: { paragraphs: 10 } });
    expect(small.status).toBe(200);
    expect(small.body.warnings).toBeUndefined();
    const large = await renderCall(user, id, { variables: { paragraphs: 120 } });
    const bytes = Buffer.byteLength(large.body.html);
    expect(bytes).toBeGreaterThan(GMAIL_CLIP_BYTES);
    expect(large.body.warnings).toEqual([
      {
        field: "html",
        message: `The HTML is ${Math.ceil(bytes / 1024)} KB; Gmail clips messages past 102 KB and shows a "View entire message" link instead of the rest`,
        kind: "size",
      },
    ]);
  });

  it("comes with a catalogue render too, written by the render worker", async () => {
    const user = await createUser();
    const { template_id } = await addToLibrary(user, "newsletter");
    const articles = Array.from({ length: 30 }, (_, i) => ({
      title: `Article ${i}`,
      summary: "Something happened. ".repeat(200),
      url: "https://acme.test/a",
    }));
    const result = await renderCall(user, template_id, {
      variables: { articles, unsubscribeUrl: "https://acme.test/u" },
    });
    expect(result.status).toBe(200);
    expect(result.body.warnings).toEqual([
      {
        field: "html",
        message: `The HTML is ${Math.ceil(Buffer.byteLength(result.body.html) / 1024)} KB; Gmail clips messages past 102 KB and shows a "View entire message" link instead of the rest`,
        kind: "size",
      },
    ]);
  });
});

describe("a compiled variables schema", () => {
  const schema: VariablesSchema = {
    type: "object",
    properties: {
      title: { type: "string" },
      status: { type: "string", enum: ["paid", "due"] },
      note: { type: ["string", "null"] },
      items: {
        type: "array",
        items: {
          type: "object",
          properties: { label: { type: "string" }, qty: { type: "integer" } },
          required: ["label", "qty"],
          additionalProperties: true,
        },
      },
      count: { type: "number", default: 1 },
    },
    required: ["title"],
    additionalProperties: true,
  };
  const check = compileVariablesSchema(schema);

  it("answers one problem per place, with its dotted path and the expected type", () => {
    expect(check({ status: "late", note: 3, items: [{ label: "a", qty: 1 }, { qty: 1.5 }, "x"] })).toEqual([
      { field: "variables.status", message: 'must be one of "paid", "due"' },
      { field: "variables.note", message: "must be a string or null" },
      { field: "variables.items.1.qty", message: "must be an integer" },
      { field: "variables.items.1.label", message: "is required" },
      { field: "variables.items.2", message: "must be an object" },
      { field: "variables.title", message: "is required" },
    ]);
    expect(check({ title: "Hi", note: null, extra: { any: "thing" } })).toEqual([]);
  });

  it("stops at one problem more than a 400 lists, however many the variables hold", () => {
    const many: VariablesSchema = {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            properties: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`m${i}`, { type: "string" }])),
            required: Array.from({ length: 200 }, (_, i) => `m${i}`),
            additionalProperties: true,
          },
        },
      },
      additionalProperties: true,
    };
    const problems = compileVariablesSchema(many)({ items: Array.from({ length: 100_000 }, () => ({})) });
    expect(problems).toHaveLength(MAX_DETAILS + 1);
    expect(problems[0]).toEqual({ field: "variables.items.0.m0", message: "is required" });
  });

  it("finds a value's branch of a large union and names at most 20 values of a large enum", () => {
    const values = Array.from({ length: 4000 }, (_, i) => i + 1);
    const union: VariablesSchema = {
      type: "object",
      properties: {
        xs: { type: "array", items: { anyOf: [{ type: "string" }, ...values.map((value) => ({ const: value }))] } },
        e: { type: "number", enum: values },
      },
      additionalProperties: true,
    };
    const checkUnion = compileVariablesSchema(union);
    expect(checkUnion({ xs: Array.from({ length: 200_000 }, () => 4000), e: 4000 })).toEqual([]);
    expect(checkUnion({ xs: ["a", 0], e: 0 })).toEqual([
      { field: "variables.xs.1", message: "does not match any of the shapes this variable takes" },
      {
        field: "variables.e",
        message: `must be one of ${values.slice(0, 20).join(", ")} (or 3,980 more)`,
      },
    ]);
  });

  it("warns about undeclared variables at every declared level, and caps the list", () => {
    expect(undeclaredVariableWarnings(schema, { titel: "x", items: [{ label: "a", qty: 1, quantity: 2 }] })).toEqual([
      { field: "variables.titel", message: "not a variable of this template; did you mean title?", kind: "variables" },
      { field: "variables.items.0.quantity", message: "not a variable of this template", kind: "variables" },
    ]);
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`extra${i}`, i]));
    const warnings = undeclaredVariableWarnings(schema, many);
    expect(warnings).toHaveLength(51);
    expect(warnings[50]).toEqual({
      field: "variables",
      message: "10 more variables are not variables of this template",
      kind: "variables",
    });
  });

  it("suggests only names close enough to be a slip", () => {
    const declared: VariablesSchema = {
      type: "object",
      properties: { customerName: {}, orderId: {}, ["y".repeat(41)]: {} },
      additionalProperties: true,
    };
    expect(
      undeclaredVariableWarnings(declared, { customer_name: 1, ordrId: 1, colour: 1, ["y".repeat(42)]: 1 }),
    ).toEqual([
      {
        field: "variables.customer_name",
        message: "not a variable of this template; did you mean customerName?",
        kind: "variables",
      },
      {
        field: "variables.ordrId",
        message: "not a variable of this template; did you mean orderId?",
        kind: "variables",
      },
      { field: "variables.colour", message: "not a variable of this template", kind: "variables" },
      { field: `variables.${"y".repeat(42)}`, message: "not a variable of this template", kind: "variables" },
    ]);
  });

  it("spends a bounded effort on suggestions, whatever the declared names", () => {
    const names = Array.from({ length: 990 }, (_, i) => `${"a".repeat(36)}${String(i).padStart(4, "0")}`);
    const declared: VariablesSchema = {
      type: "object",
      properties: Object.fromEntries(names.map((name) => [name, {}])),
      additionalProperties: true,
    };
    const keys = Array.from({ length: 60 }, (_, i) => `${"a".repeat(37)}x${String(i).padStart(2, "0")}`);
    const started = performance.now();
    const warnings = undeclaredVariableWarnings(declared, Object.fromEntries(keys.map((key) => [key, 1])));
    expect(warnings).toHaveLength(MAX_VARIABLE_WARNINGS + 1);
    // Without the budget this took seconds; the bound is generous for a busy machine.
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("makes example values from defaults and types", () => {
    expect(exampleFromSchema(schema)).toEqual({
      title: "",
      status: "paid",
      note: "",
      items: [{ label: "", qty: 1 }],
      count: 1,
    });
  });
});
