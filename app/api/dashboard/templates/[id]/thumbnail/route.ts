import { clientAddress } from "@/lib/api/client-address";
import { errors } from "@/lib/core/errors";
import { routeHandlers } from "@/lib/api/route";
import { withApiAuth } from "@/lib/api/with-api-auth";
import {
  admitPreview,
  findPreviewableTemplateOrThrow,
  renderThumbnail,
  THUMBNAIL_UNAVAILABLE_HTML,
} from "@/lib/dashboard/preview";

const options = { metered: false, notFound: errors.templateNotFound };

// GET /api/dashboard/templates/{id}/thumbnail – a template rendered with its sample values, for the dashboard's card
// previews (shown in `<iframe sandbox="">`). Templates in the caller's library and public catalogue templates only.
// The CSP `sandbox` directive keeps the document in an opaque origin even when the URL is opened directly.
// A thumbnail changes only with its template's version, which its ETag names: the browser asks again with it and an
// unchanged thumbnail answers 304 without rendering or counting against the preview limits (PREVIEW_LIMITS).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: withApiAuth(options, async ({ request, caller, params }) => {
    if (caller.via !== "session") throw errors.unauthorized();
    const template = await findPreviewableTemplateOrThrow(caller.accountId, params.id);
    const etag = `"${template.id}.${template.version}.${template.updated_at.getTime()}"`;
    const cached = request.headers
      .get("if-none-match")
      ?.split(",")
      .some((tag) => tag.trim().replace(/^W\//, "") === etag);
    if (cached) return new Response(null, { status: 304, headers: { etag, "cache-control": CACHE_CONTROL } });
    await admitPreview(caller, clientAddress(request.headers));
    const html = await renderThumbnail(caller.accountId, template);
    return new Response(html ?? THUMBNAIL_UNAVAILABLE_HTML, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        // One that could not render is asked for anew next time.
        ...(html === null ? { "cache-control": "no-store" } : { "cache-control": CACHE_CONTROL, etag }),
        "content-security-policy":
          "sandbox; default-src 'none'; img-src * data:; style-src 'unsafe-inline' *; font-src * data:",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
      },
    });
  }),
});

const CACHE_CONTROL = "private, max-age=300";
