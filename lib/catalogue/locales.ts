import { createTranslator } from "use-intl/core";
import orderShippedDe from "@/emails/_messages/order-shipped/de.json";
import orderShippedEn from "@/emails/_messages/order-shipped/en.json";
import orderShippedEs from "@/emails/_messages/order-shipped/es.json";
import orderShippedFr from "@/emails/_messages/order-shipped/fr.json";
import orderShippedPtBR from "@/emails/_messages/order-shipped/pt-BR.json";
import passwordResetDe from "@/emails/_messages/password-reset/de.json";
import passwordResetEn from "@/emails/_messages/password-reset/en.json";
import passwordResetEs from "@/emails/_messages/password-reset/es.json";
import passwordResetFr from "@/emails/_messages/password-reset/fr.json";
import passwordResetPtBR from "@/emails/_messages/password-reset/pt-BR.json";
import receiptDe from "@/emails/_messages/receipt/de.json";
import receiptEn from "@/emails/_messages/receipt/en.json";
import receiptEs from "@/emails/_messages/receipt/es.json";
import receiptFr from "@/emails/_messages/receipt/fr.json";
import receiptPtBR from "@/emails/_messages/receipt/pt-BR.json";
import welcomeDe from "@/emails/_messages/welcome/de.json";
import welcomeEn from "@/emails/_messages/welcome/en.json";
import welcomeEs from "@/emails/_messages/welcome/es.json";
import welcomeFr from "@/emails/_messages/welcome/fr.json";
import welcomePtBR from "@/emails/_messages/welcome/pt-BR.json";

// The localized catalogue templates' messages (emails/_messages/<slug>/<tag>.json, the files each component
// imports), here without the components, so that describing a template or making a send's subject loads no React.

/** What this module reads of a locale's messages: the components read the rest. */
type Messages = { subject: string };

/** The catalogue's default locale: every localized catalogue template has it, with every key. */
export const CATALOGUE_DEFAULT_LOCALE = "en";

const messagesBySlug: ReadonlyMap<string, Readonly<Record<string, Messages>>> = new Map([
  ["welcome", { de: welcomeDe, en: welcomeEn, es: welcomeEs, fr: welcomeFr, "pt-BR": welcomePtBR }],
  [
    "order-shipped",
    { de: orderShippedDe, en: orderShippedEn, es: orderShippedEs, fr: orderShippedFr, "pt-BR": orderShippedPtBR },
  ],
  ["receipt", { de: receiptDe, en: receiptEn, es: receiptEs, fr: receiptFr, "pt-BR": receiptPtBR }],
  [
    "password-reset",
    {
      de: passwordResetDe,
      en: passwordResetEn,
      es: passwordResetEs,
      fr: passwordResetFr,
      "pt-BR": passwordResetPtBR,
    },
  ],
]);

/**
 * A catalogue template's locales (BCP 47 tags, in alphabetical order) and its default locale, for GET /templates/{id}
 * and for resolving a render's or a send's `locale`; null for a template without messages, which ignores `locale`.
 */
export function catalogueLocales(slug: string): { locales: string[]; defaultLocale: string } | null {
  const messages = messagesBySlug.get(slug);
  return messages ? { locales: Object.keys(messages).sort(), defaultLocale: CATALOGUE_DEFAULT_LOCALE } : null;
}

/**
 * A localized catalogue template's source as files a user template can be saved from: its component (importing its
 * messages as `./messages/<tag>.json`, as React Email's guide lays them out) and a `messages/<tag>.json` per locale.
 * Null for a template without messages, whose download is its one file.
 */
export function catalogueSourceFiles(
  slug: string,
  code: string,
): { files: Record<string, string>; entry: string } | null {
  const messages = messagesBySlug.get(slug);
  if (!messages) return null;
  const entry = `${slug}.tsx`;
  const files: Record<string, string> = { [entry]: code.replaceAll(`"./_messages/${slug}/`, '"./messages/') };
  for (const tag of Object.keys(messages).sort()) {
    files[`messages/${tag}.json`] = `${JSON.stringify(messages[tag], null, 2)}\n`;
  }
  return { files, entry };
}

/** A catalogue template's top-level `subject` message in one of its locales; null without messages. */
export function catalogueSubjectMessage(slug: string, locale: string): string | null {
  const messages = messagesBySlug.get(slug);
  if (!messages) return null;
  return (Object.hasOwn(messages, locale) ? messages[locale] : messages[CATALOGUE_DEFAULT_LOCALE]).subject;
}

/**
 * The subject of a catalogue template's email in a locale (one of catalogueLocales(slug).locales, as resolved; any
 * other tag gives the default locale's): its top-level `subject` message formatted with the variables (as validated,
 * defaults applied), as the component formats its other messages. Null for a template without messages.
 */
export function catalogueSubject(slug: string, locale: string, variables: Record<string, unknown>): string | null {
  const messages = messagesBySlug.get(slug);
  if (!messages) return null;
  const tag = Object.hasOwn(messages, locale) ? locale : CATALOGUE_DEFAULT_LOCALE;
  const t = createTranslator({ locale: tag, messages: messages[tag], timeZone: "UTC" });
  return t("subject", icuValues(variables));
}

/** The variables an ICU message can take: strings, numbers and dates (lists and objects are left out). */
function icuValues(variables: Record<string, unknown>): Record<string, string | number | Date> {
  return Object.fromEntries(
    Object.entries(variables).filter(
      (entry): entry is [string, string | number | Date] =>
        typeof entry[1] === "string" || typeof entry[1] === "number" || entry[1] instanceof Date,
    ),
  );
}
