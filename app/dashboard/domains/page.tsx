import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current";
import { canUseAdminArea } from "@/lib/teams/rights";
import { AdminNeeded } from "../_components/admin-needed";
import { getConfig } from "@/lib/core/config";
import { isVerifiedForSending, listSendingDomainDetails } from "@/lib/sending-domains/service";
import { formatDateTime } from "../../_components/format";
import { GlobeIcon } from "../../_components/icons";
import { AddDomainForm, DefaultSenderForm, RemoveDomainButton, TrackingForm, VerifyDomainForm } from "./domain-forms";
import { PageHeader } from "../_components/page-header";
import { ColumnHeadings } from "../../_components/column-headings";
import { CardSection } from "../../_components/card-section";

export const metadata: Metadata = { title: "Domains" };

export default async function DomainsPage() {
  const account = await requireAccount("/dashboard/domains");
  if (!canUseAdminArea(account.role)) return <AdminNeeded title="Sending domains" area="domains" />;
  const { resend, sharedSendingDomain } = getConfig();
  const simulated = resend === null;
  // With Resend, a domain marked verified while DNS was simulated shows as pending until Resend verifies it.
  const domains = (await listSendingDomainDetails(account.id)).map((domain) => ({
    ...domain,
    verified: isVerifiedForSending(domain, !simulated),
  }));

  return (
    <>
      <PageHeader
        title="Sending domains"
        intro={
          <>
            Emails go out from addresses on a verified domain. A send request without <code>from</code> uses the
            domain&apos;s default sender.
          </>
        }
      />

      <div className="stack">
        {sharedSendingDomain && (
          <div className="alert alert-info">
            <p>
              You can also send from the shared domain <strong>{sharedSendingDomain}</strong> without verifying your
              own.
            </p>
          </div>
        )}
        {simulated && (
          <div className="alert alert-info">
            <p>
              <strong>Local mode.</strong> No email provider is configured, so messages are kept in your outbox instead
              of being delivered, and DNS is not checked: mark a domain verified to send from it.
            </p>
          </div>
        )}

        <CardSection headingId="add-title" title="Add a domain">
          <div className="card-body">
            <AddDomainForm />
          </div>
        </CardSection>

        <CardSection
          headingId="list-title"
          title="Your domains"
          aside={<span className="muted small">{domains.filter((domain) => domain.verified).length} verified</span>}
        >
          {domains.length === 0 ? (
            <div className="empty-state">
              <div className="empty-icon">
                <GlobeIcon size={22} />
              </div>
              <h3>No domains yet</h3>
              <p>Add the domain your emails should come from. You can send once it is verified.</p>
            </div>
          ) : (
            <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
              {domains.map((domain) => (
                <li
                  key={domain.id}
                  className="card-body"
                  style={{ borderBottom: "1px solid var(--border)" }}
                  data-testid="domain-row"
                >
                  <div className="row-between" style={{ marginBottom: 14 }}>
                    <div className="row">
                      <strong className="mono" style={{ fontSize: "0.95rem" }}>
                        {domain.domain}
                      </strong>
                      {domain.verified ? (
                        <span className="badge badge-success badge-dot">Verified</span>
                      ) : domain.provider_status === "failed" ? (
                        <span className="badge badge-danger badge-dot">Verification failed</span>
                      ) : (
                        <span className="badge badge-warning badge-dot">Pending verification</span>
                      )}
                    </div>
                    <span className="row">
                      <span className="muted small">
                        {domain.verified
                          ? `Verified ${formatDateTime(domain.verified_at)}`
                          : `Added ${formatDateTime(domain.created_at)}`}
                      </span>
                      <RemoveDomainButton id={domain.id} domain={domain.domain} verified={domain.verified} />
                    </span>
                  </div>
                  <div className="two-col">
                    <DefaultSenderForm
                      domain={domain.domain}
                      sender={domain.default_sender ?? `hello@${domain.domain}`}
                    />
                    <TrackingForm
                      id={domain.id}
                      domain={domain.domain}
                      open={domain.open_tracking}
                      click={domain.click_tracking}
                    />
                    {!domain.verified && (
                      <VerifyDomainForm
                        id={domain.id}
                        domain={domain.domain}
                        label={simulated ? "Mark as verified" : "Check DNS now"}
                        hint={
                          simulated
                            ? "Local mode has no DNS check."
                            : "Publish the records below at your DNS host, then check. DNS changes can take a while to spread."
                        }
                      />
                    )}
                  </div>
                  {!domain.verified && domain.dns_records && domain.dns_records.length > 0 && (
                    <div className="table-wrap card" style={{ marginTop: 16 }}>
                      <table className="table">
                        <caption className="visually-hidden">DNS records to publish for {domain.domain}</caption>
                        <ColumnHeadings columns={["Type", "Name", "Value", "Status"]} />
                        <tbody>
                          {domain.dns_records.map((record, index) => (
                            <tr key={`${record.type}-${record.name}-${index}`}>
                              <td className="mono">
                                {record.type}
                                {record.priority !== undefined ? ` ${record.priority}` : ""}
                              </td>
                              <td className="mono small">{record.name}</td>
                              <td className="mono small" style={{ maxWidth: 360, overflowWrap: "anywhere" }}>
                                {record.value}
                              </td>
                              <td className="small">{record.status ?? "—"}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </CardSection>
      </div>
    </>
  );
}
