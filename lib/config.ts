import { z } from "zod";

// All configuration is read and validated here, once, so a misconfigured deployment fails with one clear message
// naming every bad variable instead of failing later inside a request.

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();
const optionalUrl = optionalString.pipe(z.url({ message: "must be an absolute URL" }).optional());
const optionalHttpUrl = optionalString.pipe(
  z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional(),
);
const optionalDomain = optionalString.pipe(
  z
    .string()
    .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/i, "must be a domain name such as mail.example.com")
    .optional(),
);

const envSchema = z.object({
  DATABASE_URL: optionalString.pipe(
    z.url({ protocol: /^postgres(ql)?$/, message: "must be a postgres:// connection URL" }).optional(),
  ),
  SITE_URL: optionalHttpUrl,
  NEXT_PUBLIC_SITE_URL: optionalHttpUrl,
  VERCEL: optionalString,
  VERCEL_ENV: optionalString,
  VERCEL_URL: optionalString,
  VERCEL_BRANCH_URL: optionalString,
  VERCEL_PROJECT_PRODUCTION_URL: optionalString,
  NEXT_PUBLIC_SUPABASE_URL: optionalHttpUrl,
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: optionalString,
  NEXT_PUBLIC_SUPABASE_ANON_KEY: optionalString,
  RESEND_API_KEY: optionalString,
  RESEND_BASE_URL: optionalUrl,
  SHARED_SENDING_DOMAIN: optionalDomain,
  SESSION_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  CRON_SECRET: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  PORT: optionalString.pipe(z.string().regex(/^\d{1,5}$/, "must be a port number").optional()),
});

export type Config = {
  databaseUrl: string | undefined;
  siteUrl: string;
  onVercel: boolean;
  supabase: { url: string; publishableKey: string } | null;
  resend: { apiKey: string; baseUrl: string | undefined } | null;
  sharedSendingDomain: string | undefined;
  sessionSecret: string | undefined;
  cronSecret: string | undefined;
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  const onVercel = Boolean(e.VERCEL);

  if (onVercel && !e.DATABASE_URL) {
    problems.push("DATABASE_URL is required on Vercel (the embedded database is for local development only)");
  }
  const publishableKey = e.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY ?? e.NEXT_PUBLIC_SUPABASE_ANON_KEY;
  if (e.NEXT_PUBLIC_SUPABASE_URL && !publishableKey) {
    problems.push("NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY is required when NEXT_PUBLIC_SUPABASE_URL is set");
  }
  if (!e.NEXT_PUBLIC_SUPABASE_URL && publishableKey) {
    problems.push("NEXT_PUBLIC_SUPABASE_URL is required when a Supabase publishable key is set");
  }
  if (onVercel && !e.NEXT_PUBLIC_SUPABASE_URL && !e.SESSION_SECRET) {
    problems.push("SESSION_SECRET is required on Vercel when Supabase Auth is not configured");
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    databaseUrl: e.DATABASE_URL,
    siteUrl: resolveSiteUrl(e),
    onVercel,
    supabase:
      e.NEXT_PUBLIC_SUPABASE_URL && publishableKey
        ? { url: e.NEXT_PUBLIC_SUPABASE_URL, publishableKey }
        : null,
    resend: e.RESEND_API_KEY ? { apiKey: e.RESEND_API_KEY, baseUrl: e.RESEND_BASE_URL } : null,
    sharedSendingDomain: e.SHARED_SENDING_DOMAIN?.toLowerCase(),
    sessionSecret: e.SESSION_SECRET,
    cronSecret: e.CRON_SECRET,
  };
}

// Explicit SITE_URL wins; a Vercel preview links to its own deployment; production to the project's domain.
function resolveSiteUrl(e: z.infer<typeof envSchema>): string {
  const explicit = e.SITE_URL ?? e.NEXT_PUBLIC_SITE_URL;
  if (explicit) return explicit.replace(/\/+$/, "");
  if (e.VERCEL_ENV === "preview" && (e.VERCEL_BRANCH_URL || e.VERCEL_URL)) {
    return `https://${e.VERCEL_BRANCH_URL ?? e.VERCEL_URL}`;
  }
  if (e.VERCEL_PROJECT_PRODUCTION_URL) return `https://${e.VERCEL_PROJECT_PRODUCTION_URL}`;
  if (e.VERCEL_URL) return `https://${e.VERCEL_URL}`;
  return `http://localhost:${e.PORT ?? 3000}`;
}

let cached: Config | undefined;

export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Re-reads the environment (start scripts and tests change it). */
export function resetConfig(): void {
  cached = undefined;
}
