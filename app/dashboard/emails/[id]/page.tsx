import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireAccount } from "@/lib/auth/current";
import { getOutboxMessage } from "@/lib/dashboard/queries";
import { formatDateTime } from "../../../_components/format";
import { StatusBadge } from "../../../_components/meter";
import { PreviewPane } from "../../../_components/preview-pane";

export const metadata: Metadata = { title: "Email" };

export default async function EmailPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const account = await requireAccount(`/dashboard/emails/${id}`);
  const email = await getOutboxMessage(account.id, id);
  if (!email) notFound();

  return (
    <>
      <div className="breadcrumb">
        <Link href="/dashboard/emails">Emails</Link> <span aria-hidden="true">/</span> <span>{email.subject}</span>
      </div>
      <div className="page-header">
        <div>
          <h1 style={{ overflowWrap: "anywhere" }}>{email.subject}</h1>
          <div className="row">
            <StatusBadge status={email.status} />
            {email.is_overage && <span className="badge badge-warning">Overage</span>}
            <span className="muted small">via {email.provider}</span>
          </div>
        </div>
      </div>
      <div className="workbench">
        <section className="card" aria-labelledby="details-title">
          <div className="card-header">
            <h2 id="details-title">Details</h2>
          </div>
          <div className="card-body">
            <dl className="dl">
              <dt>From</dt>
              <dd>{email.from}</dd>
              <dt>To</dt>
              <dd>{email.to.join(", ")}</dd>
              {email.cc.length > 0 && (
                <>
                  <dt>Cc</dt>
                  <dd>{email.cc.join(", ")}</dd>
                </>
              )}
              {email.bcc.length > 0 && (
                <>
                  <dt>Bcc</dt>
                  <dd>{email.bcc.join(", ")}</dd>
                </>
              )}
              {email.reply_to.length > 0 && (
                <>
                  <dt>Reply-To</dt>
                  <dd>{email.reply_to.join(", ")}</dd>
                </>
              )}
              <dt>Created</dt>
              <dd>{formatDateTime(email.created_at)}</dd>
              {email.scheduled_at && (
                <>
                  <dt>Scheduled for</dt>
                  <dd>{formatDateTime(email.scheduled_at)}</dd>
                </>
              )}
              <dt>Sent</dt>
              <dd>{email.sent_at ? formatDateTime(email.sent_at) : "Not yet"}</dd>
              {email.template_id && (
                <>
                  <dt>Template</dt>
                  <dd>
                    <Link href={`/dashboard/library/${email.template_id}`}>Open template</Link>
                  </dd>
                </>
              )}
              {email.tags.length > 0 && (
                <>
                  <dt>Tags</dt>
                  <dd className="row" style={{ gap: 6 }}>
                    {email.tags.map((tag) => (
                      <span key={`${tag.name}=${tag.value}`} className="badge">
                        {tag.name}: {tag.value}
                      </span>
                    ))}
                  </dd>
                </>
              )}
              {email.attachments.length > 0 && (
                <>
                  <dt>Attachments</dt>
                  <dd>{email.attachments.map((attachment) => attachment.filename).join(", ")}</dd>
                </>
              )}
              <dt>Message id</dt>
              <dd className="mono">{email.id}</dd>
            </dl>
            {email.error && (
              <div className="alert alert-danger" style={{ marginTop: 16 }}>
                <p>{email.error}</p>
              </div>
            )}
          </div>
        </section>
        <div className="preview-pane">
          <PreviewPane html={email.html} text={email.text ?? ""} status="idle" title={`Email: ${email.subject}`} />
        </div>
      </div>
    </>
  );
}
