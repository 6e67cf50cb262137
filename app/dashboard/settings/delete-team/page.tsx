import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current";
import { adminRequired, canUseAdminArea } from "@/lib/teams/rights";
import { CardSection } from "../../../_components/card-section";
import { PageHeader } from "../../_components/page-header";
import { DeleteTeamForm } from "./delete-forms";

export const metadata: Metadata = { title: "Delete team" };

export default async function DeleteTeamPage() {
  const account = await requireAccount("/dashboard/settings/delete-team");
  return (
    <>
      <PageHeader
        title="Delete team"
        intro="Every template, email, key, domain, webhook, member and audit entry of the team goes, at once and for good. A subscription is cancelled first."
      />
      <CardSection headingId="delete-team-title" title={`Delete ${account.name}`}>
        {canUseAdminArea(account.role) ? (
          <DeleteTeamForm name={account.name} />
        ) : (
          <p className="card-body">{adminRequired("delete_team").message}</p>
        )}
      </CardSection>
    </>
  );
}
