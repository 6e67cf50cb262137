import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { templatesDeclaration } from "@/packages/letterpress/src/types-file";
import { addToLibrary, sender } from "../support/api";
import { inProcessClient } from "../support/client";
import { typeErrors } from "../support/typescript";

// `npx letterpress types` gives a localized template's `locale` its tags as a union; other templates take any string.

const GREETING = `export default function Greeting({ name = "there" }: { name?: string }) {
  return <p>Hello {name}</p>;
}
`;

const client = `import { Letterpress } from "letterpress";
const lp = new Letterpress();
`;
const FIXTURES: Record<string, string> = {
  "known-locale.ts": `${client}export const sent = lp.send({ template_id: "greeting", to: "a@example.com", locale: "pt-BR" });
export const rendered = lp.render("greeting", { locale: "fr" });
export const batch = lp.sendBatch({ emails: [{ template_id: "greeting", to: "a@example.com", locale: "en" }] });
export const other = lp.send({
  template_id: "verify-email",
  to: "a@example.com",
  subject: "Hi",
  locale: "ja",
  variables: { verifyUrl: "https://acme.example/v/1" },
});
`,
  "unknown-locale.ts": `${client}export const sent = lp.send({ template_id: "greeting", to: "a@example.com", locale: "de" });
`,
  "render-unknown-locale.ts": `${client}export const rendered = lp.render("greeting", { locale: "fr-CA" });
`,
};

describe("npx letterpress types: locales", () => {
  let declaration: string;
  let id: string;
  let welcomeId: string;
  beforeAll(async () => {
    const user = await sender();
    welcomeId = user.welcomeId;
    // A template without messages: any locale.
    await addToLibrary(user, "verify-email");
    const lp = inProcessClient(user.key);
    const created = await lp.templates.create({
      name: "Greeting",
      files: { "email.tsx": GREETING },
      alias: "greeting",
    });
    id = created.template.id;
    // As a save of messages en, fr and pt-BR stores them.
    const locales = getDb().json([{ tag: "en" }, { tag: "fr" }, { tag: "pt-BR" }]);
    await getDb()`update templates set locales = ${locales}, default_locale = 'en' where id = ${id}`;
    declaration = await templatesDeclaration(lp, () => {});
  });

  it("declares the tags of each template with messages, by id and alias", () => {
    expect(declaration).toContain(`declare namespace Greeting {`);
    expect(declaration).toContain(`  type Locale = "en" | "fr" | "pt-BR";\n}\n`);
    expect(declaration.slice(declaration.indexOf("  interface LetterpressLocales")))
      .toEqual(`  interface LetterpressLocales {
    /** Greeting */
    "${id}": Greeting.Locale;
    /** Greeting */
    "greeting": Greeting.Locale;
    /** Welcome */
    "${welcomeId}": Welcome.Locale;
    /** Welcome */
    "welcome": Welcome.Locale;
  }
}
`);
  });

  it("makes another locale a compile error, and leaves templates without messages any string", () => {
    expect(typeErrors("tests/client/types", { ...FIXTURES, "letterpress-templates.d.ts": declaration })).toEqual({
      "known-locale.ts": [],
      "unknown-locale.ts": [expect.stringContaining(`Type '"de"' is not assignable to type`)],
      "render-unknown-locale.ts": [`TS2322: Type '"fr-CA"' is not assignable to type 'Locale | undefined'.`],
      "letterpress-templates.d.ts": [],
    });
  });
});
