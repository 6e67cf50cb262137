import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `const { secret: _omit, ...rest } = row` is how the code base drops a field from a copy.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
      // Email copy is prose: apostrophes and quotes in JSX text render exactly as written; a stray `>` or `}` is still a bug.
      "react/no-unescaped-entities": ["error", { forbid: [">", "}"] }],
    },
  },
  {
    files: ["tests/**"],
    rules: {
      // Tests read parsed JSON answers and recorded requests by path and compare whole bodies with toEqual.
      "@typescript-eslint/no-explicit-any": "off",
      // Tests define no React components; their `use*` helpers are vitest fixtures that register beforeAll/afterAll.
      "react-hooks/rules-of-hooks": "off",
    },
  },
  // Generated or written by tools (all gitignored).
  globalIgnores([
    ".next/**",
    ".vercel/**",
    ".data/**",
    "node_modules/**",
    "lib/render/**/*.generated.*",
    "next-env.d.ts",
    "coverage/**",
    "test-results/**",
    "playwright-report/**",
    "packages/letterpress/dist/**",
  ]),
]);
