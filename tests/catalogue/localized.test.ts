/**
 * The localized catalogue templates (welcome, order-shipped, password-reset, receipt): messages per locale in
 * emails/_messages/<slug>/<tag>.json, a `locale` prop, createTranslator from use-intl/core, as React Email's
 * internationalization guide writes them; rendered natively, on the event loop and on the catalogue worker.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { render, toPlainText } from "@react-email/render";
import { createElement, type ComponentType } from "react";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { catalogue, getCatalogueEntry } from "@/lib/catalogue/catalogue";
import { catalogueLocales, catalogueSubject } from "@/lib/catalogue/locales";
import { renderCatalogueOffThread, stopCatalogueWorkers } from "@/lib/render/workers/catalogue-pool";

const root = path.resolve(import.meta.dirname, "..", "..");
const LOCALES = ["de", "en", "es", "fr", "pt-BR"];
const LOCALIZED = ["order-shipped", "password-reset", "receipt", "welcome"];
const NNBSP = "\u202f"; // French groups digits with a narrow no-break space
const NBSP = "\u00a0";
const OWNER = "localized-catalogue-test";
const MUG = { name: "Mug", quantity: 2, unitPrice: 1234.5 };

type Props = Record<string, unknown>;
type Component = ComponentType<Props> & { PreviewProps: Props };

afterAll(() => stopCatalogueWorkers());

const consoleErrors = vi.spyOn(console, "error");
beforeEach(() => void consoleErrors.mockClear());

async function componentOf(slug: string): Promise<Component> {
  return (await getCatalogueEntry(slug)!.loadComponent()) as Component;
}

/** The props a render gets: the variables as validated (defaults applied), then the resolved locale. */
function propsFor(slug: string, variables: Props, locale?: string): Props {
  const props = getCatalogueEntry(slug)!.variables.parse(variables) as Props;
  return locale === undefined ? props : { ...props, locale };
}

/** The HTML without React's `<!-- -->` between adjacent text parts, and its plain text. */
async function rendered(slug: string, props: Props): Promise<{ html: string; text: string }> {
  const html = await render(createElement(await componentOf(slug), props));
  return { html: html.replaceAll("<!-- -->", ""), text: toPlainText(html) };
}

function messagesOf(slug: string, tag: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(root, "emails/_messages", slug, `${tag}.json`), "utf8"));
}

/** Every message of a messages file by its dotted key. */
function flatten(messages: Record<string, unknown>, prefix = ""): [string, string][] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === "string"
      ? [[`${prefix}${key}`, value] as [string, string]]
      : flatten(value as Record<string, unknown>, `${prefix}${key}.`),
  );
}

/** The argument and tag names a message uses. */
function argumentsOf(elements: MessageFormatElement[]): string[] {
  return elements.flatMap((element) => {
    if (element.type === TYPE.literal || element.type === TYPE.pound) return [];
    const own = [element.value];
    if (element.type === TYPE.tag) return [...own, ...argumentsOf(element.children)];
    if (element.type === TYPE.select || element.type === TYPE.plural)
      return [...own, ...Object.values(element.options).flatMap((option) => argumentsOf(option.value))];
    return own;
  });
}

/**
 * No message was missing or failed to format (use-intl reports each on the console and shows its key), and no key
 * that reads as one (dotted or camelCase), ICU syntax, rich-text tag or empty paragraph is left in a render.
 */
function expectNoRawMessage(slug: string, html: string, text: string): void {
  expect(consoleErrors.mock.calls).toEqual([]);
  for (const [key] of flatten(messagesOf(slug, "en")).filter(([k]) => /[.A-Z]/.test(k)))
    expect(text, key).not.toContain(key);
  expect(text).not.toMatch(/[{}]|<\/?(docs|support|link)>/);
  expect(html).not.toMatch(/<p\b[^>]*><\/p>|<h1\b[^>]*><\/h1>|<a\b[^>]*><\/a>/);
}

describe("catalogueLocales", () => {
  it("gives the five locales and en as default for each localized template, null for the others", () => {
    for (const slug of LOCALIZED)
      expect(catalogueLocales(slug), slug).toEqual({ locales: LOCALES, defaultLocale: "en" });
    for (const entry of catalogue.filter((e) => !LOCALIZED.includes(e.slug)))
      expect(catalogueLocales(entry.slug), entry.slug).toBeNull();
    expect(catalogueLocales("no-such-template")).toBeNull();
  });
});

describe("the messages files", () => {
  it.each(LOCALIZED)(
    "%s: one file per locale, each with exactly en's keys, valid ICU and only en's arguments",
    (slug) => {
      const files = readdirSync(path.join(root, "emails/_messages", slug)).sort();
      expect(files).toEqual(LOCALES.map((tag) => `${tag}.json`));
      const english = new Map(flatten(messagesOf(slug, "en")));
      expect(english.get("subject")).toEqual(expect.any(String));
      for (const tag of LOCALES) {
        const messages = new Map(flatten(messagesOf(slug, tag)));
        expect([...messages.keys()].sort(), tag).toEqual([...english.keys()].sort());
        for (const [key, message] of messages) {
          expect(message.trim(), `${tag} ${key}`).not.toBe("");
          const used = new Set(argumentsOf(parse(message)));
          const allowed = new Set(argumentsOf(parse(english.get(key)!)));
          for (const name of used) expect(allowed.has(name), `${tag} ${key}: {${name}}`).toBe(true);
        }
      }
    },
  );
});

/** Whole subjects and key phrases of each template in each locale, with the variables each case gives. */
const cases: {
  slug: string;
  name: string;
  variables: Props;
  subject: Record<string, string>;
  shows: Record<string, string[]>;
}[] = [
  {
    slug: "welcome",
    name: "a named user",
    variables: { userName: "Ada", productName: "Acme", docsUrl: "https://acme.test/docs" },
    subject: {
      en: "Welcome to Acme, Ada!",
      fr: `Bienvenue sur Acme, Ada${NBSP}!`,
      de: "Willkommen bei Acme, Ada!",
      es: "¡Te damos la bienvenida a Acme, Ada!",
      "pt-BR": "Boas-vindas ao Acme, Ada!",
    },
    shows: {
      en: ['Our <a href="https://acme.test/docs"', ">getting-started guide</a> walks", "Go to your dashboard"],
      fr: ['Notre <a href="https://acme.test/docs"', ">guide de démarrage</a> explique", "L’équipe Acme"],
      de: ['Unser <a href="https://acme.test/docs"', ">Leitfaden für den Einstieg</a> erklärt", "Ihr Acme-Team"],
      es: ['Nuestra <a href="https://acme.test/docs"', ">guía de primeros pasos</a> lo", "El equipo de Acme"],
      "pt-BR": ['Nosso <a href="https://acme.test/docs"', ">guia de primeiros passos</a> explica", "Equipe Acme"],
    },
  },
  {
    slug: "welcome",
    name: "no name (the default, there)",
    variables: {},
    subject: {
      en: "Welcome to Acme, there!",
      fr: `Bienvenue sur Acme${NBSP}!`,
      de: "Willkommen bei Acme!",
      es: "¡Te damos la bienvenida a Acme!",
      "pt-BR": "Boas-vindas ao Acme!",
    },
    shows: {
      en: ["Welcome to Acme, there!</h1>"],
      fr: [`Bienvenue sur Acme${NBSP}!</h1>`],
      de: ["Willkommen bei Acme!</h1>"],
      es: ["¡Te damos la bienvenida a Acme!</h1>"],
      "pt-BR": ["Boas-vindas ao Acme!</h1>"],
    },
  },
  {
    slug: "order-shipped",
    name: "2 items and a delivery date",
    variables: {
      trackingUrl: "https://t.test/1",
      orderId: "A-10482",
      customerName: "Ada",
      itemCount: 2,
      estimatedDeliveryDate: "2025-03-06",
    },
    subject: {
      en: "Your order #A-10482 is on its way",
      fr: `Votre commande n°${NBSP}A-10482 est en route`,
      de: "Ihre Bestellung Nr. A-10482 ist unterwegs",
      es: "Tu pedido n.º A-10482 está en camino",
      "pt-BR": "Seu pedido nº A-10482 está a caminho",
    },
    shows: {
      en: [">2 items</p>", ">Thursday, March 6</p>", "Estimated delivery: Thursday, March 6.", "Good news, Ada!"],
      fr: [
        ">2 articles</p>",
        ">jeudi 6 mars</p>",
        `Livraison prévue${NBSP}: jeudi 6 mars.`,
        `Bonne nouvelle, Ada${NBSP}!`,
      ],
      de: [">2 Artikel</p>", ">Donnerstag, 6. März</p>", "Voraussichtliche Zustellung: Donnerstag, 6. März."],
      es: [
        ">2 artículos</p>",
        ">jueves, 6 de marzo</p>",
        "Entrega estimada: jueves, 6 de marzo.",
        "¡Buenas noticias, Ada!",
      ],
      "pt-BR": [">2 itens</p>", ">quinta-feira, 6 de março</p>", "Previsão de entrega: quinta-feira, 6 de março."],
    },
  },
  {
    slug: "order-shipped",
    name: "1 item, no name",
    variables: { trackingUrl: "https://t.test/1", itemCount: 1 },
    subject: {
      en: "Your order #0000 is on its way",
      fr: `Votre commande n°${NBSP}0000 est en route`,
      de: "Ihre Bestellung Nr. 0000 ist unterwegs",
      es: "Tu pedido n.º 0000 está en camino",
      "pt-BR": "Seu pedido nº 0000 está a caminho",
    },
    shows: {
      en: [">1 item</p>", "Good news, there! Your order"],
      fr: [">1 article</p>", `Bonne nouvelle${NBSP}! Votre commande`],
      de: [">1 Artikel</p>", "Gute Nachrichten! Ihre Bestellung"],
      es: [">1 artículo</p>", "¡Buenas noticias! Tu pedido"],
      "pt-BR": [">1 item</p>", "Boas notícias! Seu pedido"],
    },
  },
  {
    slug: "order-shipped",
    name: "0 and 1,500 items (CLDR's one takes 0 in fr and pt; grouping by locale)",
    variables: { trackingUrl: "https://t.test/1", itemCount: 0 },
    subject: {
      en: "Your order #0000 is on its way",
      fr: `Votre commande n°${NBSP}0000 est en route`,
      de: "Ihre Bestellung Nr. 0000 ist unterwegs",
      es: "Tu pedido n.º 0000 está en camino",
      "pt-BR": "Seu pedido nº 0000 está a caminho",
    },
    shows: {
      en: [">0 items</p>"],
      fr: [">0 article</p>"],
      de: [">0 Artikel</p>"],
      es: [">0 artículos</p>"],
      "pt-BR": [">0 item</p>"],
    },
  },
  {
    slug: "password-reset",
    name: "2 hours, from a place",
    variables: { resetUrl: "https://r.test/1", userName: "Ada", expiresInMinutes: 120, requestedFrom: "Firefox" },
    subject: {
      en: "Reset your Acme password",
      fr: "Réinitialisez votre mot de passe Acme",
      de: "Setzen Sie Ihr Acme-Passwort zurück",
      es: "Restablece tu contraseña de Acme",
      "pt-BR": "Redefina sua senha do Acme",
    },
    shows: {
      en: ["Hi Ada,", "account from Firefox. Click", "This link expires in 2 hours."],
      fr: ["Bonjour Ada,", "compte Acme depuis Firefox.", `Ce lien expire dans 2${NBSP}heures.`],
      de: ["Hallo Ada,", "(Anfrage von: Firefox)", "Dieser Link ist 2 Stunden lang gültig."],
      es: ["Hola, Ada:", "cuenta de Acme desde Firefox.", "Este enlace caduca en 2 horas."],
      "pt-BR": ["Olá, Ada,", "no Acme a partir de Firefox.", "Este link expira em 2 horas."],
    },
  },
  {
    slug: "password-reset",
    name: "1 hour, no name",
    variables: { resetUrl: "https://r.test/1" },
    subject: {
      en: "Reset your Acme password",
      fr: "Réinitialisez votre mot de passe Acme",
      de: "Setzen Sie Ihr Acme-Passwort zurück",
      es: "Restablece tu contraseña de Acme",
      "pt-BR": "Redefina sua senha do Acme",
    },
    shows: {
      en: [">Hi there,</p>", "This link expires in 1 hour."],
      fr: [">Bonjour,</p>", `Ce lien expire dans 1${NBSP}heure.`],
      de: [">Hallo,</p>", "Dieser Link ist eine Stunde lang gültig."],
      es: [">Hola:</p>", "Este enlace caduca en 1 hora."],
      "pt-BR": [">Olá,</p>", "Este link expira em 1 hora."],
    },
  },
  {
    slug: "password-reset",
    name: "1 minute and 1,500 minutes",
    variables: { resetUrl: "https://r.test/1", expiresInMinutes: 1 },
    subject: {
      en: "Reset your Acme password",
      fr: "Réinitialisez votre mot de passe Acme",
      de: "Setzen Sie Ihr Acme-Passwort zurück",
      es: "Restablece tu contraseña de Acme",
      "pt-BR": "Redefina sua senha do Acme",
    },
    shows: {
      en: ["This link expires in 1 minute."],
      fr: [`Ce lien expire dans 1${NBSP}minute.`],
      de: ["Dieser Link ist eine Minute lang gültig."],
      es: ["Este enlace caduca en 1 minuto."],
      "pt-BR": ["Este link expira em 1 minuto."],
    },
  },
  {
    slug: "receipt",
    name: "in euros, with a discount",
    variables: { orderId: "A-7", customerName: "Ada", items: [MUG], currency: "EUR", discountAmount: 5 },
    subject: {
      en: "Your Acme Store receipt for order #A-7",
      fr: `Votre reçu Acme Store pour la commande n°${NBSP}A-7`,
      de: "Ihre Quittung von Acme Store für Bestellung Nr. A-7",
      es: "Tu recibo de Acme Store del pedido n.º A-7",
      "pt-BR": "Seu recibo da Acme Store do pedido nº A-7",
    },
    shows: {
      en: [">Qty 2 × €1,234.50</p>", ">€2,469.00</p>", ">-€5.00</p>", ">€2,464.00</p>", "order #A-7: €2,464.00"],
      fr: [
        `>Qté 2 × 1${NNBSP}234,50${NBSP}€</p>`,
        `>2${NNBSP}469,00${NBSP}€</p>`,
        `>-5,00${NBSP}€</p>`,
        `>Total payé</p>`,
        `commande n°${NBSP}A-7${NBSP}: 2${NNBSP}464,00${NBSP}€`,
      ],
      de: [`>Menge 2 × 1.234,50${NBSP}€</p>`, `>2.469,00${NBSP}€</p>`, `>-5,00${NBSP}€</p>`, ">Gezahlter Betrag</p>"],
      es: [`>Cant. 2 × 1234,50${NBSP}€</p>`, `>2469,00${NBSP}€</p>`, `>-5,00${NBSP}€</p>`, ">Total pagado</p>"],
      "pt-BR": [`>Qtd. 2 × €${NBSP}1.234,50</p>`, `>€${NBSP}2.469,00</p>`, `>-€${NBSP}5,00</p>`, ">Total pago</p>"],
    },
  },
  {
    slug: "receipt",
    name: "with a currency symbol and no name",
    variables: { orderId: "A-8", items: [MUG], currencySymbol: "$" },
    subject: {
      en: "Your Acme Store receipt for order #A-8",
      fr: `Votre reçu Acme Store pour la commande n°${NBSP}A-8`,
      de: "Ihre Quittung von Acme Store für Bestellung Nr. A-8",
      es: "Tu recibo de Acme Store del pedido n.º A-8",
      "pt-BR": "Seu recibo da Acme Store do pedido nº A-8",
    },
    shows: {
      en: [">Qty 2 × $1234.50</p>", ">$2469.00</p>", "Hi there, we&#x27;ve received your payment."],
      fr: [`>Qté 2 × 1234,50${NBSP}$</p>`, `>2469,00${NBSP}$</p>`, ">Bonjour, nous avons bien reçu votre paiement."],
      de: [`>Menge 2 × 1234,50${NBSP}$</p>`, `>2469,00${NBSP}$</p>`, ">Hallo, wir haben Ihre Zahlung erhalten."],
      es: [`>Cant. 2 × 1234,50${NBSP}$</p>`, `>2469,00${NBSP}$</p>`, ">Hola: hemos recibido tu pago."],
      "pt-BR": [`>Qtd. 2 × $${NBSP}1234,50</p>`, `>$${NBSP}2469,00</p>`, ">Olá! Recebemos o seu pagamento."],
    },
  },
];

describe.each(cases)("$slug, $name", ({ slug, variables, subject, shows }) => {
  it.each(LOCALES)("in %s: the subject, the phrases, the lang attribute and no raw message", async (tag) => {
    const props = propsFor(slug, variables, tag);
    expect(catalogueSubject(slug, tag, props)).toBe(subject[tag]);
    const { html, text } = await rendered(slug, props);
    expect(html).toContain(`<html dir="ltr" lang="${tag}">`);
    for (const phrase of shows[tag]) expect(html, phrase).toContain(phrase);
    expectNoRawMessage(slug, html, text);
  });
});

describe("numbers are grouped as each locale writes them", () => {
  const grouped = { en: "1,500", fr: "1\u202f500", de: "1.500", es: "1500", "pt-BR": "1.500" } as Record<
    string,
    string
  >;
  const itemWords = { en: "items", fr: "articles", de: "Artikel", es: "artículos", "pt-BR": "itens" } as Record<
    string,
    string
  >;
  it.each(LOCALES)("in %s: 1,500 items and 1,501 minutes", async (tag) => {
    const shipped = await rendered(
      "order-shipped",
      propsFor("order-shipped", { trackingUrl: "https://t.test/1", itemCount: 1500 }, tag),
    );
    expect(shipped.html).toContain(`>${grouped[tag]} ${itemWords[tag]}</p>`);
    const reset = await rendered(
      "password-reset",
      propsFor("password-reset", { resetUrl: "https://r.test/1", expiresInMinutes: 1501 }, tag),
    );
    expect(reset.text).toContain(grouped[tag].replace("500", "501"));
  });
});

describe("a locale the template lacks reads as en", () => {
  it.each(LOCALIZED)("%s: it, fr-CA, a malformed tag and __proto__ render and title as en does", async (slug) => {
    const variables = { trackingUrl: "https://t.test/1", resetUrl: "https://r.test/1", orderId: "A-1", items: [MUG] };
    const english = await rendered(slug, propsFor(slug, variables, "en"));
    for (const tag of ["it", "fr-CA", "not a tag", "__proto__"]) {
      expect(await rendered(slug, propsFor(slug, variables, tag)), tag).toEqual(english);
      expect(catalogueSubject(slug, tag, propsFor(slug, variables)), tag).toBe(
        catalogueSubject(slug, "en", propsFor(slug, variables)),
      );
    }
    // No locale at all is en too.
    expect(await rendered(slug, propsFor(slug, variables))).toEqual(english);
  });

  it("a template without messages has no subject message", () => {
    expect(catalogueSubject("newsletter", "fr", {})).toBeNull();
  });
});

describe("in English, the templates read as before they were localized", () => {
  const fixture = JSON.parse(
    readFileSync(path.join(import.meta.dirname, "fixtures/english-before-localization.json"), "utf8"),
  ) as {
    cases: { slug: string; name: string; props: Props; htmlSha256: string; text: string }[];
  };
  // The only change: a sentence is one message now, so React writes fewer `<!-- -->` between its text parts.
  it.each(fixture.cases.map((c) => [`${c.slug}: ${c.name}`, c] as const))(
    "%s: the same plain text, and the same HTML but for React's text separators",
    async (_name, { slug, props, htmlSha256, text }) => {
      for (const locale of [undefined, "en"]) {
        const now = await rendered(slug, locale ? { ...props, locale } : props);
        expect(now.text).toBe(text);
        expect(createHash("sha256").update(now.html).digest("hex")).toBe(htmlSha256);
      }
    },
  );
});

describe("the catalogue worker renders each locale natively", () => {
  it.each(LOCALIZED)("%s: the worker's HTML in each locale is render()'s", async (slug) => {
    const component = await componentOf(slug);
    for (const tag of LOCALES) {
      const props = propsFor(slug, component.PreviewProps, tag);
      const expected = await render(createElement(component, props));
      expect(await renderCatalogueOffThread(OWNER, slug, props, true), tag).toEqual({
        html: expected,
        text: toPlainText(expected),
      });
      expect(expected).toContain(`<html dir="ltr" lang="${tag}">`);
    }
  });
});

describe("React Email's preview server shows each locale", () => {
  it.each(LOCALIZED)(
    "%s: a file in emails/locales/<slug>/ for every locale but en, rendering in that locale",
    async (slug) => {
      const dir = path.join(root, "emails/locales", slug);
      expect(readdirSync(dir).sort()).toEqual(LOCALES.filter((tag) => tag !== "en").map((tag) => `${tag}.tsx`));
      for (const tag of LOCALES.filter((t) => t !== "en")) {
        const preview = ((await import(/* @vite-ignore */ path.join(dir, `${tag}.tsx`))) as { default: Component })
          .default;
        expect(getCatalogueEntry(slug)!.variables.safeParse(preview.PreviewProps).success, tag).toBe(true);
        const html = await render(createElement(preview, preview.PreviewProps));
        expect(html, tag).toContain(`<html dir="ltr" lang="${tag}">`);
        const { text } = await rendered(slug, preview.PreviewProps);
        expectNoRawMessage(slug, html, text);
      }
    },
  );
});
