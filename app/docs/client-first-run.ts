// The typed client's first run, as /docs and the new-key panel show it and tests/client/first-run.test.ts follows it
// in an empty folder. The client is not on the npm registry (a name there is not ours to point people at): the app
// serves it (app/letterpress.tgz/route.ts).

/** Where the app serves the client as an npm package tarball. */
export const CLIENT_TARBALL_PATH = "/letterpress.tgz";

/**
 * What `npx letterpress types` writes by default, and the tsconfig.json under which tsc checks `send` and `render`
 * against it: the client is ESM only, so NodeNext modules in a `"type": "module"` package; Node's types named, as
 * TypeScript 6 and later load none unless told; with no `include`, tsc reads every file of the folder, that one among
 * them.
 */
export const CLIENT_DECLARATION_FILE = "letterpress-templates.d.ts";
export const CLIENT_TSCONFIG = `{
  "compilerOptions": {
    "module": "nodenext",
    "types": ["node"],
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true
  }
}`;

/**
 * The steps from a project's folder (`npm init -y` for a new one) to a type-checked `send`, each a shell command, with
 * LETTERPRESS_API_KEY exported: install the client, TypeScript and Node's types; write tsconfig.json; write the types
 * of the account's templates; compile.
 */
export function clientFirstRunSteps(siteUrl: string): string[] {
  return [
    "npm pkg set type=module  # the client is ESM only",
    `npm install ${siteUrl}${CLIENT_TARBALL_PATH}  # served by this app: the client is not on the npm registry`,
    "npm install -D typescript @types/node",
    `cat > tsconfig.json <<'EOF'\n${CLIENT_TSCONFIG}\nEOF`,
    `LETTERPRESS_BASE_URL=${siteUrl}/api/v1 npx letterpress types  # writes ${CLIENT_DECLARATION_FILE}`,
    "npx tsc  # a wrong template id or variable is a compile error",
  ];
}

/** The first run as one shell block. */
export function clientFirstRun(siteUrl: string): string {
  return clientFirstRunSteps(siteUrl).join("\n");
}
