/**
 * Single source of truth for what user templates may import inside the
 * QuickJS sandbox. Shared by the runtime build script (what gets bundled),
 * the compiler (what is accepted at compile time) and the tests.
 *
 * Keep this file dependency-free: it is imported by server code, by
 * `scripts/build-sandbox-runtime.ts` and by tests.
 */

/**
 * The names under which templates import use-intl/core (bundled from the published package): React Email's
 * internationalization guide imports `createTranslator` from next-intl.
 */
export const SANDBOX_INTL_MODULES = ["next-intl", "use-intl", "use-intl/core"] as const;

/** Module specifiers a template may import / require. */
export const ALLOWED_MODULES = [
  "react",
  "react/jsx-runtime",
  "@react-email/components",
  ...SANDBOX_INTL_MODULES,
] as const;
export type AllowedModule = (typeof ALLOWED_MODULES)[number];

export function isAllowedModule(specifier: string): specifier is AllowedModule {
  return (ALLOWED_MODULES as readonly string[]).includes(specifier);
}

/**
 * Individual React Email packages that `@react-email/components` re-exports
 * and that are bundled into the sandbox runtime. Deliberately excluded:
 * code-block (prismjs), markdown (marked), tailwind (tailwindcss) and render
 * (prettier / html-to-text): too heavy for QuickJS or meaningless inside it.
 * Tailwind has a stand-in of ours instead (SANDBOX_TAILWIND_EXPORTS).
 */
export const SANDBOX_COMPONENT_PACKAGES = [
  "@react-email/body",
  "@react-email/button",
  "@react-email/code-inline",
  "@react-email/column",
  "@react-email/container",
  "@react-email/font",
  "@react-email/head",
  "@react-email/heading",
  "@react-email/hr",
  "@react-email/html",
  "@react-email/img",
  "@react-email/link",
  "@react-email/preview",
  "@react-email/row",
  "@react-email/section",
  "@react-email/text",
] as const;

/**
 * Named exports of `@react-email/components` available inside the sandbox
 * (the union of the exports of SANDBOX_COMPONENT_PACKAGES). The build script
 * warns and the test suite fails if this drifts from the bundled packages.
 */
export const SANDBOX_COMPONENT_EXPORTS = [
  "Body",
  "Button",
  "CodeInline",
  "Column",
  "Container",
  "Font",
  "Head",
  "Heading",
  "Hr",
  "Html",
  "Img",
  "Link",
  "Preview",
  "Row",
  "Section",
  "Text",
  "renderWhiteSpace",
] as const;

/**
 * Exports of `@react-email/components` the sandbox provides through ./tailwind-runtime.ts, which applies the CSS
 * Tailwind made when the template was saved (./tailwind-styles.ts).
 */
export const SANDBOX_TAILWIND_EXPORTS = ["Tailwind", "pixelBasedPreset"] as const;

/** Exports of the real `@react-email/components` that the sandbox does not provide, with a reason. */
export const UNAVAILABLE_COMPONENT_EXPORTS: Readonly<Record<string, string>> = {
  CodeBlock: "CodeBlock is not available in uploaded templates; use CodeInline or <pre>",
  Markdown: "Markdown is not available in uploaded templates",
  render: "render() cannot be called from a template",
  pretty: "pretty() cannot be called from a template",
  toPlainText: "toPlainText() cannot be called from a template",
};

/**
 * The exports of use-intl/core, which each of SANDBOX_INTL_MODULES gives in the sandbox. The build script warns and the
 * test suite fails if this drifts from the installed package.
 */
export const SANDBOX_INTL_EXPORTS = [
  "IntlError",
  "IntlErrorCode",
  "_createCache",
  "_createIntlFormatters",
  "createFormatter",
  "createTranslator",
  "hasLocale",
  "initializeConfig",
] as const;
