import type { ReactNode } from "react";

/** A dashboard page's title, the paragraph under it and, on the right, its actions. */
export function PageHeader({ title, intro, actions }: { title: ReactNode; intro: ReactNode; actions?: ReactNode }) {
  return (
    <div className="page-header">
      <div>
        <h1>{title}</h1>
        <p>{intro}</p>
      </div>
      {actions}
    </div>
  );
}
