"use client";
import Link from "next/link";
import { useMemo, useState } from "react";
import { ADDED_VIA_LABEL } from "../../_components/format";
import { GridToolbar, TemplateCard, TemplateGrid } from "../_components/template-grid";

export type LibraryCard = {
  id: string;
  name: string;
  description: string;
  category: string | null;
  author: string | null;
  added_via: string;
  updated: string;
  updatedTitle: string;
  preview_url: string | null;
};

const FILTERS = [
  { value: "all", label: "All" },
  { value: "created", label: "Created" },
  { value: "free", label: "Free" },
  { value: "purchased", label: "Purchased" },
];

export function LibraryGrid({ cards }: { cards: LibraryCard[] }) {
  const [query, setQuery] = useState("");
  const [filter, setFilter] = useState("all");
  const visible = useMemo(() => {
    const q = query.trim().toLowerCase();
    return cards.filter(
      (card) =>
        (filter === "all" || card.added_via === filter) &&
        (!q || `${card.name} ${card.description} ${card.category ?? ""}`.toLowerCase().includes(q)),
    );
  }, [cards, query, filter]);

  return (
    <>
      <GridToolbar
        searchId="library-search"
        searchLabel="Search your library"
        placeholder="Search your library…"
        query={query}
        onQuery={setQuery}
        chipsLabel="Filter by how templates were added"
        chips={FILTERS}
        active={filter}
        onChip={setFilter}
      >
        <span className="muted small" aria-live="polite" style={{ marginLeft: "auto" }}>
          {visible.length} of {cards.length}
        </span>
      </GridToolbar>
      <TemplateGrid cards={visible} noMatchHint="Try another search or filter.">
        {(card) => (
          <TemplateCard
            key={card.id}
            card={card}
            testId="library-card"
            badges={
              <>
                <span className="badge">{card.category ?? "Custom"}</span>
                <span
                  className={`badge ${card.added_via === "purchased" ? "badge-accent" : card.added_via === "created" ? "badge-success" : ""}`}
                >
                  {ADDED_VIA_LABEL[card.added_via] ?? card.added_via}
                </span>
              </>
            }
            title={<Link href={`/dashboard/library/${card.id}`}>{card.name}</Link>}
          >
            {card.description && <p className="desc">{card.description}</p>}
            <div className="template-meta">
              <span>By {card.author ?? "you"}</span>
              <span title={card.updatedTitle}>Modified {card.updated}</span>
            </div>
          </TemplateCard>
        )}
      </TemplateGrid>
    </>
  );
}
