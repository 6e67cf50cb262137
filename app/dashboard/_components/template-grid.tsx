import type { ReactNode } from "react";
import { Thumbnail } from "../../_components/thumbnail";

export type Chip = { value: string; label: string };

/** Above a grid of templates: a search box and a row of filter chips, one of them pressed, then any extras. */
export function GridToolbar({
  searchId,
  searchLabel,
  placeholder,
  query,
  onQuery,
  chipsLabel,
  chips,
  active,
  onChip,
  children,
}: {
  searchId: string;
  searchLabel: string;
  placeholder: string;
  query: string;
  onQuery: (query: string) => void;
  chipsLabel: string;
  chips: Chip[];
  active: string;
  onChip: (value: string) => void;
  children?: ReactNode;
}) {
  return (
    <div className="toolbar">
      <label htmlFor={searchId} className="visually-hidden">
        {searchLabel}
      </label>
      <input
        id={searchId}
        type="search"
        className="input"
        placeholder={placeholder}
        value={query}
        onChange={(event) => onQuery(event.target.value)}
      />
      <div className="chips" role="group" aria-label={chipsLabel}>
        {chips.map((chip) => (
          <button
            key={chip.value}
            type="button"
            className="chip"
            aria-pressed={active === chip.value}
            onClick={() => onChip(chip.value)}
          >
            {chip.label}
          </button>
        ))}
      </div>
      {children}
    </div>
  );
}

/** The grid of template cards, or what stands in its place when the search and filter leave none. */
export function TemplateGrid<Card extends { id: string }>({
  cards,
  noMatchHint,
  children,
}: {
  cards: Card[];
  noMatchHint: string;
  children: (card: Card) => ReactNode;
}) {
  if (cards.length === 0)
    return (
      <div className="card empty-state">
        <h3>No templates match</h3>
        <p>{noMatchHint}</p>
      </div>
    );
  return (
    <ul className="template-grid" style={{ listStyle: "none", padding: 0, margin: 0 }}>
      {cards.map(children)}
    </ul>
  );
}

/** One card of the grid: the template's thumbnail, its badges, its name, then the rest of its body and its actions. */
export function TemplateCard({
  card,
  testId,
  dataName,
  badges,
  title,
  children,
  actions,
}: {
  card: { id: string; name: string; preview_url: string | null };
  testId: string;
  dataName?: string;
  badges: ReactNode;
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <li className="card template-card" data-testid={testId} data-name={dataName}>
      <div className="thumb">
        <Thumbnail id={card.id} name={card.name} previewUrl={card.preview_url} />
      </div>
      <div className="template-card-body">
        <div className="card-badges">{badges}</div>
        <h3>{title}</h3>
        {children}
      </div>
      {actions}
    </li>
  );
}
