import { z } from "zod";
import { formatMailbox, parseFromAddress } from "@/lib/mail-transport/mailbox";

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
/** An optional variable that must match `pattern`, said by `message` when it does not. */
const optionalMatching = (pattern: RegExp, message: string) =>
  optionalString.pipe(z.string().regex(pattern, message).optional());
const optionalDomain = optionalMatching(
  /^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/i,
  "must be a domain name such as mail.example.com",
);
const optionalStripePriceId = optionalMatching(/^price_\w+$/, "must be a Stripe price id (price_…)");

// A long-running server takes many requests at once, so one slow statement must not hold up the rest; each Vercel
// instance serves few at a time and opens its own pool, so there it takes one connection of the database's limit.
const DEFAULT_DATABASE_POOL_SIZE = { server: 10, vercel: 1 };

// Supabase's transaction pooler (port 6543) hands each transaction to any server connection, so a statement prepared
// on one may be missing on the next: there statements go unnamed, each described before it runs (a round trip more).
const TRANSACTION_POOLER_PORT = "6543";

const optionalDatabaseUrl = optionalString.pipe(
  z.url({ protocol: /^postgres(ql)?$/, message: "must be a postgres:// connection URL" }).optional(),
);

const envSchema = z.object({
  DATABASE_URL: optionalDatabaseUrl,
  // What the Supabase integration for Vercel sets (per preview branch too, with Branching): the transaction pooler.
  POSTGRES_URL: optionalDatabaseUrl,
  DATABASE_POOL_SIZE: optionalMatching(/^[1-9]\d{0,2}$/, "must be a whole number from 1 to 999"),
  DATABASE_PREPARED_STATEMENTS: optionalString.pipe(z.enum(["on", "off"], { message: "must be on or off" }).optional()),
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
  // The project's secret key (or the legacy service_role key, as the Supabase integration for Vercel sets it): the
  // Auth admin API, for deleting a person's Auth user with their sign-in. Server-side only.
  SUPABASE_SECRET_KEY: optionalString,
  SUPABASE_SERVICE_ROLE_KEY: optionalString,
  RESEND_API_KEY: optionalString,
  RESEND_BASE_URL: optionalUrl,
  // Svix's signing secret: whsec_ and the key in Base64.
  RESEND_WEBHOOK_SECRET: optionalMatching(
    /^whsec_[A-Za-z0-9+/]{4,}={0,2}$/,
    "must be a webhook signing secret (whsec_…)",
  ),
  SHARED_SENDING_DOMAIN: optionalDomain,
  SYSTEM_EMAIL_FROM: optionalString.pipe(
    z
      .string()
      .refine(
        (value) => parseFromAddress(value) !== null,
        "must be an address such as Letterpress <no-reply@mail.example.com>",
      )
      .transform((value) => formatMailbox(parseFromAddress(value)!))
      .optional(),
  ),
  SESSION_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  CRON_SECRET: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  PORT: optionalMatching(/^\d{1,5}$/, "must be a port number"),
  STRIPE_SECRET_KEY: optionalMatching(
    /^(sk|rk)_(test|live)_\w+$/,
    "must be a Stripe secret key (sk_… in live or test mode, or a restricted rk_… key)",
  ),
  STRIPE_WEBHOOK_SECRET: optionalMatching(/^whsec_\w+$/, "must be a webhook signing secret (whsec_…)"),
  STRIPE_PRICE_MONTHLY: optionalStripePriceId,
  STRIPE_PRICE_ANNUAL: optionalStripePriceId,
  STRIPE_PRICE_OVERAGE: optionalStripePriceId,
  STRIPE_METER_EVENT_NAME: optionalMatching(
    /^[A-Za-z0-9_.:-]{1,100}$/,
    "must be a billing meter's event name (letters, digits, _ . : -; at most 100)",
  ),
  CLIENT_IP_HEADER: optionalMatching(/^[A-Za-z0-9-]{1,64}$/, "must be a header name, such as x-real-ip"),
  PAYMENTS_TEST_MODE: optionalString.pipe(
    z.enum(["0", "1"], { message: "must be 1 (test-mode payments) or 0" }).optional(),
  ),
  WEBHOOKS_ALLOW_PRIVATE_URLS: optionalString.pipe(
    z.enum(["0", "1"], { message: "must be 1 (webhook URLs may be http:// and internal) or 0" }).optional(),
  ),
});

export type Config = {
  databaseUrl: string | undefined;
  /** The variable databaseUrl came from; null: none is set (the start scripts then run the embedded database). */
  databaseUrlVariable: DatabaseUrlVariable | null;
  databasePoolSize: number;
  /** Named prepared statements, kept per connection: each statement is parsed and planned once, not per query. */
  databasePreparedStatements: boolean;
  siteUrl: string;
  onVercel: boolean;
  /** The header a trusted proxy in front writes the client's address into (CLIENT_IP_HEADER), lower-cased. */
  clientIpHeader: string | null;
  /** `secretKey`: for the Auth admin API (deleting a sign-in's Auth user); undefined when neither variable is set. */
  supabase: { url: string; publishableKey: string; secretKey: string | undefined } | null;
  /** `webhookSecret` verifies Resend's delivery events (POST /api/webhooks/resend); without it they are refused. */
  resend: { apiKey: string; baseUrl: string | undefined; webhookSecret: string | undefined } | null;
  sharedSendingDomain: string | undefined;
  /**
   * The sender of the app's own emails through Resend (local sign-up links): SYSTEM_EMAIL_FROM, else
   * no-reply@SHARED_SENDING_DOMAIN. Null without either (then Resend is not configured, or Supabase sends them).
   */
  systemEmailFrom: string | null;
  sessionSecret: string | undefined;
  cronSecret: string | undefined;
  stripe: StripeSettings | null;
  /**
   * Without Stripe: whether the test-mode processor completes purchases and plan changes for free. Only when asked for
   * (PAYMENTS_TEST_MODE=1) or under `npm run dev`; a production server without Stripe refuses paid actions instead.
   */
  paymentsTestMode: boolean;
  /**
   * Webhook endpoints may be http:// URLs and reach loopback, private and other internal addresses (at creation and at
   * each delivery): only when WEBHOOKS_ALLOW_PRIVATE_URLS=1, which `npm run dev` sets (bin/serve.ts), for development
   * and tests. Otherwise an endpoint is an https:// URL on a public host.
   */
  webhooksAllowPrivateUrls: boolean;
};

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  prices: { monthly: string; annual: string };
  /** The metered price (on the overage meter) added to plan subscriptions; without it overage is metered, not billed. */
  overagePrice: string | undefined;
  meterEventName: string;
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export type DatabaseUrlVariable = "DATABASE_URL" | "POSTGRES_URL";

/** Where the database URL is read from: DATABASE_URL, else POSTGRES_URL, as the publishable key falls back to the anon key. */
export function databaseUrlVariable(env: Record<string, string | undefined>): DatabaseUrlVariable | null {
  if (env.DATABASE_URL?.trim()) return "DATABASE_URL";
  if (env.POSTGRES_URL?.trim()) return "POSTGRES_URL";
  return null;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
  // The rules between variables look only at presence, so a missing variable is reported with the malformed ones.
  const present = (name: keyof typeof envSchema.shape) => Boolean(env[name]?.trim());
  const onVercel = present("VERCEL");

  if (onVercel && !databaseUrlVariable(env)) {
    problems.push(
      "DATABASE_URL is required on Vercel, or POSTGRES_URL as the Supabase integration sets it (the embedded database is for local development only)",
    );
  }
  const hasPublishableKey = present("NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY") || present("NEXT_PUBLIC_SUPABASE_ANON_KEY");
  if (present("NEXT_PUBLIC_SUPABASE_URL") && !hasPublishableKey) {
    problems.push("NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY is required when NEXT_PUBLIC_SUPABASE_URL is set");
  }
  if (!present("NEXT_PUBLIC_SUPABASE_URL") && hasPublishableKey) {
    problems.push("NEXT_PUBLIC_SUPABASE_URL is required when a Supabase publishable key is set");
  }
  if (onVercel && !present("NEXT_PUBLIC_SUPABASE_URL") && !present("SESSION_SECRET")) {
    problems.push("SESSION_SECRET is required on Vercel when Supabase Auth is not configured");
  }
  // Local sign-up mails its confirmation link, so a deployment that sends through Resend needs a sender for it.
  if (
    present("RESEND_API_KEY") &&
    !present("NEXT_PUBLIC_SUPABASE_URL") &&
    !present("SYSTEM_EMAIL_FROM") &&
    !present("SHARED_SENDING_DOMAIN")
  ) {
    problems.push(
      "SYSTEM_EMAIL_FROM (or SHARED_SENDING_DOMAIN) is required when RESEND_API_KEY is set and Supabase Auth is not: sign-up links are sent from it",
    );
  }
  // The events report on emails sent through Resend, and the SDK that verifies them needs the key.
  if (present("RESEND_WEBHOOK_SECRET") && !present("RESEND_API_KEY")) {
    problems.push("RESEND_API_KEY is required when RESEND_WEBHOOK_SECRET is set");
  }
  problems.push(...stripeProblems(present));
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const publishableKey = e.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY ?? e.NEXT_PUBLIC_SUPABASE_ANON_KEY;
  const urlVariable = databaseUrlVariable(env);
  const databaseUrl = urlVariable ? e[urlVariable] : undefined;

  return {
    databaseUrl,
    databaseUrlVariable: urlVariable,
    databasePoolSize: e.DATABASE_POOL_SIZE
      ? Number(e.DATABASE_POOL_SIZE)
      : DEFAULT_DATABASE_POOL_SIZE[onVercel ? "vercel" : "server"],
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS
      ? e.DATABASE_PREPARED_STATEMENTS === "on"
      : !(databaseUrl && new URL(databaseUrl).port === TRANSACTION_POOLER_PORT),
    siteUrl: resolveSiteUrl(e),
    onVercel,
    clientIpHeader: e.CLIENT_IP_HEADER?.toLowerCase() ?? null,
    supabase:
      e.NEXT_PUBLIC_SUPABASE_URL && publishableKey
        ? {
            url: e.NEXT_PUBLIC_SUPABASE_URL,
            publishableKey,
            secretKey: e.SUPABASE_SECRET_KEY ?? e.SUPABASE_SERVICE_ROLE_KEY,
          }
        : null,
    resend: e.RESEND_API_KEY
      ? { apiKey: e.RESEND_API_KEY, baseUrl: e.RESEND_BASE_URL, webhookSecret: e.RESEND_WEBHOOK_SECRET }
      : null,
    sharedSendingDomain: e.SHARED_SENDING_DOMAIN?.toLowerCase(),
    systemEmailFrom:
      e.SYSTEM_EMAIL_FROM ??
      (e.SHARED_SENDING_DOMAIN ? `Letterpress <no-reply@${e.SHARED_SENDING_DOMAIN.toLowerCase()}>` : null),
    sessionSecret: e.SESSION_SECRET,
    cronSecret: e.CRON_SECRET,
    stripe: stripeSettings(e),
    paymentsTestMode: e.PAYMENTS_TEST_MODE === "1" || env.NODE_ENV === "development",
    webhooksAllowPrivateUrls: e.WEBHOOKS_ALLOW_PRIVATE_URLS === "1",
  };
}

// Stripe is on when both the secret key and the webhook secret are set; then the plan prices and the overage meter
// are required too, so a half-configured deployment fails at start instead of at a customer's checkout.
function stripeProblems(present: (name: keyof typeof envSchema.shape) => boolean): string[] {
  const problems: string[] = [];
  const key = present("STRIPE_SECRET_KEY");
  const webhook = present("STRIPE_WEBHOOK_SECRET");
  if (key && !webhook)
    problems.push("STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set (set both, or neither)");
  if (!key && webhook)
    problems.push("STRIPE_SECRET_KEY is required when STRIPE_WEBHOOK_SECRET is set (set both, or neither)");
  if (key && webhook) {
    for (const name of ["STRIPE_PRICE_MONTHLY", "STRIPE_PRICE_ANNUAL", "STRIPE_METER_EVENT_NAME"] as const) {
      if (!present(name)) problems.push(`${name} is required when Stripe is configured (STRIPE_SECRET_KEY is set)`);
    }
  }
  return problems;
}

function stripeSettings(e: z.infer<typeof envSchema>): StripeSettings | null {
  if (
    !e.STRIPE_SECRET_KEY ||
    !e.STRIPE_WEBHOOK_SECRET ||
    !e.STRIPE_PRICE_MONTHLY ||
    !e.STRIPE_PRICE_ANNUAL ||
    !e.STRIPE_METER_EVENT_NAME
  ) {
    return null;
  }
  return {
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    prices: { monthly: e.STRIPE_PRICE_MONTHLY, annual: e.STRIPE_PRICE_ANNUAL },
    overagePrice: e.STRIPE_PRICE_OVERAGE,
    meterEventName: e.STRIPE_METER_EVENT_NAME,
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
