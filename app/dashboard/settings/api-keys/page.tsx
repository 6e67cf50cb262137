import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current";
import { canUseAdminArea } from "@/lib/teams/rights";
import { AdminNeeded } from "../../_components/admin-needed";
import { getConfig } from "@/lib/core/config";
import { listApiKeysWithCreator, type ApiKeyRecord } from "@/lib/dashboard/queries";
import { isVerifiedForSending, listSendingDomains } from "@/lib/sending-domains/service";
import { ConfirmAction } from "../../../_components/confirm-action";
import {
  API_KEY_KIND_LABEL,
  API_KEY_SCOPE_LABEL,
  formatDate,
  formatDateTime,
  timeAgo,
} from "../../../_components/format";
import { KeyIcon } from "../../../_components/icons";
import { revokeApiKeyAction } from "./actions";
import { KeyGenerator } from "./key-generator";
import { DataTable, EmptyState } from "../../_components/data-table";
import { PageHeader } from "../../_components/page-header";
import { CardSection } from "../../../_components/card-section";

export const metadata: Metadata = { title: "API keys" };

const COLUMNS = [
  "Name",
  { label: "Key", className: "hide-sm" },
  "Access",
  { label: "Domain", className: "hide-sm" },
  { label: "Created", className: "hide-sm" },
  { label: "Last used", className: "hide-sm" },
  { label: "Expires", className: "hide-sm" },
];

export default async function ApiKeysPage() {
  const account = await requireAccount("/dashboard/settings/api-keys");
  if (!canUseAdminArea(account.role)) return <AdminNeeded title="API keys" area="api_keys" />;
  const [keys, domains] = await Promise.all([listApiKeysWithCreator(account.id), listSendingDomains(account.id)]);
  // A Server Component renders once per request, so the request's own time is the one to compare expiries with.
  // eslint-disable-next-line react-hooks/purity
  const now = Date.now();
  const isExpired = (key: ApiKeyRecord) => key.expires_at !== null && key.expires_at.getTime() <= now;
  const active = keys.filter((key) => !key.revoked_at && !isExpired(key));
  const expired = keys.filter((key) => !key.revoked_at && isExpired(key));
  const revoked = keys.filter((key) => key.revoked_at);

  return (
    <>
      <div className="breadcrumb">
        <a href="/dashboard/settings">Settings</a> <span aria-hidden="true">/</span> <span>API keys</span>
      </div>
      <PageHeader
        title="API keys"
        intro={
          <>
            Authenticate server-side requests with <code>X-API-Key: &lt;key&gt;</code> or{" "}
            <code>Authorization: Bearer &lt;key&gt;</code>. See the <a href="/docs#authentication">API reference</a>.
          </>
        }
      />

      <div className="stack">
        <KeyGenerator
          siteUrl={getConfig().siteUrl}
          activeKeyIds={active.map((key) => key.id)}
          domains={domains.map((domain) => ({ domain: domain.domain, verified: isVerifiedForSending(domain) }))}
        />

        <CardSection
          headingId="keys-title"
          title="Your keys"
          aside={
            <span className="muted small">
              {active.length} active{expired.length > 0 ? ` · ${expired.length} expired` : ""}
              {revoked.length > 0 ? ` · ${revoked.length} revoked` : ""}
            </span>
          }
        >
          {keys.length === 0 ? (
            <EmptyState icon={<KeyIcon size={22} />} title="No API keys yet">
              <p>Generate your first key above, then call the API from your server.</p>
            </EmptyState>
          ) : (
            <DataTable columns={COLUMNS}>
              {[...active, ...expired, ...revoked].map((key) => (
                <tr key={key.id} data-testid="api-key-row" className={key.revoked_at ? "row-revoked" : undefined}>
                  <td>
                    <strong>{key.name}</strong>
                    <div className="muted small only-sm">
                      <span className="mono nowrap">{key.display_fragment}</span> · Last used{" "}
                      {timeAgo(key.last_used_at).toLowerCase()}
                      {key.domain && ` · from ${key.domain}`}
                      {key.expires_at && (isExpired(key) ? " · expired" : ` · expires ${formatDate(key.expires_at)}`)}
                    </div>
                  </td>
                  <td className="mono nowrap hide-sm">{key.display_fragment}</td>
                  <td>
                    <span className={`badge badge-dot ${key.kind === "test" ? "badge-warning" : "badge-accent"}`}>
                      {API_KEY_KIND_LABEL[key.kind]}
                    </span>{" "}
                    <span className="badge">{API_KEY_SCOPE_LABEL[key.scope]}</span>
                  </td>
                  <td className="hide-sm">
                    {key.domain ? <span className="mono">{key.domain}</span> : <span className="muted">Any</span>}
                  </td>
                  <td className="nowrap hide-sm" title={formatDateTime(key.created_at)}>
                    {timeAgo(key.created_at)}
                    {key.created_by_email && (
                      <div className="muted small" data-testid="api-key-creator">
                        by {key.created_by_email}
                      </div>
                    )}
                  </td>
                  <td
                    className="nowrap hide-sm"
                    title={key.last_used_at ? formatDateTime(key.last_used_at) : undefined}
                  >
                    {timeAgo(key.last_used_at)}
                  </td>
                  <td className="nowrap hide-sm">
                    {key.expires_at === null ? (
                      <span className="muted">No expiry</span>
                    ) : isExpired(key) ? (
                      <span className="badge badge-danger" title={formatDateTime(key.expires_at)}>
                        Expired
                      </span>
                    ) : (
                      <time dateTime={key.expires_at.toISOString()} title={formatDateTime(key.expires_at)}>
                        {formatDate(key.expires_at)}
                      </time>
                    )}
                  </td>
                  <td className="actions">
                    {key.revoked_at ? (
                      <span className="badge badge-danger" title={formatDateTime(key.revoked_at)}>
                        Revoked
                      </span>
                    ) : (
                      <ConfirmAction
                        action={revokeApiKeyAction}
                        fields={{ id: key.id }}
                        trigger={<>Revoke</>}
                        title={`Revoke “${key.name}”?`}
                        body={
                          <p>
                            Requests using <code>{key.display_fragment}</code> will be refused with 401 immediately.
                            This cannot be undone.
                          </p>
                        }
                        confirmLabel="Revoke key"
                        pendingLabel="Revoking…"
                      />
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </CardSection>
      </div>
    </>
  );
}
