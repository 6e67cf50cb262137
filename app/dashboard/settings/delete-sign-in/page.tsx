import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current";
import { CardSection } from "../../../_components/card-section";
import { PageHeader } from "../../_components/page-header";
import { DeleteSignInForm } from "../delete-team/delete-forms";

export const metadata: Metadata = { title: "Delete sign-in" };

export default async function DeleteSignInPage() {
  const account = await requireAccount("/dashboard/settings/delete-sign-in");
  return (
    <>
      <PageHeader
        title="Delete sign-in"
        intro="Your sign-in and your memberships go; teams where you are the only member are deleted with it. Refused while you are the last admin of a team with other members."
      />
      <CardSection headingId="delete-sign-in-title" title={`Delete ${account.person.email}`}>
        <DeleteSignInForm />
      </CardSection>
    </>
  );
}
