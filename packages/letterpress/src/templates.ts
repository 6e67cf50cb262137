import type { components } from "./openapi.ts";

/**
 * The templates of your library by id, alias and slug, each with its variables type. Empty until `npx letterpress
 * types` writes a declaration file that fills it (declaration merging); while empty, any template id is accepted and
 * `variables` is any object.
 */
// An interface, not a type: only an interface can be augmented by the generated file.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LetterpressTemplates {}

/**
 * The locales of the templates with messages, by id, alias and slug: each a union of its tags. Filled by the same
 * generated file; a template not in it takes any `locale` (a template without messages ignores it).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LetterpressLocales {}

type Registered = keyof LetterpressTemplates & string;

/** The `locale` template `T` takes: one of its tags once declared, else any string. */
export type TemplateLocale<T extends string> = T extends keyof LetterpressLocales ? LetterpressLocales[T] : string;

type LocaleOf<T extends string> = { locale?: TemplateLocale<T> };

/** A template's id, alias or slug: one of those declared once the generated file is there, else any string. */
export type TemplateId = [Registered] extends [never] ? string : Registered;

/** The variables of template `T`: its declared type, or any object while the templates are not declared. */
export type TemplateVariables<T extends string> = T extends Registered
  ? LetterpressTemplates[T]
  : Record<string, unknown>;

/** `variables` as a property: required when the template requires one of them. */
type VariablesOf<V> = Record<never, never> extends V ? { variables?: V } : { variables: V };

/** A body naming a template: with the templates declared, one member per template, its variables typed. */
type ForTemplate<B extends { template_id: string }> = [Registered] extends [never]
  ? B
  : {
      [T in Registered]: Omit<B, "template_id" | "variables" | "locale"> & { template_id: T } & VariablesOf<
          LetterpressTemplates[T]
        > &
        LocaleOf<T>;
    }[Registered];

/** POST /send's body. */
export type SendBody = ForTemplate<components["schemas"]["SendRequest"]>;

/** POST /send/batch's body. */
export type SendBatchBody = { emails: ForTemplate<components["schemas"]["SendBatchRequest"]["emails"][number]>[] };

/** POST /templates/{id}/render's body, for template `T`. */
export type RenderBody<T extends string> = Omit<components["schemas"]["RenderRequest"], "variables" | "locale"> &
  VariablesOf<TemplateVariables<T>> &
  LocaleOf<T>;
