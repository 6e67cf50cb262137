import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";

// Webhook endpoints made straight in the table (the API that makes them is another part's), and what tests read back.

export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

export type TestEndpoint = { id: string; url: string; secret: string };

export async function addEndpoint(
  accountId: string,
  {
    url = "https://hooks.example/in",
    events,
    enabled = true,
    secret = newSecret(),
    previousSecret = null,
    previousSecretExpiresAt = null,
    createdAt = new Date(),
  }: {
    url?: string;
    events: string[];
    enabled?: boolean;
    secret?: string;
    previousSecret?: string | null;
    previousSecretExpiresAt?: Date | null;
    createdAt?: Date;
  },
): Promise<TestEndpoint> {
  const [row] = await getDb()<{ id: string }[]>`
    insert into webhook_endpoints (account_id, url, events, enabled, secret, previous_secret, previous_secret_expires_at,
                                   created_at, updated_at)
    values (${accountId}, ${url}, ${events}, ${enabled}, ${secret}, ${previousSecret}, ${previousSecretExpiresAt},
            ${createdAt}, ${createdAt})
    returning id`;
  return { id: row.id, url, secret };
}

/** The account's webhook events in creation order: type and payload. */
export async function webhookEvents(accountId: string) {
  return getDb()<{ id: string; type: string; email_id: string | null; payload: any }[]>`
    select id, type, email_id, payload from webhook_events where account_id = ${accountId} order by seq`;
}

/** A delivery's row as the runner leaves it. */
export async function deliveryRow(id: string) {
  const [row] = await getDb()<
    {
      status: string;
      attempts: number;
      max_attempts: number;
      next_attempt_at: Date | null;
      claimed_until: Date | null;
      claim_token: string | null;
      finished_at: Date | null;
    }[]
  >`select status, attempts, max_attempts, next_attempt_at, claimed_until, claim_token, finished_at
    from webhook_deliveries where id = ${id}`;
  return row;
}

export async function attemptRows(deliveryId: string) {
  return getDb()<
    {
      attempt: number;
      started_at: Date;
      duration_ms: number | null;
      response_status: number | null;
      error: string | null;
      response_excerpt: string | null;
    }[]
  >`select attempt, started_at, duration_ms, response_status, error, response_excerpt from webhook_attempts
    where delivery_id = ${deliveryId} order by attempt`;
}
