import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

// ---------- layers ----------
// The edge (app/, proxy.ts, lib/api/) speaks HTTP and calls services; the services (lib/<domain>/) call data access
// (their domain's data.ts or data/, and lib/db/'s client); nothing below the edge knows about Next's request and response objects. Matched on the import's text, by
// the `@/` alias or a relative path, so that `import type` counts too: a type from lib/db ties a page to its tables.
const dataAccess = {
  regex: "^(@/|(\\.\\./)+)lib/(db|[a-z-]+/data)(/|$|\\.)",
  message:
    "app/ and proxy.ts do not use data access (lib/db/, lib/<domain>/data) directly: call the domain's service in lib/<domain> (e.g. lib/sent-emails/service.ts, lib/sending-domains/service.ts, lib/templates/user-templates.ts), adding a small function there, or re-exporting the type, when none fits.",
};
const appModules = {
  regex: "^(@/|(\\.\\./)+)app(/|$)",
  message:
    "lib/ never imports app/: app/ builds on lib/, not the other way. Move what both need into lib/ (a component's helper into lib/<domain>).",
};
const nextServer = {
  name: "next/server",
  message:
    "Only the HTTP edge (app/, proxy.ts, lib/api/) imports next/server: return the body (or throw an AppError) and let the route, or lib/api/route.ts, make the Response.",
};

// One domain reaches another's data only through that domain's service, so each domain's tables have one door. A
// domain is a folder of lib/ with its data access in data.ts or data/; lib/core, lib/api and lib/db are cross-cutting,
// open to all. lib/dashboard's read models go through services too: a read model with its own SQL path is a second
// answer that can drift from the API's. typescript-eslint's rule, not the core one above: ESLint replaces a rule's
// options per file, so a second core rule on lib/<domain>/** would switch the layer rules off there.
const DOMAINS = [
  "api-keys",
  "auth",
  "billing",
  "catalogue",
  "components",
  "dashboard",
  "mail-transport",
  "render",
  "sending",
  "sending-domains",
  "sent-emails",
  "suppressions",
  "templates",
  "usage",
];
const domainRules = DOMAINS.map((domain) => ({
  files: [`lib/${domain}/**`],
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            group: ["@/lib/*/data", "@/lib/*/data/**", `!@/lib/${domain}/data`, `!@/lib/${domain}/data/**`],
            message: `lib/${domain}/ reaches another domain's data through that domain's service, not its data.`,
          },
        ],
      },
    ],
  },
}));

/** no-restricted-imports' options: a file group's rule replaces, never adds to, an earlier group's for the same files. */
const restrictImports = (...restrictions) => [
  "error",
  {
    paths: restrictions.filter((restriction) => "name" in restriction),
    patterns: restrictions.filter((restriction) => "regex" in restriction),
  },
];

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
    files: ["app/**", "proxy.ts"],
    rules: { "no-restricted-imports": restrictImports(dataAccess) },
  },
  {
    files: ["lib/**"],
    rules: { "no-restricted-imports": restrictImports(appModules, nextServer) },
  },
  {
    // The edge's own helpers; Next's `after()`, which lib/core/background.ts alone wraps for the services that defer
    // work past the response; and the session cookies, read off the edge's NextRequest (withApiAuth's readSession) and
    // refreshed on the proxy's NextResponse (Supabase's Next.js pattern).
    files: [
      "lib/api/**",
      "lib/core/background.ts",
      "lib/auth/session.ts",
      "lib/auth/supabase.ts",
      "lib/auth/supabase-client/**",
    ],
    rules: { "no-restricted-imports": restrictImports(appModules) },
  },
  ...domainRules,
  {
    // Type-checked rules, on every TypeScript source. A promise nobody awaits loses its rejection (an unhandled
    // rejection, or a request answered before its write) and a promise where a callback's void is expected is never
    // awaited. JSX attributes are left out of the void check: a form's `action` (a Server Action) is async by design
    // and React awaits it, and an async onClick or onSubmit handler is React's usual form (the five in app/ put their
    // failures in the page's state).
    files: [
      "app/**/*.{ts,tsx}",
      "lib/**/*.{ts,tsx}",
      "components/**/*.{ts,tsx}",
      "emails/**/*.{ts,tsx}",
      "scripts/**/*.ts",
      "tests/**/*.{ts,tsx}",
      "packages/letterpress/src/**/*.ts",
      "*.ts",
    ],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
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
