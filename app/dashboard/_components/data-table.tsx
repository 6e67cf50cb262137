import type { ReactNode } from "react";
import { ColumnHeadings, type Column } from "../../_components/column-headings";

/** A card's list, newest first: its column headings, the last one over the rows' actions, then the rows. */
export function DataTable({ columns, children }: { columns: Column[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <ColumnHeadings columns={columns} actions />
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
