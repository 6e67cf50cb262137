import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current";
import { getConfig } from "@/lib/config";
import { listApiKeys } from "@/lib/db/api-keys";
import { ConfirmAction } from "../../../_components/confirm-action";
import { formatDateTime, timeAgo } from "../../../_components/format";
import { KeyIcon } from "../../../_components/icons";
import { revokeApiKeyAction } from "../../actions";
import { KeyGenerator } from "./key-generator";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const account = await requireAccount("/dashboard/settings/api-keys");
  const keys = await listApiKeys(account.id);
  const active = keys.filter((key) => !key.revoked_at);
  const revoked = keys.filter((key) => key.revoked_at);

  return (
    <>
      <div className="breadcrumb">
        <a href="/dashboard/settings">Settings</a> <span aria-hidden="true">/</span> <span>API keys</span>
      </div>
      <div className="page-header">
        <div>
          <h1>API keys</h1>
          <p>
            Authenticate server-side requests with <code>X-API-Key: &lt;key&gt;</code> or{" "}
            <code>Authorization: Bearer &lt;key&gt;</code>. See the <a href="/docs#authentication">API reference</a>.
          </p>
        </div>
      </div>

      <div className="stack">
        <KeyGenerator siteUrl={getConfig().siteUrl} activeKeyIds={active.map((key) => key.id)} />

        <section className="card" aria-labelledby="keys-title">
          <div className="card-header">
            <h2 id="keys-title">Your keys</h2>
            <span className="muted small">
              {active.length} active{revoked.length > 0 ? ` · ${revoked.length} revoked` : ""}
            </span>
          </div>
          {keys.length === 0 ? (
            <div className="empty-state">
              <div className="empty-icon">
                <KeyIcon size={22} />
              </div>
              <h3>No API keys yet</h3>
              <p>Generate your first key above, then call the API from your server.</p>
            </div>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Key</th>
                    <th scope="col" className="hide-sm">
                      Created
                    </th>
                    <th scope="col" className="hide-sm">
                      Last used
                    </th>
                    <th scope="col" className="actions">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {[...active, ...revoked].map((key) => (
                    <tr key={key.id} data-testid="api-key-row" className={key.revoked_at ? "row-revoked" : undefined}>
                      <td>
                        <strong>{key.name}</strong>
                        <div className="muted small only-sm">Last used {timeAgo(key.last_used_at).toLowerCase()}</div>
                      </td>
                      <td className="mono nowrap">{key.display_fragment}</td>
                      <td className="nowrap hide-sm" title={formatDateTime(key.created_at)}>
                        {timeAgo(key.created_at)}
                      </td>
                      <td
                        className="nowrap hide-sm"
                        title={key.last_used_at ? formatDateTime(key.last_used_at) : undefined}
                      >
                        {timeAgo(key.last_used_at)}
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
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
    </>
  );
}
