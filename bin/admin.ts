import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { hashPassword } from "@/lib/auth/passwords";
import { createAccount, getAccountByEmailOrThrow, setAccountPlan } from "@/lib/auth/data/accounts";
import { API_KEY_SCOPES, type ApiKeyScope } from "@/lib/api-keys/service";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/api-keys/data";
import { AppError } from "@/lib/core/errors";
import { addLibraryEntry } from "@/lib/catalogue/data/library";
import { listOutbox } from "@/lib/sent-emails/data/outbox";
import { findSendingDomain } from "@/lib/sending-domains/data";
import { registerSendingDomain, verifySendingDomain } from "@/lib/sending-domains/service";
import { findLibraryTemplate } from "@/lib/templates/data/templates";
import { listCatalogue } from "@/lib/catalogue/data/catalogue";
import { isPlanName, PLAN_NAMES } from "@/lib/core/plans";
import { isUuid } from "@/lib/core/schemas";
import { isTemplateAlias, templateAliasProblem } from "@/lib/templates/alias";
import {
  createTemplateFromSource,
  restyleTailwindTemplates,
  replaceTemplateFromSource,
  type TemplateSource,
} from "@/lib/templates/user-templates";
import { connectDatabase, prepareDatabase } from "./database";

// npm run -s admin -- <command> [--flags]: JSON on stdout; a message on stderr and exit 1 on error.

class UsageError extends Error {}

const USAGE = `Usage: npm run -s admin -- <command> [options]
  user:create --email E [--plan free|monthly|annual] [--password P]
  key:create --email E [--name N] [--test] [--scope full_access|sending_access] [--domain D] [--expires-in-days N]
  key:list --email E
  key:revoke --id ID
  plan:set --email E --plan P
  catalogue
  template:create --email E --name N --file PATH.tsx [--file PATH …] [--entry PATH] [--description D] [--alias A]
                  [--draft]
  template:update --email E --id ID_OR_ALIAS --file PATH.tsx [--file PATH …] [--entry PATH] [--name N]
                  [--description D] [--alias A] [--draft]   (without --alias the template keeps its alias)
                  (both publish the files as the template's next version; with --draft they are saved as its draft)
  template:restyle [--email E]   (once after upgrading: makes user templates' Tailwind styles again from their source)
  library:add --email E --template ID_OR_SLUG
  domain:add --email E --domain D [--verified] [--default-sender ADDRESS]
  domain:verify --email E --domain D
  outbox --email E`;

type Flags = Record<string, string | string[] | boolean | undefined>;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value.trim();
}

/**
 * The template in the --file flags: one file as its source; several as files by their path relative to the folder
 * holding them all (`--file emails/welcome/email.tsx --file emails/welcome/components/footer.tsx` gives `email.tsx`
 * and `components/footer.tsx`), the entry being --entry's file, else the only file, else email.tsx. `fileOf` maps a
 * path in an error back to the file as given.
 */
async function templateSource(
  flags: Flags,
): Promise<{ source: TemplateSource; fileOf: (path: string | null) => string }> {
  const given = typeof flags.file === "string" ? [flags.file] : ((flags.file as string[] | undefined) ?? []);
  if (given.length === 0) throw new UsageError("--file is required");
  const read = (file: string) =>
    readFile(file, "utf8").catch(() => {
      throw new UsageError(`Cannot read --file ${file}`);
    });
  if (given.length === 1) return { source: { code: await read(given[0]) }, fileOf: () => given[0] };
  const absolute = given.map((file) => path.resolve(file));
  const root = absolute
    .map((file) => path.dirname(file))
    .reduce((common, folder) => {
      while (isOutside(path.relative(common, folder))) common = path.dirname(common);
      return common;
    });
  const pathOf = (file: string) => path.relative(root, path.resolve(file)).split(path.sep).join("/");
  const files: Record<string, string> = {};
  for (const file of given) files[pathOf(file)] = await read(file);
  const entry = typeof flags.entry === "string" ? pathOf(flags.entry) : undefined;
  return {
    source: { files, ...(entry !== undefined ? { entry } : {}) },
    fileOf: (error) => given.find((file) => pathOf(file) === error) ?? error ?? given.join(", "),
  };
}

const isOutside = (relative: string) => relative === ".." || relative.startsWith(`..${path.sep}`);

/**
 * A refused source in the compiler's words, after its file:line:column as compilers say it, so a terminal or editor can
 * jump there.
 */
function locatedError(fileOf: (path: string | null) => string) {
  return (error: unknown): never => {
    const source = error instanceof AppError ? error.options.source : undefined;
    if (!source) throw error;
    const where = source.line === undefined ? "" : `${fileOf(source.path ?? null)}:${source.line}:${source.column}: `;
    throw new Error(`${where}${source.message}`, { cause: error });
  };
}

/** --alias, checked as the API checks an alias; undefined without it. */
function aliasFlag(flags: Flags): string | undefined {
  if (typeof flags.alias !== "string") return undefined;
  const problem = templateAliasProblem(flags.alias);
  if (problem) throw new UsageError(`--alias ${problem}`);
  return flags.alias;
}

function isApiKeyScope(value: string): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly string[]).includes(value);
}

function plan(value: string) {
  if (!isPlanName(value)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(", ")}`);
  return value;
}

const commands: Record<string, (flags: Flags) => Promise<unknown>> = {
  "user:create": async (flags) => {
    const email = required(flags, "email");
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError("--email must be an email address");
    const password = typeof flags.password === "string" ? flags.password : undefined;
    if (password !== undefined && password.length < 8) throw new UsageError("--password must be at least 8 characters");
    const account = await createAccount({
      email,
      plan: typeof flags.plan === "string" ? plan(flags.plan) : "free",
      passwordHash: password ? await hashPassword(password) : null,
    });
    return { id: account.id, email: account.person.email, plan: account.plan };
  },
  "key:create": async (flags) => {
    const account = await getAccountByEmailOrThrow(required(flags, "email"));
    const scope = flags.scope === undefined ? "full_access" : required(flags, "scope");
    if (!isApiKeyScope(scope)) throw new UsageError(`--scope must be one of ${API_KEY_SCOPES.join(", ")}`);
    const days = flags["expires-in-days"] === undefined ? null : Number(required(flags, "expires-in-days"));
    if (days !== null && !(Number.isInteger(days) && days >= 1 && days <= 3650))
      throw new UsageError("--expires-in-days must be a whole number of days from 1 to 3650");
    const key = await createApiKey(account.id, {
      name: typeof flags.name === "string" ? flags.name : "CLI key",
      kind: flags.test === true ? "test" : "live",
      scope,
      domain: flags.domain === undefined ? null : required(flags, "domain"),
      expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000),
    }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "DOMAIN_NOT_FOUND")
        throw new UsageError(`--domain: ${error.message}`);
      throw error;
    });
    return {
      id: key.id,
      key: key.key,
      kind: key.kind,
      scope: key.scope,
      domain: key.domain,
      expires_at: key.expires_at,
    };
  },
  "key:list": async (flags) => {
    const account = await getAccountByEmailOrThrow(required(flags, "email"));
    return (await listApiKeys(account.id)).map(({ display_fragment: key, ...record }) => ({ ...record, key }));
  },
  "key:revoke": async (flags) => {
    const id = required(flags, "id");
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new UsageError("--id must be an API key id (uuid)");
    const key = await revokeApiKey(id);
    if (!key) throw new Error(`No API key with id ${id}`);
    return { id: key.id, revoked_at: key.revoked_at };
  },
  "plan:set": async (flags) => {
    const account = await getAccountByEmailOrThrow(required(flags, "email"));
    const updated = await setAccountPlan(account.id, plan(required(flags, "plan")));
    return { id: updated.id, email: account.email, plan: updated.plan };
  },
  catalogue: async () =>
    (await listCatalogue()).map((t) => ({
      id: t.id,
      slug: t.slug,
      name: t.name,
      description: t.description,
      price: Number(t.price),
      is_public: t.is_public,
    })),
  "template:create": async (flags) => {
    const account = await getAccountByEmailOrThrow(required(flags, "email"));
    const { source, fileOf } = await templateSource(flags);
    const template = await createTemplateFromSource(account.id, {
      name: required(flags, "name"),
      description: typeof flags.description === "string" ? flags.description : "",
      alias: aliasFlag(flags),
      publish: flags.draft !== true,
      publishedBy: { via: "cli" },
      ...source,
    }).catch(locatedError(fileOf));
    return { id: template.id, name: template.name };
  },
  "template:update": async (flags) => {
    const account = await getAccountByEmailOrThrow(required(flags, "email"));
    const id = required(flags, "id");
    if (!isUuid(id) && !isTemplateAlias(id)) throw new UsageError("--id must be a template id (uuid) or alias");
    const current = await findLibraryTemplate(account.id, id);
    if (current?.owner_account_id !== account.id)
      throw new Error(`${account.email} has created no template with id ${id}`);
    const { source, fileOf } = await templateSource(flags);
    const template = await replaceTemplateFromSource(account.id, id, {
      name: typeof flags.name === "string" ? required(flags, "name") : current.name,
      description: typeof flags.description === "string" ? flags.description : current.description,
      alias: aliasFlag(flags),
      publish: flags.draft !== true,
      publishedBy: { via: "cli" },
      ...source,
    }).catch(locatedError(fileOf));
    if (!template) throw new Error(`${account.email} has created no template with id ${id}`);
    return { id: template.id, name: template.name };
  },
  "template:restyle": async (flags) =>
    restyleTailwindTemplates(
      typeof flags.email === "string" ? (await getAccountByEmailOrThrow(required(flags, "email"))).id : null,
    ),
  "library:add": async (flags) => {
    const account = await getAccountByEmailOrThrow(required(flags, "email"));
    return addLibraryEntry(account.id, required(flags, "template"), { processor: "cli" });
  },
  "domain:add": async (flags) => {
    const account = await getAccountByEmailOrThrow(required(flags, "email"));
    // With Resend configured the domain is created there and --verified is ignored (Resend checks the DNS).
    return registerSendingDomain(account.id, {
      domain: required(flags, "domain"),
      markVerified: flags.verified === true,
      defaultSender: typeof flags["default-sender"] === "string" ? flags["default-sender"] : undefined,
    });
  },
  "domain:verify": async (flags) => {
    const account = await getAccountByEmailOrThrow(required(flags, "email"));
    const domain = await findSendingDomain(account.id, required(flags, "domain"));
    if (!domain)
      throw new Error(
        `${required(flags, "domain")} is not one of ${account.email}'s sending domains (add it with domain:add)`,
      );
    return verifySendingDomain(account.id, domain.id);
  },
  outbox: async (flags) => {
    const account = await getAccountByEmailOrThrow(required(flags, "email"));
    return listOutbox(account.id);
  },
};

/** The CLI on `args` (what follows `admin`), writing to `io`: its exit code. Tests call it in the process. */
export async function runAdmin(
  args: string[],
  io: { log: (text: string) => void; error: (text: string) => void } = console,
): Promise<number> {
  const [command, ...rest] = args;
  if (!command || command === "help" || command === "--help") {
    io.error(USAGE);
    return command ? 0 : 1;
  }
  const run = commands[command];
  if (!run) {
    io.error(`Unknown command "${command}".\n${USAGE}`);
    return 1;
  }
  let flags: Flags;
  try {
    flags = parseArgs({
      args: rest,
      options: {
        email: { type: "string" },
        plan: { type: "string" },
        password: { type: "string" },
        name: { type: "string" },
        id: { type: "string" },
        file: { type: "string", multiple: true },
        entry: { type: "string" },
        description: { type: "string" },
        alias: { type: "string" },
        template: { type: "string" },
        domain: { type: "string" },
        verified: { type: "boolean" },
        "default-sender": { type: "string" },
        test: { type: "boolean" },
        draft: { type: "boolean" },
        scope: { type: "string" },
        "expires-in-days": { type: "string" },
      },
      strict: true,
    }).values;
  } catch (error) {
    io.error(`${(error as Error).message}\n${USAGE}`);
    return 1;
  }

  const connection = await connectDatabase();
  try {
    await prepareDatabase();
    io.log(JSON.stringify(await run(flags), null, 2));
    return 0;
  } catch (error) {
    io.error(`Error: ${(error as Error).message}`);
    return 1;
  } finally {
    await connection.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href)
  process.exitCode = await runAdmin(process.argv.slice(2));
