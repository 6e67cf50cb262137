// The one entry point lib/render/react-email/plain-text.ts uses (html-to-text ships no types of its own).
declare module "html-to-text" {
  export function compile(options?: Record<string, unknown>): (html: string) => string;
}
