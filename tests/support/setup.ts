import { afterAll, inject } from "vitest";
import { resetConfig } from "@/lib/core/config";
import { closeDb } from "@/lib/db/client";
import { useHostLookup } from "@/lib/sending/attachment-hosts";
import { useWebhookHostLookup } from "@/lib/webhooks/outbound";
import { tableLookup } from "./host-lookup";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.SESSION_SECRET ??= "test-session-secret-that-is-long-enough-0123456789";
process.env.SITE_URL ??= "http://localhost:3000";
delete process.env.RESEND_API_KEY;
delete process.env.RESEND_WEBHOOK_SECRET;
// A test that switches Resend on has a sender for sign-up links, as a deployment with Resend must.
process.env.SYSTEM_EMAIL_FROM ??= "Letterpress <no-reply@letterpress.test>";
delete process.env.NEXT_PUBLIC_SUPABASE_URL;
// Webhook URLs under production's rule unless a test lifts it.
delete process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
for (const name of Object.keys(process.env)) if (name.startsWith("STRIPE_")) delete process.env[name];
resetConfig();
// Attachment and webhook hosts are looked up in a table, never in DNS: nothing leaves the machine.
useHostLookup(tableLookup());
useWebhookHostLookup(tableLookup());

afterAll(async () => {
  await closeDb();
});
