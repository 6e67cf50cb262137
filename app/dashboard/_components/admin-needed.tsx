import { ShieldIcon } from "../../_components/icons";
import { ADMIN_AREAS, type AdminArea } from "@/lib/teams/rights";
import { PageHeader } from "./page-header";
import { EmptyState } from "./data-table";

/** What a member sees on an admin-only page (lib/teams/rights.ts) in place of its content. */
export function AdminNeeded({ title, area }: { title: string; area: AdminArea }) {
  return (
    <>
      <PageHeader title={title} intro={`Only an admin of this team manages ${ADMIN_AREAS[area]}.`} />
      <div className="card" data-testid="admin-needed">
        <EmptyState icon={<ShieldIcon />} title="An admin of this team is needed" heading="h2">
          <p className="muted">Ask one of the team&apos;s admins, or switch to a team where you are an admin.</p>
        </EmptyState>
      </div>
    </>
  );
}
