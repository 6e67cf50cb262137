import type { NextRequest } from "next/server";
import { getCurrentAccount } from "@/lib/auth/current";
import { renderThumbnail } from "@/lib/dashboard/preview";
import { findTemplateForAccount } from "@/lib/db/templates";
import { uuidSchema } from "@/lib/schemas/common";

// GET /api/dashboard/templates/{id}/thumbnail – a template rendered with its sample values, for the dashboard's card
// previews (shown in `<iframe sandbox="">`). Templates in the caller's library and public catalogue templates only.
// The CSP `sandbox` directive keeps the document in an opaque origin even when the URL is opened directly.
export async function GET(_request: NextRequest, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  const account = await getCurrentAccount();
  if (!account) return new Response("Authentication required", { status: 401 });
  if (!uuidSchema.safeParse(id).success) return new Response("Not found", { status: 404 });
  const template = await findTemplateForAccount(account.id, id);
  const visible = template && (template.in_library || (template.owner_account_id === null && template.is_public));
  if (!template || !visible) return new Response("Not found", { status: 404 });
  const html = await renderThumbnail(account.id, template);
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "private, max-age=300",
      "content-security-policy": "sandbox; default-src 'none'; img-src * data:; style-src 'unsafe-inline' *; font-src * data:",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
    },
  });
}
