"use client";
import Link from "next/link";
import { useActionState, useMemo, useRef, useState } from "react";
import type { VariablesSchema } from "@/lib/templates/variables-schema";
import { formatPrice } from "../../_components/format";
import { SubmitButton } from "../../_components/submit-button";
import { VariablesList } from "../../_components/variables-list";
import { addTemplateAction, type AddTemplateState } from "./actions";
import { GridToolbar, TemplateCard, TemplateGrid } from "../_components/template-grid";

export type CatalogueCard = {
  id: string;
  name: string;
  description: string;
  category: string | null;
  author: string | null;
  price: number;
  preview_url: string | null;
  addedVia: string | null;
  /** Bought before: adding it back (after removing it from the library) charges nothing. */
  bought: boolean;
  variables: VariablesSchema;
};

/** The id of the page's sentence saying why each kind of card is blocked, or null when it is not. */
export type Blockers = { library: string | null; purchase: string | null; purchasesUnavailable: string | null };

export function CatalogueGrid({
  cards,
  blockers,
  testMode,
}: {
  cards: CatalogueCard[];
  blockers: Blockers;
  testMode: boolean;
}) {
  const [query, setQuery] = useState("");
  const [category, setCategory] = useState("All");
  const categories = useMemo(
    () => ["All", ...Array.from(new Set(cards.map((card) => card.category ?? "Other"))).sort()],
    [cards],
  );
  const visible = cards.filter(
    (card) =>
      (category === "All" || (card.category ?? "Other") === category) &&
      (!query.trim() || `${card.name} ${card.description}`.toLowerCase().includes(query.trim().toLowerCase())),
  );

  return (
    <>
      <GridToolbar
        searchId="catalogue-search"
        searchLabel="Search the catalogue"
        placeholder="Search templates…"
        query={query}
        onQuery={setQuery}
        chipsLabel="Filter by category"
        chips={categories.map((name) => ({ value: name, label: name }))}
        active={category}
        onChip={setCategory}
      />
      <TemplateGrid cards={visible} noMatchHint="Try another search or category.">
        {(card) => (
          <TemplateCard
            key={card.id}
            card={card}
            testId="catalogue-card"
            dataName={card.name}
            badges={
              <>
                <span className="badge">{card.category ?? "Other"}</span>
                {card.addedVia ? (
                  <span className="badge badge-success">In library</span>
                ) : card.bought ? (
                  <span className="badge badge-accent">Bought</span>
                ) : (
                  <span className={`badge ${card.price > 0 ? "badge-accent" : ""}`}>{formatPrice(card.price)}</span>
                )}
              </>
            }
            title={card.name}
            actions={<CardActions card={card} blockers={blockers} testMode={testMode} />}
          >
            <p className="desc">{card.description}</p>
            <div className="template-meta">
              <span>By {card.author ?? "Letterpress"}</span>
            </div>
          </TemplateCard>
        )}
      </TemplateGrid>
    </>
  );
}

function CardActions({ card, blockers, testMode }: { card: CatalogueCard; blockers: Blockers; testMode: boolean }) {
  const [state, action] = useActionState<AddTemplateState, FormData>(addTemplateAction, { status: "idle" });
  const preview = useRef<HTMLDialogElement>(null);
  // The dialog's frame is made when it first opens: in the closed dialog it was fetched at once, beside the card's
  // thumbnail, so every thumbnail was asked for twice. Opened, it is the thumbnail the browser already has.
  const [previewed, setPreviewed] = useState(false);
  const confirm = useRef<HTMLDialogElement>(null);
  // A template bought before is added back like a free one: no purchase, so no purchase limit.
  const paid = card.price > 0 && !card.bought;
  const inLibrary = card.addedVia !== null || state.status === "success";
  const blocked = inLibrary
    ? null
    : (blockers.library ?? (paid ? (blockers.purchasesUnavailable ?? blockers.purchase) : null));

  return (
    <div className="template-card-actions">
      {inLibrary ? (
        <Link href={`/dashboard/library/${card.id}`} className="btn btn-secondary btn-sm">
          Open in library
        </Link>
      ) : paid ? (
        <>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={blocked !== null}
            aria-describedby={blocked ?? undefined}
            onClick={() => confirm.current?.showModal()}
          >
            Buy for {formatPrice(card.price)}
          </button>
          <dialog ref={confirm} className="dialog" aria-labelledby={`buy-${card.id}`}>
            <form
              action={async (formData) => {
                await action(formData);
                confirm.current?.close();
              }}
            >
              <input type="hidden" name="templateId" value={card.id} />
              <div className="dialog-body">
                <h2 id={`buy-${card.id}`}>Buy “{card.name}”?</h2>
                <p className="muted">
                  {formatPrice(card.price)}, once. It joins your library for good: render it, send it and download its
                  source.
                </p>
                {testMode && (
                  <div className="alert alert-info">
                    <p>Test mode: no card is charged and the purchase completes at once.</p>
                  </div>
                )}
              </div>
              <div className="dialog-actions">
                <button type="button" className="btn btn-secondary" onClick={() => confirm.current?.close()} autoFocus>
                  Cancel
                </button>
                <SubmitButton pendingLabel="Processing…">Buy for {formatPrice(card.price)}</SubmitButton>
              </div>
            </form>
          </dialog>
        </>
      ) : (
        <form action={action}>
          <input type="hidden" name="templateId" value={card.id} />
          <SubmitButton
            className="btn btn-primary btn-sm"
            pendingLabel="Adding…"
            disabled={blocked !== null}
            aria-describedby={blocked ?? undefined}
          >
            {card.bought ? "Add back to library" : "Add to library"}
          </SubmitButton>
        </form>
      )}
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        onClick={() => {
          setPreviewed(true);
          preview.current?.showModal();
        }}
      >
        Preview
      </button>
      <dialog
        ref={preview}
        className="dialog"
        style={{ width: "min(720px, calc(100vw - 24px))" }}
        aria-labelledby={`preview-${card.id}`}
      >
        <div className="dialog-body">
          <div className="row-between">
            <h2 id={`preview-${card.id}`} style={{ margin: 0 }}>
              {card.name}
            </h2>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => preview.current?.close()} autoFocus>
              Close
            </button>
          </div>
          <p className="muted small">Shown with sample values.</p>
        </div>
        <div style={{ padding: "0 16px 16px" }}>
          {previewed && (
            <iframe
              className="email-frame"
              style={{ height: "70vh" }}
              sandbox=""
              src={`/api/dashboard/templates/${card.id}/thumbnail`}
              title={`Preview of ${card.name}`}
            />
          )}
        </div>
        <section className="dialog-body" style={{ paddingTop: 0 }} aria-labelledby={`variables-${card.id}`}>
          <h3 id={`variables-${card.id}`} style={{ fontSize: "1rem", marginTop: 0 }}>
            Variables
          </h3>
          <VariablesList schema={card.variables} label={`Variables of ${card.name}`} />
        </section>
      </dialog>
      <div aria-live="polite" className="template-card-message">
        {state.status === "success" && (
          <span className="hint" style={{ color: "var(--success)" }}>
            {state.message}
          </span>
        )}
        {state.status === "error" && (
          <span className="field-error" role="alert">
            {state.message}
          </span>
        )}
      </div>
    </div>
  );
}
