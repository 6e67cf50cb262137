/** A column's heading, with the class its cells share (as `hide-sm`, hidden on a phone). */
export type Column = string | { label: string; className?: string };

/**
 * A table's header row: a `scope="col"` heading a column, then, with `actions`, one over the rows' buttons that only
 * a screen reader reads.
 */
export function ColumnHeadings({ columns, actions = false }: { columns: Column[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const { label, className } = typeof column === "string" ? { label: column, className: undefined } : column;
          return (
            <th key={label} scope="col" className={className}>
              {label}
            </th>
          );
        })}
        {actions && (
          <th scope="col" className="actions">
            <span className="visually-hidden">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
