import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { countEmailsByStatus, listEmailsPage } from "@/lib/sent-emails/service";
import { DELIVERY_STATUSES, type DeliveryStatus } from "@/lib/sent-emails/schemas";
import { formatDateTime, formatWord, timeAgo } from "../../_components/format";
import { MailIcon } from "../../_components/icons";
import { StatusBadge } from "../../_components/meter";
import { CancelEmail } from "./cancel-email";
import { StatusFilter } from "./status-filter";
import { Pager } from "../../_components/pager";
import { DataTable, EmptyState } from "../_components/data-table";
import { PageHeader } from "../_components/page-header";

export const metadata: Metadata = { title: "Emails" };

type Filter = DeliveryStatus | "all";
const FILTERS: Filter[] = ["all", ...DELIVERY_STATUSES];
const PAGE_SIZE = 50;
const COLUMNS = ["Subject", "Status", { label: "From", className: "hide-sm" }, { label: "When", className: "hide-sm" }];

function emailsHref(filter: Filter, page = 1): string {
  const query = new URLSearchParams({
    ...(filter === "all" ? {} : { status: filter }),
    ...(page > 1 ? { page: String(page) } : {}),
  }).toString();
  return `/dashboard/emails${query ? `?${query}` : ""}`;
}

export default async function EmailsPage({
  searchParams,
}: {
  searchParams: Promise<{ status?: string; page?: string }>;
}) {
  const account = await requireAccount("/dashboard/emails");
  const params = await searchParams;
  const filter = FILTERS.find((value) => value === params.status) ?? "all";
  const byStatus = await countEmailsByStatus(account.id);
  const counts: Record<Filter, number> = {
    ...byStatus,
    all: Object.values(byStatus).reduce((total, n) => total + n, 0),
  };
  const pages = Math.max(1, Math.ceil(counts[filter] / PAGE_SIZE));
  // Clamped to the pages there are: a page past the last (the list got shorter since the link was made) shows the last.
  const page = Math.min(pages, Math.max(1, Number.parseInt(params.page ?? "1", 10) || 1));
  const { emails, pagination } = await listEmailsPage(account.id, {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    status: filter === "all" ? undefined : filter,
  });

  return (
    <>
      <PageHeader
        title="Emails"
        intro="Messages sent and scheduled through the API and from the dashboard, newest first, with what became of each."
        actions={
          <div className="row">
            <Link href="/dashboard/emails/suppressions" className="btn btn-secondary">
              Suppressions
            </Link>
            <Link href="/dashboard/library?send=test" className="btn btn-secondary">
              Send a test
            </Link>
          </div>
        }
      />

      <StatusFilter
        action="/dashboard/emails"
        active={filter}
        options={FILTERS.map((value) => ({
          value,
          label: `${formatWord(value)} · ${counts[value]}`,
          href: emailsHref(value),
        }))}
      />

      <section className="card" aria-label={filter === "all" ? "Emails" : `${formatWord(filter)} emails`}>
        {emails.length === 0 ? (
          <EmptyState
            icon={<MailIcon size={22} />}
            heading="h2"
            title={filter === "all" ? "No emails yet" : `No ${formatWord(filter).toLowerCase()} emails`}
          >
            <p>
              {filter === "all"
                ? "Send a test from a template in your library, or call POST /api/v1/send from your server."
                : "Messages with this status will appear here."}
            </p>
            {filter === "all" && (
              <Link href="/dashboard/library" className="btn btn-primary">
                Open your library
              </Link>
            )}
          </EmptyState>
        ) : (
          <DataTable columns={COLUMNS}>
            {emails.map((email) => {
              const scheduled = email.status === "scheduled";
              const when = scheduled ? email.scheduled_at : (email.sent_at ?? email.created_at);
              const whenText = scheduled ? `For ${formatDateTime(when)}` : timeAgo(when);
              return (
                <tr key={email.id} data-testid="email-row">
                  <td style={{ minWidth: "min(200px, 40vw)" }}>
                    <Link className="row-link" href={`/dashboard/emails/${encodeURIComponent(email.id)}`}>
                      {email.subject}
                    </Link>
                    <div className="muted small">to {email.to.join(", ")}</div>
                    <div className="muted small only-sm">{whenText}</div>
                  </td>
                  <td>
                    {/* The Test badge under the status: beside it, it was cut off on a phone. */}
                    <div className="stack-sm email-status-cell" style={{ alignItems: "flex-start", gap: 4 }}>
                      <StatusBadge status={email.status} test={email.test} />
                      {email.test && (
                        <span className="badge" data-testid="email-test">
                          Test
                        </span>
                      )}
                    </div>
                  </td>
                  <td className="muted small hide-sm">{email.from}</td>
                  <td className="nowrap small hide-sm" title={formatDateTime(when)}>
                    {whenText}
                  </td>
                  <td className="actions">
                    <CancelEmail
                      id={email.id}
                      subject={email.subject}
                      scheduledFor={formatDateTime(email.scheduled_at)}
                      cancelable={scheduled}
                    />
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
        <Pager
          offset={pagination.offset}
          shown={emails.length}
          total={pagination.total}
          page={page}
          pages={pages}
          href={(target) => emailsHref(filter, target)}
        />
      </section>
    </>
  );
}
