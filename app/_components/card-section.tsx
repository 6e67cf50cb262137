import type { ReactNode } from "react";

/** A card of a page: a section named by the heading in its header, with what stands beside the heading (`aside`). */
export function CardSection({
  headingId,
  title,
  aside,
  testId,
  children,
}: {
  headingId: string;
  title: ReactNode;
  aside?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={headingId} data-testid={testId}>
      <div className="card-header">
        <h2 id={headingId}>{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}
