import { NextResponse } from "next/server";
import { errors } from "@/lib/core/errors";
import { renderResponse } from "@/lib/api/render-response";
import { routeHandlers } from "@/lib/api/route";
import { withApiAuth } from "@/lib/api/with-api-auth";
import { admitDashboardRender } from "@/lib/dashboard/preview";
import { renderRequestSchema } from "@/lib/templates/schemas";

// POST /api/dashboard/templates/{id}/render – the template page's preview as its variables are edited, and its
// download "with current variables": POST /api/v1/templates/{id}/render's body and answer (less the email client
// support warnings, which the page shows in its panel), for the signed-in session
// only (same origin). Not an API call: typing would spend a free month's calls in an afternoon. Limited per minute, per
// account and per address instead (PREVIEW_LIMITS), and refused with /render's 429 once the month's calls are used up,
// both before the body is read.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: withApiAuth(
    { metered: false, admit: admitDashboardRender, body: renderRequestSchema, notFound: errors.templateNotFound },
    async ({ request, caller, params, body }) => {
      // Without the email client warnings: the page shows its template's support in a panel of its own.
      const response = await renderResponse(caller.accountId, params.id, body, request.signal, false);
      return response instanceof Response ? response : NextResponse.json(response);
    },
  ),
});
