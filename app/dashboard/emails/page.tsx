import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { getOutboxPage } from "@/lib/dashboard/queries";
import { formatDateTime, timeAgo } from "../../_components/format";
import { MailIcon } from "../../_components/icons";
import { StatusBadge } from "../../_components/meter";
import { StatusFilter } from "./status-filter";

export const metadata: Metadata = { title: "Emails" };

const FILTERS = ["all", "sent", "scheduled", "failed"] as const;
const PAGE_SIZE = 50;

export default async function EmailsPage({
  searchParams,
}: {
  searchParams: Promise<{ status?: string; page?: string }>;
}) {
  const account = await requireAccount("/dashboard/emails");
  const params = await searchParams;
  const filter = FILTERS.find((value) => value === params.status) ?? "all";
  const { emails, counts, page, pages } = await getOutboxPage(account.id, {
    filter,
    page: Number.parseInt(params.page ?? "1", 10) || 1,
    pageSize: PAGE_SIZE,
  });
  const pageHref = (to: number) => {
    const query = new URLSearchParams({
      ...(filter === "all" ? {} : { status: filter }),
      ...(to > 1 ? { page: String(to) } : {}),
    }).toString();
    return `/dashboard/emails${query ? `?${query}` : ""}`;
  };

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Emails</h1>
          <p>Messages sent and scheduled through the API and from the dashboard, newest first.</p>
        </div>
        <Link href="/dashboard/library" className="btn btn-secondary">
          Send a test
        </Link>
      </div>

      <StatusFilter
        active={filter}
        options={FILTERS.map((value) => ({
          value,
          label: `${value[0].toUpperCase() + value.slice(1)} · ${counts[value]}`,
          href: value === "all" ? "/dashboard/emails" : `/dashboard/emails?status=${value}`,
        }))}
      />

      <section className="card">
        {emails.length === 0 ? (
          <div className="empty-state">
            <div className="empty-icon">
              <MailIcon size={22} />
            </div>
            <h2>{filter === "all" ? "No emails yet" : `No ${filter} emails`}</h2>
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
          </div>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Subject</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="hide-sm">
                    From
                  </th>
                  <th scope="col" className="hide-sm">
                    When
                  </th>
                </tr>
              </thead>
              <tbody>
                {emails.map((email) => {
                  const when = email.status === "scheduled" ? email.scheduled_at : (email.sent_at ?? email.created_at);
                  return (
                    <tr key={email.id} data-testid="email-row">
                      <td style={{ minWidth: 200 }}>
                        <Link className="row-link" href={`/dashboard/emails/${email.id}`}>
                          {email.subject}
                        </Link>
                        <div className="muted small">to {email.to.join(", ")}</div>
                        <div className="muted small only-sm">
                          {email.status === "scheduled" ? `For ${formatDateTime(when)}` : timeAgo(when)}
                        </div>
                      </td>
                      <td className="nowrap">
                        <StatusBadge status={email.status} />
                      </td>
                      <td className="muted small hide-sm">{email.from}</td>
                      <td className="nowrap small hide-sm" title={formatDateTime(when)}>
                        {email.status === "scheduled" ? `For ${formatDateTime(when)}` : timeAgo(when)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {pages > 1 && (
          <nav className="pager" aria-label="Pages">
            <span className="muted small">
              {(page - 1) * PAGE_SIZE + 1}–{Math.min(page * PAGE_SIZE, counts[filter])} of {counts[filter]}
            </span>
            {page > 1 ? (
              <Link href={pageHref(page - 1)} className="btn btn-secondary btn-sm" rel="prev">
                Newer
              </Link>
            ) : null}
            {page < pages ? (
              <Link href={pageHref(page + 1)} className="btn btn-secondary btn-sm" rel="next">
                Older
              </Link>
            ) : null}
          </nav>
        )}
      </section>
    </>
  );
}
