import type { ReactNode } from "react";

export type Column = { label: string; className?: string };

/** A card's list, newest first: its column headings, then a last, unlabelled (to the eye) column for row actions. */
export function DataTable({ columns, children }: { columns: Column[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.className}>
                {column.label}
              </th>
            ))}
            <th scope="col" className="actions">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** What a card shows in place of an empty list: an icon, a heading (h2 or h3, by the card's outline) and a hint. */
export function EmptyState({
  icon,
  title,
  heading = "h3",
  children,
}: {
  icon: ReactNode;
  title: ReactNode;
  heading?: "h2" | "h3";
  children: ReactNode;
}) {
  const Heading = heading;
  return (
    <div className="empty-state">
      <div className="empty-icon">{icon}</div>
      <Heading>{title}</Heading>
      {children}
    </div>
  );
}
