import { NextResponse } from "next/server";
import { z } from "zod";
import { routeHandlers } from "@/lib/api/route";
import { withApiAuth } from "@/lib/api/with-api-auth";
import { admitDashboardRender, renderDraft } from "@/lib/dashboard/preview";
import { MAX_LOCALE_CHARS, MAX_TEMPLATE_PATH_CHARS, MAX_TEMPLATE_SOURCE_CHARS } from "@/lib/core/limits";
import { variablesSchema } from "@/lib/core/schemas";

// POST /api/dashboard/templates/preview – the New template editor's live preview: compiles unsaved TSX and renders it
// in the same WebAssembly sandbox as saved user templates. Signed-in dashboard users only, same origin only.
// A preview is not an API call: editing would otherwise spend a free month's calls in an afternoon. But it renders
// whatever code and variables it is sent, as POST /render does, so once the month's calls are used up it answers
// /render's 429 too. Limited per minute, per account and per address (PREVIEW_LIMITS), before the body is read.

// One source, or the editor's files by path with their entry (their count, paths and size checked as saving does).
const bodySchema = z.union([
  z.object({
    code: z.string().max(MAX_TEMPLATE_SOURCE_CHARS),
    // null: the component's PreviewProps. Bounded as /render's variables are.
    variables: variablesSchema.unwrap().nullable().default(null),
  }),
  z.object({
    files: z.record(z.string(), z.string()),
    entry: z.string().max(MAX_TEMPLATE_PATH_CHARS),
    // A template with messages: its default locale, and the locale to preview (the template page's picker).
    default_locale: z.string().max(MAX_LOCALE_CHARS).optional(),
    locale: z.string().max(MAX_LOCALE_CHARS).optional(),
    variables: variablesSchema.unwrap().nullable().default(null),
  }),
]);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: withApiAuth(
    { metered: false, admit: admitDashboardRender, body: bodySchema },
    async ({ request, caller, body }) => {
      const { variables, ...source } = body;
      const result = await renderDraft(caller.accountId, source, variables, request.signal);
      return NextResponse.json(result, { headers: { "cache-control": "no-store" } });
    },
  ),
});
