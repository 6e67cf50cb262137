import "server-only";
import { getDb } from "@/lib/db/client";
import { PROCESSOR } from "@/lib/billing/data/customers";

// The overage ledger's reporting state: which emails past the plan's allowance were reported to the processor.

export type OverageClaim = {
  id: string;
  /** The meter event identifier: the email's id (the ledger row's id if the email row is gone), fixed at first claim. */
  identifier: string;
  quantity: number;
  createdAt: Date;
  customerId: string;
  attempts: number;
};

/**
 * Claims up to `limit` unreported overage rows for one reporter: rows of accounts with a processor customer, whose
 * email was accepted (a pending one may still fail and be given back), not waiting out a retry delay, and not claimed
 * by another reporter whose lease is still running. `emailId` narrows the claim to that email's row.
 */
export async function claimUnreportedOverage(options: {
  limit: number;
  now: Date;
  leaseMs: number;
  emailId?: string;
}): Promise<OverageClaim[]> {
  const db = getDb();
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const rows = await db<
    {
      id: string;
      identifier: string;
      quantity: number;
      created_at: Date;
      customer_id: string;
      report_attempts: number;
    }[]
  >`
    with due as (
      select l.id from email_overage_ledger l
      join billing_customers c on c.account_id = l.account_id
      left join sent_emails e on e.id = l.email_id
      where l.reported_at is null and l.voided_at is null
        -- A scheduled email is billed once its time has come: until then it may be canceled.
        and (l.email_id is null or e.status = 'sent' or (e.status = 'scheduled' and e.scheduled_at <= ${options.now}))
        and (l.next_report_at is null or l.next_report_at <= ${options.now})
        and (l.report_claimed_until is null or l.report_claimed_until <= ${options.now})
        ${options.emailId ? db`and l.email_id = ${options.emailId}` : db``}
      order by l.created_at, l.id
      limit ${options.limit}
      for update of l skip locked
    )
    update email_overage_ledger l set
      report_claimed_until = ${leaseUntil},
      report_attempts = l.report_attempts + 1,
      processor_ref = coalesce(l.processor_ref, l.email_id::text, l.id::text)
    from due, billing_customers c
    where l.id = due.id and c.account_id = l.account_id
    returning l.id, l.processor_ref as identifier, l.quantity, l.created_at, c.customer_id, l.report_attempts`;
  return rows
    .map((r) => ({
      id: r.id,
      identifier: r.identifier,
      quantity: r.quantity,
      createdAt: r.created_at,
      customerId: r.customer_id,
      attempts: r.report_attempts,
    }))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** The processor acknowledged the meter event: the row is reported, for good. */
export async function markOverageReported(id: string, processor: string = PROCESSOR): Promise<void> {
  await getDb()`
    update email_overage_ledger set reported_at = now(), processor = ${processor}, report_claimed_until = null,
                                    next_report_at = null, last_report_error = null
    where id = ${id} and reported_at is null`;
}

/** The report failed: released for a retry at `retryAt`. */
export async function markOverageReportFailed(id: string, error: string, retryAt: Date): Promise<void> {
  await getDb()`
    update email_overage_ledger set report_claimed_until = null, next_report_at = ${retryAt}, last_report_error = ${error.slice(0, 1000)}
    where id = ${id} and reported_at is null`;
}

export async function isOverageReported(emailId: string): Promise<boolean> {
  const [row] = await getDb()<{ reported: boolean }[]>`
    select reported_at is not null as reported from email_overage_ledger where email_id = ${emailId}`;
  return row?.reported ?? false;
}
