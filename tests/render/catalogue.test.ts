import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import * as React from "react";
import { render } from "@react-email/render";
import { describe, expect, it } from "vitest";
import { catalogue, type CatalogueEntry } from "../../emails/_catalogue";

const root = path.resolve(import.meta.dirname, "..", "..");

type Props = Record<string, unknown>;

/** Per-template expectations: required variables and PreviewProps values that must show up in the HTML. */
const expectations: Record<string, { required: string[]; shows: (p: Props) => unknown[] }> = {
  welcome: { required: [], shows: (p) => [p.userName, p.dashboardUrl] },
  "verify-email": {
    required: ["verifyUrl"],
    shows: (p) => [p.verifyUrl, p.verificationCode],
  },
  "magic-link": {
    required: ["loginUrl"],
    shows: (p) => [p.loginUrl, p.loginCode, p.userEmail],
  },
  "password-reset": {
    required: ["resetUrl"],
    shows: (p) => [p.resetUrl, p.userName],
  },
  "team-invite": {
    required: ["inviteUrl"],
    shows: (p) => [p.inviteUrl, p.inviterName, p.teamName],
  },
  receipt: {
    required: ["orderId", "items"],
    shows: (p) => [p.orderId, (p.items as Props[])[0].name, "$92.23"],
  },
  "order-shipped": {
    required: ["trackingUrl"],
    shows: (p) => [p.trackingUrl, p.trackingNumber],
  },
  newsletter: {
    required: ["articles"],
    shows: (p) => [(p.articles as Props[])[0].title, (p.articles as Props[])[1].url, p.unsubscribeUrl],
  },
  "usage-alert": {
    required: ["upgradeUrl"],
    shows: (p) => [p.upgradeUrl, "92,450 / 100,000", "92% used"],
  },
  "trial-ending": {
    required: ["billingUrl"],
    shows: (p) => [p.billingUrl, p.planPrice],
  },
  "payment-failed": {
    required: ["updatePaymentUrl"],
    shows: (p) => [p.updatePaymentUrl, p.invoiceNumber, "$49.00"],
  },
};

const XSS = "<script>alert(1)</script>";
const ALLOWED_IMPORTS = new Set(["react", "@react-email/components", "use-intl/core"]);

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}

/** Replace every string (including inside arrays of objects) with `replacement`. */
function replaceStrings(value: unknown, replacement: string): unknown {
  if (typeof value === "string") return replacement;
  if (Array.isArray(value)) return value.map((v) => replaceStrings(v, replacement));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceStrings(v, replacement)]));
  }
  return value;
}

const components = new Map(await Promise.all(catalogue.map(async (e) => [e.slug, await e.loadComponent()] as const)));

function previewPropsOf(entry: CatalogueEntry): Props {
  return (components.get(entry.slug) as unknown as { PreviewProps: Props }).PreviewProps;
}

function renderEntry(entry: CatalogueEntry, props: Props): Promise<string> {
  return render(React.createElement(components.get(entry.slug)!, props));
}

describe("catalogue manifest", () => {
  it("has at least 8 entries with unique slugs", () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(8);
    const slugs = catalogue.map((e) => e.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it("covers exactly the templates this test has expectations for", () => {
    expect(catalogue.map((e) => e.slug).sort()).toEqual(Object.keys(expectations).sort());
  });

  it("has well-formed metadata and prices", () => {
    for (const e of catalogue) {
      expect(e.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(e.name.length).toBeGreaterThan(0);
      expect(e.description.length).toBeGreaterThan(20);
      expect(e.category.length).toBeGreaterThan(0);
      expect(e.author).toBe("Letterpress");
      expect(e.price).toMatch(/^\d+\.\d{2}$/);
      expect(e.file).toBe(`emails/${e.slug}.tsx`);
    }
    const price = (slug: string) => catalogue.find((e) => e.slug === slug)!.price;
    expect(catalogue.filter((e) => e.price !== "0.00").length).toBeGreaterThanOrEqual(3);
    for (const slug of ["welcome", "magic-link", "password-reset"]) {
      expect(price(slug)).toBe("0.00");
    }
    for (const slug of ["receipt", "newsletter"]) {
      expect(Number(price(slug))).toBeGreaterThan(0);
    }
  });
});

describe.each(catalogue.map((e) => [e.slug, e] as const))("%s", (slug, entry) => {
  const expected = expectations[slug];
  const filePath = path.join(root, entry.file);

  it("file exists and its default export is the entry's component", async () => {
    expect(existsSync(filePath)).toBe(true);
    const mod = (await import(/* @vite-ignore */ filePath)) as { default: unknown };
    expect(mod.default).toBe(components.get(slug));
  });

  it("source imports nothing but react, @react-email/components and, localized, use-intl/core and its messages", () => {
    const source = readFileSync(filePath, "utf8");
    const specifiers = [
      ...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm),
      ...source.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
    ].map((m) => m[1]);
    expect(specifiers.length).toBeGreaterThan(0);
    // A localized template imports createTranslator and its own messages, as React Email's i18n guide does.
    const ownMessages = new RegExp(`^\\./_messages/${slug}/[A-Za-z]{2,3}(-[A-Za-z0-9]+)*\\.json$`);
    for (const s of specifiers) expect(ALLOWED_IMPORTS.has(s) || ownMessages.test(s), s).toBe(true);
    expect(source).not.toMatch(/\brequire\s*\(|\bimport\s*\(/);
    expect(source).not.toMatch(/\b(Tailwind|CodeBlock|CodeInline|Markdown)\b/);
    expect(source).not.toMatch(/\bprocess\.|\bIntl\b|toLocale/);
    expect(source).toMatch(/^export default function [A-Z]\w*\(/m);
    expect(source).toMatch(/\.PreviewProps = \{[\s\S]*\} satisfies \w+Props;/);
  });

  it("PreviewProps pass the variables schema", () => {
    const result = entry.variables.safeParse(previewPropsOf(entry));
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  });

  it("declares exactly the expected required variables", () => {
    const shape = entry.variables.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
    const required = Object.keys(shape).filter((k) => !shape[k].safeParse(undefined).success);
    expect(required.sort()).toEqual([...expected.required].sort());
    // Every schema key is a real component prop (present in PreviewProps).
    expect(Object.keys(shape).sort()).toEqual(Object.keys(previewPropsOf(entry)).sort());
  });

  it("rejects missing required variables", () => {
    const preview = previewPropsOf(entry);
    if (expected.required.length > 0) {
      expect(entry.variables.safeParse({}).success).toBe(false);
    } else {
      expect(entry.variables.safeParse({}).success).toBe(true);
    }
    for (const key of expected.required) {
      const { [key]: _omitted, ...rest } = preview;
      expect(entry.variables.safeParse(rest).success, key).toBe(false);
    }
  });

  it("renders PreviewProps to a full HTML document with the preview values", async () => {
    const preview = previewPropsOf(entry);
    const html = await renderEntry(entry, preview);
    expect(html.startsWith("<!DOCTYPE html")).toBe(true);
    expect(html).toContain('lang="en"');
    for (const value of expected.shows(preview)) {
      expect(typeof value).toBe("string");
      expect(html).toContain(escapeHtml(value as string));
    }
    // Every image has alt text.
    for (const img of html.match(/<img\b[^>]*>/g) ?? []) {
      expect(img).toMatch(/\balt="[^"]+"/);
    }
  });

  it("renders with no props at all", async () => {
    const html = await renderEntry(entry, {});
    expect(html.startsWith("<!DOCTYPE html")).toBe(true);
  });

  it("schema defaults match the component defaults", async () => {
    const preview = previewPropsOf(entry);
    const requiredOnly = Object.fromEntries(expected.required.map((k) => [k, preview[k]]));
    const parsed = entry.variables.parse(requiredOnly) as Props;
    expect(await renderEntry(entry, parsed)).toBe(await renderEntry(entry, requiredOnly));
  });

  it("escapes HTML in every string variable", async () => {
    const hostile = replaceStrings(previewPropsOf(entry), XSS) as Props;
    const html = await renderEntry(entry, hostile);
    expect(html).not.toContain(XSS);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(escapeHtml(XSS));
  });
});

describe("catalogue variables are bounded, so an oversized one is refused before any render", () => {
  type JsonSchema = {
    type?: string;
    format?: string;
    const?: unknown;
    maxLength?: number;
    maxItems?: number;
    properties?: Record<string, JsonSchema>;
    items?: JsonSchema;
    anyOf?: JsonSchema[];
  };
  /** Each string and list in a template's variables, by dotted path (`articles.*.title` for a list's items). */
  function fieldsOf(schema: JsonSchema, prefix = ""): [string, JsonSchema][] {
    const own: [string, JsonSchema][] =
      prefix && (schema.type === "string" || schema.type === "array") ? [[prefix, schema]] : [];
    const nested = [
      // An optional link is `"" | an http(s) URL`: its URL branch carries the bound.
      ...(schema.anyOf ?? [])
        .filter((branch) => branch.const === undefined)
        .flatMap((branch) => fieldsOf(branch, prefix)),
      ...Object.entries(schema.properties ?? {}).flatMap(([name, property]) =>
        fieldsOf(property, prefix ? `${prefix}.${name}` : name),
      ),
      ...(schema.items ? fieldsOf(schema.items, `${prefix}.*`) : []),
    ];
    return [...own, ...nested];
  }
  const bounded = catalogue.map(
    (entry) => [entry.slug, fieldsOf(entry.variables.toJSONSchema({ io: "input" }) as JsonSchema)] as const,
  );

  it.each(bounded)(
    "%s: every text and link variable has a maximum length, every list a maximum count",
    (_slug, fields) => {
      for (const [field, schema] of fields) {
        if (schema.type === "array") expect(schema.maxItems, field).toBeGreaterThan(0);
        else if (schema.format === "uri") expect(schema.maxLength, field).toBe(2_048);
        else expect(schema.maxLength, field).toBeGreaterThan(0);
      }
    },
  );

  it.each(catalogue.map((entry) => [entry.slug, entry] as const))(
    "%s: a value at its bound passes, one more character is refused",
    (_slug, entry) => {
      const preview = previewPropsOf(entry);
      const shape = entry.variables.toJSONSchema({ io: "input" }) as JsonSchema;
      for (const [name, schema] of Object.entries(shape.properties ?? {})) {
        if (schema.type !== "string" || schema.maxLength === undefined) continue;
        const filled = (length: number) =>
          schema.format === "uri" ? "https://acme.test/" + "a".repeat(length - 18) : "a".repeat(length);
        expect(entry.variables.safeParse({ ...preview, [name]: filled(schema.maxLength) }).success, name).toBe(true);
        const over = entry.variables.safeParse({ ...preview, [name]: filled(schema.maxLength + 1) });
        expect(
          over.error?.issues.map(({ path, message }) => ({ path, message })),
          name,
        ).toEqual([
          { path: [name], message: `must be at most ${schema.maxLength.toLocaleString("en-US")} characters` },
        ]);
      }
    },
  );

  it("refuses a newsletter of more than 50 articles and a receipt of more than 100 items", () => {
    const newsletter = catalogue.find((e) => e.slug === "newsletter")!;
    const receipt = catalogue.find((e) => e.slug === "receipt")!;
    const article = (previewPropsOf(newsletter).articles as Props[])[0];
    const item = (previewPropsOf(receipt).items as Props[])[0];
    const articles = (count: number) => ({ ...previewPropsOf(newsletter), articles: Array(count).fill(article) });
    const items = (count: number) => ({ ...previewPropsOf(receipt), items: Array(count).fill(item) });
    expect(newsletter.variables.safeParse(articles(50)).success).toBe(true);
    expect(newsletter.variables.safeParse(articles(51)).error?.issues).toMatchObject([
      { path: ["articles"], message: "must list at most 50 articles" },
    ]);
    expect(newsletter.variables.safeParse(articles(110_000)).error?.issues).toMatchObject([
      { path: ["articles"], message: "must list at most 50 articles" },
    ]);
    expect(receipt.variables.safeParse(items(100)).success).toBe(true);
    expect(receipt.variables.safeParse(items(101)).error?.issues).toMatchObject([
      { path: ["items"], message: "must list at most 100 items" },
    ]);
  });
});

describe("the templates a company sends to many people link to unsubscribing only when given unsubscribeUrl", () => {
  const links: Record<string, string> = {
    newsletter: "Unsubscribe",
    "usage-alert": "Stop usage alerts",
    "trial-ending": "Unsubscribe",
  };
  it.each(Object.entries(links))("%s", async (slug, label) => {
    const entry = catalogue.find((candidate) => candidate.slug === slug)!;
    const url = "https://acme.example/u/tok_Abc-123";
    const given = await renderEntry(entry, entry.variables.parse({ ...previewPropsOf(entry), unsubscribeUrl: url }));
    const { unsubscribeUrl: _left, ...withoutIt } = previewPropsOf(entry);
    const none = await renderEntry(entry, entry.variables.parse(withoutIt));
    const linked = (html: string) =>
      [...html.matchAll(/<a\b[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)]
        .filter(([, , text]) => text === label)
        .map(([, href]) => href);
    expect({
      given: linked(given),
      none: linked(none),
      emptied: linked(await renderEntry(entry, entry.variables.parse({ ...withoutIt, unsubscribeUrl: "" }))),
    }).toEqual({
      given: [url],
      none: [],
      emptied: [],
    });
  });
});
