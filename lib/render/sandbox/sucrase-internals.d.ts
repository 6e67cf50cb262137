/**
 * Minimal typings for the parts of sucrase's internal parser used by
 * compile.ts (sucrase ships these files but does not expose their types at
 * these paths). Pinned to sucrase 3.x.
 */
declare module "sucrase/dist/parser/index.js" {
  export interface SucraseToken {
    type: number;
    contextualKeyword: number;
    start: number;
    end: number;
  }
  export function parse(
    input: string,
    isJSXEnabled: boolean,
    isTypeScriptEnabled: boolean,
    isFlowEnabled: boolean,
  ): { tokens: SucraseToken[] };
}

declare module "sucrase/dist/parser/tokenizer/types.js" {
  export const TokenType: Readonly<Record<string, number>>;
}

declare module "sucrase/dist/parser/tokenizer/keywords.js" {
  export const ContextualKeyword: Readonly<Record<string, number>>;
}
