import { randomUUID } from "node:crypto";
import { render } from "@react-email/render";
import { createElement } from "react";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { POST as postSend } from "@/app/api/v1/send/route";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { renderInSandbox } from "@/lib/render/sandbox";
import { compileTemplate } from "@/lib/render/sandbox/compile";
import { AppError } from "@/lib/core/errors";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import { importTsx } from "../support/tsx";
import { auth, call, createUser, type TestUser, uniqueDomain } from "../support/api";
import { renderWarnings } from "../support/compatibility";

const INVOICE = `import { Body, Button, Container, Head, Heading, Hr, Html, Img, Link, Preview, Section, Row, Column, Text } from "@react-email/components";

type Props = { customer?: string; amount?: number; payUrl?: string; lines?: { label: string; value: string }[] };

export default function Invoice({ customer = "there", amount = 0, payUrl = "https://example.com/pay", lines = [] }: Props) {
  return (
    <Html lang="en">
      <Head />
      <Preview>Your invoice is ready</Preview>
      <Body style={{ fontFamily: "Helvetica, Arial, sans-serif", backgroundColor: "#f6f9fc" }}>
        <Container style={{ padding: "24px" }}>
          <Img src="https://example.com/logo.png" alt="Acme" width="64" height="24" />
          <Heading as="h1">Invoice for {customer}</Heading>
          <Section>
            {lines.map((line) => (
              <Row key={line.label}>
                <Column>{line.label}</Column>
                <Column align="right">{line.value}</Column>
              </Row>
            ))}
          </Section>
          <Text>Amount due: \${amount.toFixed(2)}</Text>
          <Button href={payUrl} style={{ background: "#000", color: "#fff", padding: "12px 20px" }}>Pay now</Button>
          <Hr />
          <Link href="https://example.com/help">Questions?</Link>
        </Container>
      </Body>
    </Html>
  );
}

Invoice.PreviewProps = { customer: "Ada", amount: 42.5, payUrl: "https://example.com/pay/1", lines: [{ label: "Seats", value: "3" }] } satisfies Props;
`;

/** A template that behaves on its PreviewProps (so it is accepted) and misbehaves on `mode`. */
function hostile(body: string): string {
  return `import { Html, Text } from "@react-email/components";
export default function Hostile({ mode = "ok" }: { mode?: string }) {
  if (mode === "attack") {
    ${body}
  }
  return <Html><Text>fine</Text></Html>;
}
Hostile.PreviewProps = { mode: "ok" };
`;
}

let user: TestUser;
let invoiceId: string;

beforeAll(async () => {
  user = await createUser("monthly");
  invoiceId = (await createTemplateFromSource(user.accountId, { name: "Invoice", description: "Ours", code: INVOICE }))
    .id;
});

function renderCall(id: string, body: unknown, caller = user) {
  return call(postRender, `/api/v1/templates/${id}/render`, {
    method: "POST",
    params: { id },
    headers: auth(caller),
    body,
  });
}

describe("user-authored templates", () => {
  it("are compiled once at creation, with variables declared from the props type", async () => {
    const [row] = await getDb()`select compiled_code, variables from templates where id = ${invoiceId}`;
    expect(row.compiled_code).toContain("Invoice");
    expect(row.variables).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        customer: { type: "string", default: "there" },
        amount: { type: "number", default: 0 },
        payUrl: { type: "string", default: "https://example.com/pay" },
        lines: {
          type: "array",
          items: {
            type: "object",
            properties: { label: { type: "string" }, value: { type: "string" } },
            required: ["label", "value"],
            additionalProperties: true,
          },
          default: [],
        },
      },
      additionalProperties: true,
    });
  });

  it("render in the sandbox to exactly what render() gives natively for the same code and props", async () => {
    const variables = { customer: "Grace", amount: 10, lines: [{ label: "Plan", value: "Pro" }] };
    const result = await renderCall(invoiceId, { variables });
    expect(result.status).toBe(200);
    const Native = await importTsx(INVOICE);
    const html = await render(createElement(Native, variables));
    expect(result.body).toEqual({ success: true, html, ...renderWarnings(html) });
  });

  it("escape variables", async () => {
    const result = await renderCall(invoiceId, { variables: { customer: "<script>alert(1)</script>" } });
    expect(result.status).toBe(200);
    expect(result.body.html).not.toContain("<script>");
    expect(result.body.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("refuse mistyped variables with variables.<name>", async () => {
    const result = await renderCall(invoiceId, { variables: { amount: "forty", lines: "x" } });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      error: "Invalid request body",
      code: "VALIDATION_ERROR",
      success: false,
      details: [
        { field: "variables.amount", message: "must be a number" },
        { field: "variables.lines", message: "must be an array" },
      ],
    });
  });

  it("give plain text and react formats too", async () => {
    const text = await renderCall(invoiceId, { variables: { customer: "Lin" }, plain_text: true });
    expect(text.body.text).toContain("INVOICE FOR LIN");
    expect(text.body.text).toContain("Amount due: $0.00");
    const react = await renderCall(invoiceId, { variables: { customer: "Lin" }, format: "react" });
    const Component = await importTsx(react.body.react);
    expect(await render(createElement(Component))).toBe(
      (await renderCall(invoiceId, { variables: { customer: "Lin" } })).body.html,
    );
  });

  it("are private: another user gets 404", async () => {
    const other = await createUser("monthly");
    const result = await renderCall(invoiceId, {}, other);
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false });
  });

  it("are refused at creation when they do not compile, with line and column", async () => {
    const broken = createTemplateFromSource(user.accountId, {
      name: "Broken",
      description: "",
      code: "export default function X() {\n  return <div>{oops</div>;\n}\n",
    });
    const error = await broken.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AppError);
    const { code, options } = error as AppError;
    // The message does not repeat the position: line and column are numbers beside it (the API's detail says both).
    const message = 'Syntax error: Error transforming template.tsx: Unexpected token, expected ","';
    expect({ code, details: options.details, source: options.source }).toEqual({
      code: "VALIDATION_ERROR",
      details: [{ field: "files.template.tsx", message: `line 2, column 26: ${message}` }],
      source: { message, path: "template.tsx", line: 2, column: 26 },
    });
  });

  it("are refused at creation when they import anything but react and React Email", async () => {
    const code = `import fs from "fs";\nexport default function X() { return <p>{String(fs)}</p>; }`;
    await expect(createTemplateFromSource(user.accountId, { name: "Fs", description: "", code })).rejects.toMatchObject(
      {
        code: "VALIDATION_ERROR",
        options: { source: { line: 1 } },
      },
    );
  });

  it("are refused at creation when their trial render throws", async () => {
    const code = `export default function X() { throw new Error("nope"); }`;
    await expect(
      createTemplateFromSource(user.accountId, { name: "Throws", description: "", code }),
    ).rejects.toMatchObject({ code: "RENDER_ERROR", message: expect.stringMatching(/^The trial render failed: /) });
  });
});

// The example: typed props with defaults, no PreviewProps, so the template declares no variables.
const ORDER_SHIPPED = `import { Body, Html, Text } from "@react-email/components";

interface OrderShippedProps {
  customerName?: string;
  items?: { name: string; qty: number }[];
}

export default function OrderShipped({ customerName = "Valued Customer", items = [] }: OrderShippedProps) {
  return (
    <Html>
      <Body>
        <Text>Hi {customerName}, your order has shipped.</Text>
        {items.map((item) => (
          <Text key={item.name}>{item.qty} × {item.name}</Text>
        ))}
      </Body>
    </Html>
  );
}
`;

describe("variables reach the component", () => {
  const variables = { customerName: "Ada Lovelace", items: [{ name: "Difference Engine", qty: 1 }] };

  it("every variable, when the template declares none (POST /render)", async () => {
    const { id } = await createTemplateFromSource(user.accountId, {
      name: "Order shipped",
      description: "",
      code: ORDER_SHIPPED,
    });
    const result = await renderCall(id, { variables });
    const Native = await importTsx(ORDER_SHIPPED);
    const html = await render(createElement(Native, variables));
    expect({ status: result.status, body: result.body }).toEqual({
      status: 200,
      body: { success: true, html, ...renderWarnings(html) },
    });
    expect(result.body.html).toContain("Hi <!-- -->Ada Lovelace<!-- -->, your order has shipped.");
  });

  it("every variable, when the template declares none (POST /send, embedded outbox)", async () => {
    const sender = await createUser("monthly");
    const domain = uniqueDomain();
    await addSendingDomain(sender.accountId, { domain, verified: true });
    const { id } = await createTemplateFromSource(sender.accountId, {
      name: "Order shipped",
      description: "",
      code: ORDER_SHIPPED,
    });
    const result = await call(postSend, "/api/v1/send", {
      method: "POST",
      headers: auth(sender),
      body: { template_id: id, from: `shop@${domain}`, to: "ada@example.com", subject: "Shipped", variables },
    });
    expect(result.status).toBe(200);
    const [row] = await getDb()<
      { html: string; status: string }[]
    >`select html, status from sent_emails where id = ${result.body.data.id}`;
    const Native = await importTsx(ORDER_SHIPPED);
    expect(row).toEqual({ html: await render(createElement(Native, variables)), status: "sent" });
    expect(row.html).toContain("Ada Lovelace");
  });

  it("undeclared ones beside the declared ones, which are still type-checked", async () => {
    const code = `import { Html, Text } from "@react-email/components";
export default function Greeting({ name = "there", greeting = "Hello" }: { name?: string; greeting?: string }) {
  return <Html><Text>{greeting} {name}</Text></Html>;
}
Greeting.PreviewProps = { name: "Ada" };
`;
    const { id } = await createTemplateFromSource(user.accountId, { name: "Greeting", description: "", code });
    const [row] = await getDb()`select variables from templates where id = ${id}`;
    expect(row.variables).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { name: { type: "string", default: "there" }, greeting: { type: "string", default: "Hello" } },
      additionalProperties: true,
    });
    const Native = await importTsx(code);
    const result = await renderCall(id, { variables: { name: "Grace", greeting: "Howdy", tone: "warm" } });
    expect(result.body).toEqual({
      success: true,
      html: await render(createElement(Native, { name: "Grace", greeting: "Howdy", tone: "warm" })),
      warnings: [{ field: "variables.tone", message: "not a variable of this template", kind: "variables" }],
    });
    expect(result.body.html).toContain("Howdy<!-- --> <!-- -->Grace");
    const mistyped = await renderCall(id, { variables: { name: 7, greeting: "Howdy" } });
    expect({ status: mistyped.status, body: mistyped.body }).toEqual({
      status: 400,
      body: {
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: [{ field: "variables.name", message: "must be a string" }],
      },
    });
  });
});

describe("PreviewProps keys of a template with untyped props that are not identifiers, or are Object.prototype's names", () => {
  const code = `import { Html, Text } from "@react-email/components";
export default function Odd(props) {
  return <Html><Text>Hello {props.name ?? "there"}</Text></Html>;
}
Odd.PreviewProps = {
  name: "Ada",
  toString: "sample",
  constructor: "sample",
  hasOwnProperty: "sample",
  valueOf: 1,
  ["__proto__"]: { polluted: true },
  "not-an-identifier": "sample",
  "ñame": "sample",
  ${"a".repeat(101)}: "sample",
};
`;

  it("declare nothing, and the template keeps rendering with and without variables", async () => {
    const { id } = await createTemplateFromSource(user.accountId, { name: "Odd keys", description: "", code });
    const [row] = await getDb()`select variables from templates where id = ${id}`;
    expect(row.variables).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { name: { type: "string" } },
      additionalProperties: true,
    });
    const Native = await importTsx(code);
    for (const variables of [{}, { name: "Grace" }]) {
      const result = await renderCall(id, { variables });
      expect({ status: result.status, body: result.body }).toEqual({
        status: 200,
        body: { success: true, html: await render(createElement(Native, variables)) },
      });
    }
    // Undeclared variables reach the component, with a warning each.
    const variables = { name: "Grace", toString: "given", constructor: "given" };
    const result = await renderCall(id, { variables });
    expect({ status: result.status, body: result.body }).toEqual({
      status: 200,
      body: {
        success: true,
        html: await render(createElement(Native, variables)),
        warnings: [
          { field: "variables.toString", message: "not a variable of this template", kind: "variables" },
          { field: "variables.constructor", message: "not a variable of this template", kind: "variables" },
        ],
      },
    });
  });
});

describe("hostile user templates answer 422 RENDER_ERROR within the deadline, and the server keeps serving", () => {
  const cases: [string, string][] = [
    ["reading process.env", "return <Html><Text>{(process as any).env.DATABASE_URL}</Text></Html>;"],
    [
      "calling require('fs') at run time",
      "const r = (globalThis as any).require ?? require; return <Html><Text>{String(r('fs'))}</Text></Html>;",
    ],
    ["calling fetch", "fetch('http://127.0.0.1:1/'); return <Html />;"],
    ["throwing", "throw new Error('template bug');"],
    ["an infinite loop", "while (true) {}"],
    ["unbounded allocation", "const hoard: number[][] = []; while (true) hoard.push(new Array(1e6).fill(1));"],
    ["deep recursion", "const down = (n: number): number => down(n + 1) + 1; down(0);"],
    ["a huge output", "return <Html><Text>{'x'.repeat(50 * 1024 * 1024)}</Text></Html>;"],
  ];

  it.each(cases)("%s", async (_, body) => {
    const { id } = await createTemplateFromSource(user.accountId, {
      name: `Hostile ${_}`,
      description: "",
      code: hostile(body),
    });
    const started = Date.now();
    const result = await renderCall(id, { variables: { mode: "attack" } });
    const elapsed = Date.now() - started;
    expect(result.status).toBe(422);
    expect(result.body).toEqual({
      error: "Template render failed",
      code: "RENDER_ERROR",
      message: expect.any(String),
      success: false,
    });
    expect(result.body.message).not.toMatch(/DATABASE_URL=|postgres:\/\//);
    expect(elapsed).toBeLessThan(5000);
    // The same template still renders its safe path, and so does everyone else's.
    expect((await renderCall(id, { variables: { mode: "ok" } })).status).toBe(200);
    expect((await renderCall(invoiceId, {})).status).toBe(200);
  });

  it("probing globalThis finds nothing of the host", async () => {
    const code = `import { Html, Text } from "@react-email/components";
export default function Probe() {
  const g = globalThis as any;
  const seen = ["process", "require", "fetch", "Buffer", "setTimeout", "setInterval", "XMLHttpRequest", "WebSocket", "module", "global"]
    .map((name) => name + "=" + typeof g[name]).join(",");
  return <Html><Text>{seen}</Text></Html>;
}`;
    const { id } = await createTemplateFromSource(user.accountId, { name: "Probe", description: "", code });
    const result = await renderCall(id, {});
    expect(result.status).toBe(200);
    for (const name of ["process", "require", "fetch", "Buffer", "XMLHttpRequest", "WebSocket", "module", "global"]) {
      expect(result.body.html).toContain(`${name}=undefined`);
    }
  });
});

describe("a full sandbox queue", () => {
  it(
    "answers POST /render 503 SANDBOX_BUSY with Retry-After at once, not after the renders queued before it",
    { timeout: 20_000 },
    async () => {
      const busy = await createUser("monthly");
      const { id } = await createTemplateFromSource(busy.accountId, {
        name: "Quick",
        description: "",
        code: hostile("return <Html />;"),
      });
      // Renders of a new context that each take a while: the account's whole share of the queue, still waiting.
      const slow = compileTemplate(hostile("for (let i = 0; i < 3e5; i++) {} return <Html />;"));
      if (!slow.ok) throw new Error(slow.message);
      const queued = Array.from({ length: 32 }, () =>
        renderInSandbox({
          owner: busy.accountId,
          cacheKey: `busy:${randomUUID()}`,
          compiledCode: slow.code,
          props: { mode: "attack" },
        }),
      );
      const result = await renderCall(id, {}, busy);
      expect({ status: result.status, retryAfter: result.headers.get("retry-after"), body: result.body }).toEqual({
        status: 503,
        retryAfter: "1",
        body: {
          error: "Template sandbox busy",
          code: "SANDBOX_BUSY",
          success: false,
          message: "This account already has 32 renders waiting; try again in a moment.",
        },
      });
      await Promise.all(queued);
      expect((await renderCall(id, {}, busy)).status).toBe(200);
    },
  );

  it(
    "still admits another account's render while three accounts fill it with slow renders, and refuses theirs",
    { timeout: 30_000 },
    async () => {
      const hogs = [await createUser("monthly"), await createUser("monthly"), await createUser("monthly")];
      const bystander = await createUser("monthly");
      const quick = hostile("return <Html />;");
      const [hogTemplate, bystanderTemplate] = [
        await createTemplateFromSource(hogs[0].accountId, { name: "Quick", description: "", code: quick }),
        await createTemplateFromSource(bystander.accountId, { name: "Quick", description: "", code: quick }),
      ];
      const runaway = compileTemplate(hostile("while (true) {} return <Html />;"));
      const slow = compileTemplate(hostile("for (let i = 0; i < 3e5; i++) {} return <Html />;"));
      if (!runaway.ok || !slow.ok) throw new Error("the hostile templates do not compile");
      // 32 renders each, all 96 places: the first runs to its deadline, so none is done before the requests below arrive.
      const queued = hogs.flatMap((hog, h) =>
        Array.from({ length: 32 }, (_, i) => {
          const [cacheKey, compiledCode] =
            h === 0 && i === 0 ? [`runaway:${randomUUID()}`, runaway.code] : [`hog:${hog.accountId}`, slow.code];
          return renderInSandbox({ owner: hog.accountId, cacheKey, compiledCode, props: { mode: "attack" } }).catch(
            (error: unknown) => error,
          );
        }),
      );
      const hogsNext = await renderCall(hogTemplate.id, {}, hogs[0]);
      const bystanders = await renderCall(bystanderTemplate.id, {}, bystander);
      expect({
        hogsNext: { status: hogsNext.status, retryAfter: hogsNext.headers.get("retry-after"), body: hogsNext.body },
        bystanders: { status: bystanders.status, body: bystanders.body },
      }).toEqual({
        hogsNext: {
          status: 503,
          retryAfter: "1",
          body: {
            error: "Template sandbox busy",
            code: "SANDBOX_BUSY",
            success: false,
            message: "This account already has 32 renders waiting; try again in a moment.",
          },
        },
        bystanders: {
          status: 200,
          body: { success: true, html: await render(createElement(await importTsx(quick), { mode: "ok" })) },
        },
      });
      await Promise.all(queued);
    },
  );
});
