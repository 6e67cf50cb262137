import type { ReactNode } from "react";
import { CopyButton } from "./copy-button";

/**
 * A code block with a Copy button in its top right corner. `children` replaces the plain <pre> where the block needs
 * more (the docs' ScrollBox); `code` is what is copied either way.
 */
export function CodeSnippet({
  code,
  name,
  children,
  style,
}: {
  code: string;
  /** What the block is, for the button's name: "Copy {name}". */
  name: string;
  children?: ReactNode;
  style?: React.CSSProperties;
}) {
  return (
    <div className="code-snippet" style={style}>
      {children ?? (
        <pre className="code-block">
          <code>{code}</code>
        </pre>
      )}
      <CopyButton value={code} ariaLabel={`Copy ${name}`} className="btn btn-sm code-copy" />
    </div>
  );
}
