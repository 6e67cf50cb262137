import { errors } from "@/lib/core/errors";
import { routeHandlers } from "@/lib/api/route";
import { withApiAuth } from "@/lib/api/with-api-auth";
import { getTemplateArchiveOrThrow } from "@/lib/templates/archive";

// GET /api/dashboard/templates/{id}/download – the dashboard's "Download": a zip of the template's files. Templates
// in the caller's library and public free catalogue templates only; anything else is 404 TEMPLATE_NOT_FOUND.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: withApiAuth({ metered: false, notFound: errors.templateNotFound }, async ({ caller, params }) => {
    if (caller.via !== "session") throw errors.unauthorized();
    const { fileName, zip } = await getTemplateArchiveOrThrow(caller.accountId, params.id);
    return new Response(zip, {
      headers: {
        "content-type": "application/zip",
        // The base name holds only a-z, 0-9 and -, so it needs no quoting beyond the quotes.
        "content-disposition": `attachment; filename="${fileName}"`,
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
      },
    });
  }),
});
