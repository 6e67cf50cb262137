import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Fragment } from "react";
import { requireAccount } from "@/lib/auth/current";
import { findEmailTemplateVersion, findEmailWithMessage } from "@/lib/sent-emails/service";
import { formatDateTime, formatWord } from "../../../_components/format";
import { StatusBadge } from "../../../_components/meter";
import { PreviewPane } from "../../../_components/preview-pane";
import { CopyButton } from "../../../_components/copy-button";
import { CancelEmail } from "../cancel-email";
import { CardSection } from "../../../_components/card-section";

export const metadata: Metadata = { title: "Email" };

/** What an event's provider said (a bounce's message, a clicked link…), field by field, as text. */
function detailFields(detail: unknown): [string, string][] {
  if (typeof detail !== "object" || detail === null || Array.isArray(detail)) return [];
  return Object.entries(detail).map(([name, value]) => [
    name,
    typeof value === "string" ? value : JSON.stringify(value),
  ]);
}

/** A list of addresses, or nothing when it is empty. */
function Addresses({ label, addresses }: { label: string; addresses: string[] }) {
  if (addresses.length === 0) return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>{addresses.join(", ")}</dd>
    </>
  );
}

/**
 * The template an email was rendered from, by name and version, linking to that version in the template's versions
 * panel; a draft's to the template's page, where its draft is; an email older than versions to the template.
 */
function TemplateLink({ template_id, name, version }: { template_id: string; name: string; version: string | null }) {
  const page = `/dashboard/library/${template_id}`;
  if (version === "draft") return <Link href={page}>{name}, its draft</Link>;
  if (version === null) return <Link href={page}>{name}</Link>;
  return <Link href={`${page}?version=${version}#versions`}>{`${name}, version ${version}`}</Link>;
}

export default async function EmailPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const account = await requireAccount(`/dashboard/emails/${encodeURIComponent(id)}`);
  const [email, sentFrom] = await Promise.all([
    findEmailWithMessage(account.id, id),
    findEmailTemplateVersion(account.id, id),
  ]);
  if (!email) notFound();
  const { message } = email;

  return (
    <>
      <div className="breadcrumb">
        <Link href="/dashboard/emails">Emails</Link> <span aria-hidden="true">/</span> <span>{email.subject}</span>
      </div>
      <div className="page-header">
        <div>
          <h1 style={{ overflowWrap: "anywhere" }}>{email.subject}</h1>
          <div className="row" data-testid="email-status">
            <StatusBadge status={email.status} test={email.test} />
            {email.test && <span className="badge">Test</span>}
            {message.is_overage && <span className="badge badge-warning">Overage</span>}
            <span className="muted small">via {message.provider}</span>
          </div>
        </div>
        <div className="stack-sm" style={{ alignItems: "flex-end" }}>
          <CancelEmail
            id={email.id}
            subject={email.subject}
            scheduledFor={formatDateTime(email.scheduled_at)}
            cancelable={email.status === "scheduled"}
            triggerClassName="btn btn-danger-outline"
          />
        </div>
      </div>
      <div className="workbench">
        <div className="stack">
          <CardSection headingId="details-title" title="Details">
            <div className="card-body">
              <dl className="dl">
                <dt>From</dt>
                <dd>{email.from}</dd>
                <Addresses label="To" addresses={email.to} />
                <Addresses label="Cc" addresses={email.cc} />
                <Addresses label="Bcc" addresses={email.bcc} />
                <Addresses label="Reply-To" addresses={email.reply_to} />
                <dt>Subject</dt>
                <dd>{email.subject}</dd>
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
                {sentFrom && (
                  <>
                    <dt>Template</dt>
                    <dd data-testid="email-template">
                      <TemplateLink {...sentFrom} />
                    </dd>
                  </>
                )}
                {email.locale !== undefined && (
                  <>
                    <dt>Locale</dt>
                    <dd data-testid="email-locale">{email.locale}</dd>
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
                {message.attachments.length > 0 && (
                  <>
                    <dt>Attachments</dt>
                    <dd>{message.attachments.map((attachment) => attachment.filename).join(", ")}</dd>
                  </>
                )}
                <dt>Message id</dt>
                <dd className="row" style={{ gap: 8 }}>
                  <span className="mono">{email.id}</span>
                  <CopyButton value={email.id} label="Copy id" className="btn btn-ghost btn-sm" />
                </dd>
              </dl>
              {message.error && (
                <div className="alert alert-danger" style={{ marginTop: 16 }}>
                  <p>{message.error}</p>
                </div>
              )}
            </div>
          </CardSection>
          <CardSection
            headingId="events-title"
            title="Events"
            aside={<span className="muted small">Oldest first</span>}
          >
            {email.test && (
              <p
                className="card-body muted small"
                style={{ margin: 0, paddingBottom: 0 }}
                data-testid="test-email-note"
              >
                A test email: kept in your outbox and never handed to a provider, so it reached no inbox. Its events are
                the outbox&apos;s simulation: delivered, or bounced and complained for addresses at bounce.test and
                complaint.test.
              </p>
            )}
            {email.events.length === 0 ? (
              <p className="card-body muted small" style={{ margin: 0 }}>
                Nothing has happened to this email yet: it is being handed to {message.provider}.
              </p>
            ) : (
              <ol className="timeline" aria-labelledby="events-title">
                {email.events.map((event, index) => {
                  const fields = detailFields(event.detail);
                  return (
                    <li key={index} data-testid="email-event">
                      <div className="row-between">
                        <StatusBadge status={event.type} test={email.test} />
                        <time className="muted small" dateTime={event.at}>
                          {formatDateTime(event.at)}
                        </time>
                      </div>
                      {fields.length > 0 && (
                        <dl className="dl">
                          {fields.map(([name, value]) => (
                            <Fragment key={name}>
                              <dt>{formatWord(name)}</dt>
                              <dd>{value}</dd>
                            </Fragment>
                          ))}
                        </dl>
                      )}
                    </li>
                  );
                })}
              </ol>
            )}
          </CardSection>
        </div>
        <div className="preview-pane">
          <PreviewPane html={message.html} text={message.text ?? ""} status="idle" title={`Email: ${email.subject}`} />
        </div>
      </div>
    </>
  );
}
