"use client";
import Link from "next/link";
import { useMemo, useState } from "react";
import { ADDED_VIA_LABEL } from "../../_components/format";
import { Thumbnail } from "../../_components/thumbnail";

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
      <div className="toolbar">
        <label htmlFor="library-search" className="visually-hidden">
          Search your library
        </label>
        <input
          id="library-search"
          type="search"
          className="input"
          placeholder="Search your library…"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <div className="chips" role="group" aria-label="Filter by how templates were added">
          {FILTERS.map((option) => (
            <button
              key={option.value}
              type="button"
              className="chip"
              aria-pressed={filter === option.value}
              onClick={() => setFilter(option.value)}
            >
              {option.label}
            </button>
          ))}
        </div>
        <span className="muted small" aria-live="polite" style={{ marginLeft: "auto" }}>
          {visible.length} of {cards.length}
        </span>
      </div>
      {visible.length === 0 ? (
        <div className="card empty-state">
          <h3>No templates match</h3>
          <p>Try another search or filter.</p>
        </div>
      ) : (
        <ul className="template-grid" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {visible.map((card) => (
            <li key={card.id} className="card template-card" data-testid="library-card">
              <div className="thumb">
                <Thumbnail id={card.id} name={card.name} previewUrl={card.preview_url} />
              </div>
              <div className="template-card-body">
                <div className="card-badges">
                  <span className="badge">{card.category ?? "Custom"}</span>
                  <span
                    className={`badge ${card.added_via === "purchased" ? "badge-accent" : card.added_via === "created" ? "badge-success" : ""}`}
                  >
                    {ADDED_VIA_LABEL[card.added_via] ?? card.added_via}
                  </span>
                </div>
                <h3>
                  <Link href={`/dashboard/library/${card.id}`}>{card.name}</Link>
                </h3>
                {card.description && <p className="desc">{card.description}</p>}
                <div className="template-meta">
                  <span>By {card.author ?? "you"}</span>
                  <span title={card.updatedTitle}>Modified {card.updated}</span>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
