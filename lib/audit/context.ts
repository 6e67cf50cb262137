import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

// Who is making the change, for the audit log: set once per request where the caller is known (lib/api/with-api-auth.ts
// for the API, app/dashboard/_lib/action.ts for Server Actions), read where each change is written, so services need
// no actor parameter. Work outside a request (cron routes, Stripe's and Resend's webhooks, the CLI) is the system.

export type AuditActor =
  | { type: "user"; id: string; label: string }
  | { type: "api_key"; id: string; label: string }
  | { type: "system"; id: null; label: string };

export type AuditContext = { actor: AuditActor; ip: string | null };

export const SYSTEM_ACTOR: AuditActor = { type: "system", id: null, label: "Letterpress" };

const storage = new AsyncLocalStorage<AuditContext>();

export function runAsActor<T>(context: AuditContext, work: () => T): T {
  return storage.run(context, work);
}

export function currentAuditContext(): AuditContext {
  return storage.getStore() ?? { actor: SYSTEM_ACTOR, ip: null };
}
