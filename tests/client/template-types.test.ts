import { beforeAll, describe, expect, it } from "vitest";
import { templatesDeclaration } from "@/packages/letterpress/src/types-file";
import { sender } from "../support/api";
import { inProcessClient } from "../support/client";
import { typeErrors } from "../support/typescript";

// A template whose variables have a required string, a number, a literal union, an array and an optional string.
const ORDER_SHIPPED = `type Item = { name: string; quantity: number };
type Props = { orderId: string; total: number; status: "paid" | "due"; items: Item[]; note?: string };
export default function OrderShipped({ orderId, total, status, items, note = "" }: Props) {
  return <p>{orderId} {total} {status} {items.map((item) => item.name).join(", ")} {note}</p>;
}
OrderShipped.PreviewProps = { orderId: "A-1", total: 12.5, status: "paid", items: [{ name: "Pen", quantity: 2 }] };
`;

const send = (body: string) => `import { Letterpress } from "letterpress";
const lp = new Letterpress();
export const sent = lp.send({ to: "ann@example.com", subject: "Shipped", ${body} });
`;

const ITEMS = `items: [{ name: "Pen", quantity: 2 }]`;
const FIXTURES: Record<string, string> = {
  "correct.ts": `${send(`template_id: "order-shipped", variables: { orderId: "A-1", total: 12.5, status: "paid", ${ITEMS} }`)}
export const rendered = lp.render("order-shipped", { variables: { orderId: "A-1", total: 1, status: "due", items: [] } });
export const welcome = lp.send({ template_id: "welcome", to: "ann@example.com", subject: "Hi" });
export const batch = lp.sendBatch({ emails: [{ template_id: "welcome", to: "ann@example.com", subject: "Hi" }] });
`,
  "missing-variable.ts": send(`template_id: "order-shipped", variables: { total: 12.5, status: "paid", ${ITEMS} }`),
  "wrong-type.ts": send(
    `template_id: "order-shipped", variables: { orderId: "A-1", total: "12.50", status: "paid", ${ITEMS} }`,
  ),
  "unknown-template.ts": send(`template_id: "order-shiped", variables: { orderId: "A-1" }`),
  "wrong-union-member.ts": send(
    `template_id: "order-shipped", variables: { orderId: "A-1", total: 1, status: "late", ${ITEMS} }`,
  ),
  "misspelt-variable.ts": send(`template_id: "welcome", variables: { username: "Ada" }`),
  "render-without-variables.ts": `import { Letterpress } from "letterpress";
export const rendered = new Letterpress().render("order-shipped");
`,
};

/** The fixtures' errors, with `extra` beside them, as files of tests/client/types/. */
const diagnostics = (extra: Record<string, string>) => typeErrors("tests/client/types", { ...FIXTURES, ...extra });

describe("npx letterpress types", () => {
  let declaration: string;
  const warnings: string[] = [];
  let ids: { orderShipped: string; welcome: string };
  beforeAll(async () => {
    const user = await sender();
    const lp = inProcessClient(user.key);
    const created = await lp.templates.create({
      name: "Order shipped",
      files: { "email.tsx": ORDER_SHIPPED },
      alias: "order-shipped",
    });
    ids = { orderShipped: created.template.id, welcome: user.welcomeId };
    declaration = await templatesDeclaration(lp, (warning) => warnings.push(warning));
  });

  it("declares each template of the library by id, alias and slug", () => {
    expect(warnings).toEqual([]);
    expect(declaration.slice(declaration.indexOf('declare module "letterpress"')))
      .toEqual(`declare module "letterpress" {
  interface LetterpressTemplates {
    /** Order shipped */
    "${ids.orderShipped}": OrderShipped.Variables;
    /** Order shipped */
    "order-shipped": OrderShipped.Variables;
    /** Welcome */
    "${ids.welcome}": Welcome.Variables;
    /** Welcome */
    "welcome": Welcome.Variables;
  }
  interface LetterpressLocales {
    /** Welcome */
    "${ids.welcome}": Welcome.Locale;
    /** Welcome */
    "welcome": Welcome.Locale;
  }
}
`);
  });

  it("declares the library's templates, after which a wrong template or variable is a compile error", () => {
    expect(diagnostics({ "letterpress-templates.d.ts": declaration })).toEqual({
      "correct.ts": [],
      "missing-variable.ts": [expect.stringContaining("Property 'orderId' is missing in type")],
      "wrong-type.ts": ["TS2322: Type 'string' is not assignable to type 'number'."],
      "unknown-template.ts": [
        expect.stringMatching(
          /^TS2820: Type '"order-shiped"' is not assignable to type .* Did you mean '"order-shipped"'\?$/,
        ),
        expect.stringContaining("is missing the following properties from type 'Variables': total, status, items"),
      ],
      "wrong-union-member.ts": [`TS2322: Type '"late"' is not assignable to type '"paid" | "due"'.`],
      "misspelt-variable.ts": [
        "TS2353: Object literal may only specify known properties, and 'username' does not exist in type 'OrderShipped.Variables | Welcome.Variables'.",
      ],
      "render-without-variables.ts": ["TS2554: Expected 2 arguments, but got 1."],
      "letterpress-templates.d.ts": [],
    });
  });

  it("without its file, any template and any variables compile", () => {
    expect(diagnostics({})).toEqual(Object.fromEntries(Object.keys(FIXTURES).map((name) => [name, []])));
  });
});
