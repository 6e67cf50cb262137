import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { getConfig } from "@/lib/core/config";
import { listSuppressionsPage } from "@/lib/suppressions/service";
import { ConfirmAction } from "../../../_components/confirm-action";
import { formatDate, formatDateTime } from "../../../_components/format";
import { SuppressedIcon } from "../../../_components/icons";
import { removeSuppressionAction } from "./actions";
import { Pager } from "../../../_components/pager";
import { DataTable, EmptyState } from "../../_components/data-table";
import { PageHeader } from "../../_components/page-header";
import { CardSection } from "../../../_components/card-section";

export const metadata: Metadata = { title: "Suppressions" };

const PAGE_SIZE = 50;
const COLUMNS = ["Address", "Reason", { label: "Since", className: "hide-sm" }];
const REASON_LABEL = { bounced: "Hard bounce", complained: "Spam complaint", unsubscribed: "Unsubscribed" } as const;

function suppressionsHref(page: number): string {
  return `/dashboard/emails/suppressions${page > 1 ? `?page=${page}` : ""}`;
}

export default async function SuppressionsPage({ searchParams }: { searchParams: Promise<{ page?: string }> }) {
  const account = await requireAccount("/dashboard/emails/suppressions");
  const requested = Math.max(1, Number.parseInt((await searchParams).page ?? "1", 10) || 1);
  let { suppressions, pagination } = await listSuppressionsPage(account.id, {
    limit: PAGE_SIZE,
    offset: (requested - 1) * PAGE_SIZE,
  });
  const pages = Math.max(1, Math.ceil(pagination.total / PAGE_SIZE));
  // A page past the last (the list got shorter since the link was made, or by the removal just done) shows the last.
  const page = Math.min(pages, requested);
  if (page !== requested)
    ({ suppressions, pagination } = await listSuppressionsPage(account.id, {
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    }));

  return (
    <>
      <div className="breadcrumb">
        <Link href="/dashboard/emails">Emails</Link> <span aria-hidden="true">/</span> <span>Suppressions</span>
      </div>
      <PageHeader
        title="Suppressions"
        intro={
          <>
            Addresses your emails no longer go to, because an email to them bounced for good or was marked as spam. A
            send naming one is refused with <code>422 RECIPIENT_SUPPRESSED</code> and not counted. Remove an address
            only once you know it works again, or its owner asked for your emails.
          </>
        }
      />

      <CardSection
        headingId="suppressions-title"
        title="Suppressed addresses"
        aside={<span className="muted small">Newest first</span>}
      >
        {suppressions.length === 0 ? (
          <EmptyState icon={<SuppressedIcon size={22} />} title="No suppressed addresses">
            <p>
              When an email hard-bounces or its recipient marks it as spam, the address is listed here and later sends
              to it are refused, which keeps your sender reputation intact.
              {getConfig().resend === null &&
                " With no email provider configured, send to any address at bounce.test or complaint.test to try it."}
            </p>
          </EmptyState>
        ) : (
          <DataTable columns={COLUMNS}>
            {suppressions.map((suppression) => (
              <tr key={`${suppression.email}\n${suppression.group ?? ""}`} data-testid="suppression-row">
                <td style={{ overflowWrap: "anywhere" }}>
                  <strong>{suppression.email}</strong>
                </td>
                <td className="nowrap">
                  {REASON_LABEL[suppression.reason]}
                  {suppression.group ? ` from ${suppression.group}` : ""}
                </td>
                <td className="nowrap small hide-sm" title={formatDateTime(suppression.created_at)}>
                  <time dateTime={suppression.created_at}>{formatDate(suppression.created_at)}</time>
                </td>
                <td className="actions">
                  <ConfirmAction
                    action={removeSuppressionAction}
                    fields={{ email: suppression.email }}
                    trigger={<>Remove</>}
                    title={`Send to ${suppression.email} again?`}
                    body={
                      <p>
                        Removing it lets your emails go to this address again. If it still{" "}
                        {suppression.reason === "bounced" ? "bounces" : "gets marked as spam"}, it is suppressed again,
                        and each time counts against your sender reputation.
                      </p>
                    }
                    confirmLabel="Remove suppression"
                    pendingLabel="Removing…"
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <Pager
          offset={pagination.offset}
          shown={suppressions.length}
          total={pagination.total}
          page={page}
          pages={pages}
          href={suppressionsHref}
        />
      </CardSection>
    </>
  );
}
