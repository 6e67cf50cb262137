import { compile, type JSONSchema, type Options } from "json-schema-to-typescript";
import type { Letterpress, SuccessBody } from "./client.ts";

/** The most a page of GET /library holds. */
const PAGE = 100;

/** Keywords whose value is a schema. */
const SCHEMA_KEYWORDS = new Set([
  "additionalProperties",
  "contains",
  "else",
  "if",
  "not",
  "propertyNames",
  "then",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
/** Keywords whose value is a schema or a list of schemas. */
const SCHEMA_OR_LIST_KEYWORDS = new Set(["additionalItems", "extends", "items"]);
/** Keywords whose value is a list of schemas. */
const LIST_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords whose value maps names to schemas. */
const NAMED_KEYWORDS = new Set([
  "$defs",
  "definitions",
  "dependencies",
  "dependentSchemas",
  "patternProperties",
  "properties",
]);

/**
 * Whether the ref parser's path (a JSON Pointer from the root, `#/properties/a/default`) leads anywhere but to a
 * schema: into a `default`, `examples`, `const` or `enum`, or any other keyword, whose `$ref` keys are data a
 * template's author wrote, not references.
 */
function isOutsideSchemas(path: string): boolean {
  let expecting: "schema" | "schema or index" | "index" | "name" = "schema";
  for (const token of path.split("/").slice(1)) {
    if (expecting === "index" || expecting === "name") {
      expecting = "schema";
      continue;
    }
    if (expecting === "schema or index" && /^\d+$/.test(token)) {
      expecting = "schema";
      continue;
    }
    const keyword = pointerToken(token);
    if (SCHEMA_KEYWORDS.has(keyword)) expecting = "schema";
    else if (SCHEMA_OR_LIST_KEYWORDS.has(keyword)) expecting = "schema or index";
    else if (LIST_KEYWORDS.has(keyword)) expecting = "index";
    else if (NAMED_KEYWORDS.has(keyword)) expecting = "name";
    else return true;
  }
  return false;
}

/** A JSON Pointer's token as the ref parser writes it (RFC 6901, then URI-encoded), decoded. */
function pointerToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // Not URI-encoded: as written.
  }
  return decoded.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * A schema comes from the API, and so from whoever wrote a template: the ref parser reads no file and fetches no URL
 * (external `$ref`s are left unresolved, and the template is then skipped), and follows no `$ref` outside schemas.
 */
const REF_OPTIONS: Options["$refOptions"] = {
  resolve: { external: false, file: false, http: false },
  dereference: { excludedPathMatcher: isOutsideSchemas },
};

/** `locales`: a template with messages, its tags (the `locale` a render or send may name); null without. */
type Declared = { namespace: string; keys: string[]; name: string; variables: string; locales: string[] | null };

/** A TypeScript identifier made of a template's name: `order-shipped` is `OrderShipped`. */
function identifier(name: string, taken: Set<string>): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const base = words.map((word) => word[0].toUpperCase() + word.slice(1)).join("") || "Template";
  const start = /^[0-9]/.test(base) ? `T${base}` : base;
  let candidate = start;
  for (let n = 2; taken.has(candidate); n++) candidate = `${start}${n}`;
  taken.add(candidate);
  return candidate;
}

/**
 * The variables type of a schema. Its undeclared variables are left out of the type, though the API accepts them with
 * a warning: a misspelt name is then a compile error rather than a variable the template never reads.
 */
async function variablesType(schema: Record<string, unknown>): Promise<string> {
  const closed = JSON.parse(JSON.stringify(schema), (key, value) =>
    key === "additionalProperties" && value === true ? undefined : value,
  );
  // The type is named Variables whatever the schema's title.
  delete closed.title;
  return compile(closed as JSONSchema, "Variables", {
    bannerComment: "",
    additionalProperties: false,
    $refOptions: REF_OPTIONS,
  });
}

/** `text` with its control characters escaped: a name or message printed to a terminal cannot drive it. */
function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The declaration file `npx letterpress types` writes: every template of the caller's library by id, alias and (a
 * catalogue template) slug, with its variables type, in LetterpressTemplates. A template whose schema cannot be made
 * into a type is left out, and `warn` says which and why: one template does not keep the others from being typed.
 */
export async function templatesDeclaration(lp: Letterpress, warn: (message: string) => void): Promise<string> {
  const entries: SuccessBody<"listLibrary">["templates"] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await lp.library.list({ limit: PAGE, offset });
    entries.push(...page.templates);
    if (offset + PAGE >= page.pagination.total) break;
  }
  const templates = [];
  for (const entry of entries) templates.push({ ...(await lp.templates.get(entry.id)).template, entry });
  // A catalogue template answers to its slug too, unless one of your aliases is that name (aliases come first).
  const aliases = new Set(templates.map((template) => template.alias));
  const taken = new Set<string>();
  const declared: Declared[] = [];
  for (const template of templates) {
    let variables: string;
    try {
      variables = await variablesType(template.variables);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      warn(
        printable(
          `Skipped template ${JSON.stringify(template.name)} (${template.id}): its variables schema could not be made into a type: ${reason}`,
        ),
      );
      continue;
    }
    const slug = template.entry.added_via !== "created" && !aliases.has(template.slug) ? template.slug : null;
    declared.push({
      namespace: identifier(template.alias ?? template.slug ?? template.name, taken),
      keys: [template.id, template.alias, slug].filter((key): key is string => key !== null),
      name: template.name,
      variables,
      locales: template.locales && template.locales.length > 0 ? template.locales : null,
    });
  }
  const indent = (text: string) => text.trim().replaceAll("\n", "\n  ");
  const localized = declared.filter(({ locales }) => locales !== null);
  const localeType = (locales: string[]) =>
    `\n  type Locale = ${locales.map((tag) => JSON.stringify(tag)).join(" | ")};`;
  const comment = (name: string) => `/** ${name.replaceAll("*/", "* /")} */`;
  return [
    "// Generated by `npx letterpress types` from your Letterpress library: run it again after changing a template.",
    "export {};",
    "",
    ...declared.map(
      ({ namespace, variables, locales }) =>
        `declare namespace ${namespace} {\n  ${indent(variables)}${locales ? localeType(locales) : ""}\n}\n`,
    ),
    'declare module "letterpress" {',
    "  interface LetterpressTemplates {",
    ...declared.flatMap(({ namespace, keys, name }) =>
      keys.map((key) => `    ${comment(name)}\n    ${JSON.stringify(key)}: ${namespace}.Variables;`),
    ),
    "  }",
    // The locales of the templates with messages: a render's or send's `locale` is one of their tags.
    ...(localized.length === 0
      ? []
      : [
          "  interface LetterpressLocales {",
          ...localized.flatMap(({ namespace, keys, name }) =>
            keys.map((key) => `    ${comment(name)}\n    ${JSON.stringify(key)}: ${namespace}.Locale;`),
          ),
          "  }",
        ]),
    "}",
    "",
  ].join("\n");
}
