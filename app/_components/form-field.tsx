import type { ReactNode } from "react";

/** A form's field: its label (marked "(optional)" when it may be left empty), then its control and hint. */
export function FormField({
  id,
  label,
  optional = false,
  children,
}: {
  id: string;
  label: ReactNode;
  optional?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
        {optional && (
          <>
            {" "}
            <span className="label-optional">(optional)</span>
          </>
        )}
      </label>
      {children}
    </div>
  );
}
