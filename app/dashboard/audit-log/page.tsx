import type { Metadata } from "next";
import Link from "next/link";
import { listAuditLogPage } from "@/lib/audit/service";
import { AUDIT_ACTIONS, type AuditAction } from "@/lib/audit/schemas";
import { requireAccount } from "@/lib/auth/current";
import { holdsNul } from "@/lib/core/schemas";
import { canUseAdminArea } from "@/lib/teams/rights";
import { CardSection } from "../../_components/card-section";
import { formatDateTime } from "../../_components/format";
import { FormField } from "../../_components/form-field";
import { ShieldIcon } from "../../_components/icons";
import { Pager } from "../../_components/pager";
import { DataTable, EmptyState } from "../_components/data-table";
import { PageHeader } from "../_components/page-header";

export const metadata: Metadata = { title: "Audit log" };

const PAGE = "/dashboard/audit-log";
const PAGE_SIZE = 50;
const COLUMNS = ["When", "Who", "What", { label: "Address", className: "hide-sm" }];
const ACTOR_KIND = { user: "Person", api_key: "API key", system: "Letterpress" } as const;

type Filter = { action?: AuditAction; actor?: string };

function logHref({ action, actor }: Filter, page = 1): string {
  const query = new URLSearchParams();
  if (action) query.set("action", action);
  if (actor) query.set("actor", actor);
  if (page > 1) query.set("page", String(page));
  const text = query.toString();
  return text ? `${PAGE}?${text}` : PAGE;
}

/** What the URL asks for, anything else ignored: an unknown action, or an actor id no entry could hold. */
function filterOf(params: { action?: string; actor?: string }): Filter {
  const action = AUDIT_ACTIONS.find((known) => known === params.action);
  const actor = params.actor && params.actor.length <= 64 && !holdsNul(params.actor) ? params.actor : undefined;
  return { action, actor };
}

export default async function AuditLogPage({
  searchParams,
}: {
  searchParams: Promise<{ action?: string; actor?: string; page?: string }>;
}) {
  const account = await requireAccount(PAGE);
  if (!canUseAdminArea(account.role)) {
    return (
      <>
        <PageHeader title="Audit log" intro="Who changed what in this team." />
        <CardSection headingId="audit-log-admin" title="An admin of this team is needed">
          <p>Only the team&apos;s admins read its audit log. Ask one of them if you need to know who changed what.</p>
        </CardSection>
      </>
    );
  }
  const params = await searchParams;
  const filter = filterOf(params);
  const requested = Math.max(1, Number.parseInt(params.page ?? "1", 10) || 1);
  // One statement a page, on the (account, created_at desc, id desc) indexes, whatever the filter.
  const { events, pagination } = await listAuditLogPage(account.id, {
    limit: PAGE_SIZE,
    offset: (requested - 1) * PAGE_SIZE,
    action: filter.action,
    actorId: filter.actor,
  });
  const pages = Math.max(1, Math.ceil(pagination.total / PAGE_SIZE));

  return (
    <>
      <PageHeader
        title="Audit log"
        intro={
          <>
            Who changed what in {account.name}: API keys, sending domains, webhooks, members and invitations, the plan,
            templates, the library and suppressions, each entry written with its change. Entries are never edited or
            deleted. The API answers the same at <code>GET /audit-log</code>.
          </>
        }
      />

      <CardSection
        headingId="audit-log-title"
        title="Entries"
        aside={<span className="muted small">Newest first</span>}
      >
        <form action={PAGE} method="get" className="form-row" style={{ marginBottom: 16, alignItems: "end" }}>
          <FormField id="audit-action" label="Action">
            <select id="audit-action" name="action" className="select" defaultValue={filter.action ?? ""}>
              <option value="">Every action</option>
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </select>
          </FormField>
          {filter.actor && <input type="hidden" name="actor" value={filter.actor} />}
          <button type="submit" className="btn btn-secondary">
            Filter
          </button>
          {(filter.action || filter.actor) && (
            <Link href={PAGE} className="btn btn-ghost">
              Show everything
            </Link>
          )}
        </form>
        {filter.actor && (
          <p className="muted small">
            Changes by one actor only ({filter.actor}).{" "}
            <Link href={logHref({ action: filter.action })}>Everyone&apos;s</Link>
          </p>
        )}
        {events.length === 0 ? (
          <EmptyState icon={<ShieldIcon size={22} />} title="No entries">
            <p>
              {filter.action || filter.actor
                ? "Nothing matches this filter."
                : "Changes to keys, domains, webhooks, members, the plan and templates appear here as they are made."}
            </p>
          </EmptyState>
        ) : (
          <DataTable columns={COLUMNS}>
            {events.map((event) => (
              <tr key={event.id} data-testid="audit-row">
                <td className="nowrap small">
                  <time dateTime={event.created_at}>{formatDateTime(event.created_at)}</time>
                </td>
                <td style={{ overflowWrap: "anywhere" }}>
                  {event.actor.id ? (
                    <Link href={logHref({ action: filter.action, actor: event.actor.id })} title="Only their changes">
                      {event.actor.label}
                    </Link>
                  ) : (
                    event.actor.label
                  )}
                  <div className="muted small">{ACTOR_KIND[event.actor.type]}</div>
                </td>
                <td style={{ overflowWrap: "anywhere" }}>
                  <code>{event.action}</code>
                  {event.target.label && <div className="small">{event.target.label}</div>}
                </td>
                <td className="nowrap small hide-sm">{event.ip ?? "—"}</td>
                <td className="actions" />
              </tr>
            ))}
          </DataTable>
        )}
        <Pager
          offset={pagination.offset}
          shown={events.length}
          total={pagination.total}
          page={requested}
          pages={pages}
          href={(page) => logHref(filter, page)}
        />
      </CardSection>
    </>
  );
}
