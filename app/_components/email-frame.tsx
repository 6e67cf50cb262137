/**
 * Rendered email HTML in a fully sandboxed iframe: `sandbox=""` gives the document an opaque origin with scripts,
 * forms, popups and top navigation all disabled, so template output can never touch the dashboard.
 */
export function EmailFrame({
  html,
  title,
  mobile = false,
  className = "",
}: {
  html: string;
  title: string;
  mobile?: boolean;
  className?: string;
}) {
  return (
    <iframe
      className={`email-frame${mobile ? " is-mobile" : ""} ${className}`}
      sandbox=""
      srcDoc={html}
      title={title}
      referrerPolicy="no-referrer"
    />
  );
}
