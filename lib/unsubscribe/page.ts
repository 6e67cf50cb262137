import "server-only";

// The pages of /u/<token>: plain HTML, readable on any screen and by screen readers, each saying what was or will be
// done. Built here rather than as React pages: the same URL takes a mail client's POST, which a page cannot answer.

export type UnsubscribePage =
  | { kind: "confirm"; address: string; group: string }
  | { kind: "done"; address: string; group: string }
  | { kind: "invalid" }
  | { kind: "limited"; retryAfterSeconds: number }
  | { kind: "failed"; requestId: string };

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** "emails to a@b.c" or "emails about Weekly digest to a@b.c". */
const what = (address: string, group: string) =>
  `emails${group ? ` about <strong>${escapeHtml(group)}</strong>` : ""} to <strong>${escapeHtml(address)}</strong>`;

const STYLE = `body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f6f6f4}
main{max-width:32rem;margin:12vh auto;padding:2rem 1.5rem;background:#fff;border:1px solid #deded8;border-radius:12px}
h1{font-size:1.5rem;margin:0 0 .75rem}p{margin:0 0 1rem;overflow-wrap:anywhere}
button{font:inherit;font-weight:600;color:#fff;background:#1d4ed8;border:0;border-radius:8px;padding:.7rem 1.2rem;cursor:pointer}
button:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}.muted{color:#55554f;font-size:.9rem}`;

function document(status: number, title: string, body: string, headers: Record<string, string> = {}): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

export function unsubscribePage(page: UnsubscribePage): Response {
  switch (page.kind) {
    case "confirm":
      return document(
        200,
        "Unsubscribe",
        `<p>Stop ${what(page.address, page.group)} from this sender?</p><form method="post"><button type="submit">Unsubscribe</button></form><p class="muted">Nothing changes until you press the button.</p>`,
      );
    case "done":
      return document(
        200,
        "You are unsubscribed",
        `<p>No more ${what(page.address, page.group)} will be sent from this sender.</p><p class="muted">You can close this page.</p>`,
      );
    case "invalid":
      return document(
        404,
        "This link does not work",
        `<p>This unsubscribe link is not one we made, or it was changed on its way here. Use the link in the email itself.</p>`,
      );
    case "limited":
      return document(
        429,
        "Too many tries",
        `<p>This address was unsubscribed from this link too many times in a short while. Try again in ${Math.ceil(page.retryAfterSeconds / 60)} minutes.</p>`,
        { "retry-after": String(page.retryAfterSeconds) },
      );
    case "failed":
      return document(
        500,
        "Something went wrong",
        `<p>Nothing was changed. Try again in a moment.</p><p class="muted">Reference: ${escapeHtml(page.requestId)}</p>`,
      );
  }
}
