import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { catalogueVariablesSchema, getCatalogueEntry } from "@/lib/catalogue/catalogue";
import { boughtTemplateIds, libraryMembership, listCatalogue } from "@/lib/catalogue/library";
import { libraryAllowance } from "@/lib/dashboard/queries";
import { getPaymentProcessor } from "@/lib/billing/payments";
import { OPEN_VARIABLES_SCHEMA, type VariablesSchema } from "@/lib/templates/variables-schema";
import { PLAN_LABEL } from "../../_components/format";
import { Meter } from "../../_components/meter";
import { CatalogueGrid, type Blockers } from "./catalogue-grid";
import { PageHeader } from "../_components/page-header";

export const metadata: Metadata = { title: "Catalogue" };

export default async function CataloguePage({ searchParams }: { searchParams: Promise<{ checkout?: string }> }) {
  const account = await requireAccount("/dashboard/catalogue");
  const { checkout } = await searchParams;
  const [catalogue, membership, bought, allowance] = await Promise.all([
    listCatalogue(),
    libraryMembership(account.id),
    boughtTemplateIds(account.id),
    libraryAllowance(account.id, account.plan),
  ]);
  const processor = getPaymentProcessor();
  const plan = PLAN_LABEL[account.plan];
  // Why cards' buttons are disabled: each reason is said once on the page, and every button it disables points at it.
  const libraryReason = allowance.libraryFull
    ? {
        id: "library-full",
        text: `Your library is full (${allowance.libraryLimit} templates on the ${plan} plan). Every template you add, create or buy takes a slot. Upgrade to a paid plan for an unlimited library.`,
      }
    : null;
  // A full library blocks every card, so then only its reason is said.
  const purchaseReason =
    allowance.purchasesExhausted && !libraryReason
      ? {
          id: "purchase-limit",
          text: `You've made ${allowance.purchasesThisMonth} premium purchase${allowance.purchasesThisMonth === 1 ? "" : "s"} this month, the ${plan} plan's limit. The count resets on the first day of next month (UTC), or upgrade for unlimited purchases.`,
        }
      : null;
  const limitReason = libraryReason ?? purchaseReason;
  const unavailableReason = processor
    ? null
    : { id: "purchases-unavailable", text: "Purchases are not available on this deployment yet." };
  const blockers: Blockers = {
    library: libraryReason?.id ?? null,
    purchase: purchaseReason?.id ?? null,
    purchasesUnavailable: unavailableReason?.id ?? null,
  };
  const limited = allowance.libraryLimit !== null || allowance.purchaseLimit !== null;

  return (
    <>
      <PageHeader
        title="Catalogue"
        intro={
          <>
            Production-ready templates by Letterpress. Free ones join your library in a click; premium ones are a
            one-off purchase.
          </>
        }
        actions={processor?.testMode && <span className="badge badge-warning">Test-mode payments</span>}
      />

      {checkout === "success" && (
        <div className="alert alert-success" role="status" style={{ marginBottom: 20 }}>
          <p>
            Payment received, thank you! The template joins your library as soon as the payment provider confirms it,
            usually within seconds. Refresh if it isn&apos;t marked “In library” yet.
          </p>
        </div>
      )}
      {checkout === "cancelled" && (
        <div className="alert alert-info" role="status" style={{ marginBottom: 20 }}>
          <p>Checkout cancelled. Nothing was charged.</p>
        </div>
      )}

      {limited && (
        <section className="card" aria-labelledby="limits-title" style={{ marginBottom: 20 }}>
          <div className="card-body stack">
            <div className="row-between">
              <h2 id="limits-title" style={{ margin: 0, fontSize: "1rem" }}>
                {plan} plan limits
              </h2>
              <Link href="/dashboard/billing" className="small">
                Upgrade for unlimited templates
              </Link>
            </div>
            <div className="form-row">
              <Meter
                label="Templates in your library"
                used={allowance.librarySize}
                limit={allowance.libraryLimit}
                unit="templates"
              />
              <Meter
                label="Premium purchases this month"
                used={allowance.purchasesThisMonth}
                limit={allowance.purchaseLimit}
                unit="purchases"
              />
            </div>
            {limitReason && (
              <div className="alert alert-warning" role="status">
                <p id={limitReason.id}>{limitReason.text}</p>
              </div>
            )}
          </div>
        </section>
      )}

      {unavailableReason && (
        <div className="alert alert-info" style={{ marginBottom: 20 }}>
          <p id={unavailableReason.id}>{unavailableReason.text}</p>
        </div>
      )}

      <CatalogueGrid
        testMode={processor?.testMode ?? false}
        blockers={blockers}
        cards={catalogue.map((template) => ({
          id: template.id,
          name: template.name,
          description: template.description,
          category: template.category,
          author: template.author,
          price: Number(template.price),
          preview_url: template.preview_image_url,
          addedVia: membership.get(template.id) ?? null,
          bought: bought.has(template.id),
          variables: variablesOf(template.slug),
        }))}
      />
    </>
  );
}

/** A catalogue template's variables, from the zod schema it is rendered with. */
function variablesOf(slug: string | null): VariablesSchema {
  const entry = slug ? getCatalogueEntry(slug) : undefined;
  return entry ? catalogueVariablesSchema(entry) : OPEN_VARIABLES_SCHEMA;
}
