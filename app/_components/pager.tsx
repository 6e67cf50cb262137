import Link from "next/link";

/** Newer/Older links under a paged table, newest first, with "21–40 of 95". */
export function Pager({
  offset,
  shown,
  total,
  page,
  pages,
  href,
}: {
  offset: number;
  shown: number;
  total: number;
  page: number;
  pages: number;
  href: (page: number) => string;
}) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <span className="muted small">
        {offset + 1}–{offset + shown} of {total}
      </span>
      {page > 1 ? (
        <Link href={href(page - 1)} className="btn btn-secondary btn-sm" rel="prev">
          Newer
        </Link>
      ) : null}
      {page < pages ? (
        <Link href={href(page + 1)} className="btn btn-secondary btn-sm" rel="next">
          Older
        </Link>
      ) : null}
    </nav>
  );
}
