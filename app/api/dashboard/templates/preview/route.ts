import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { getCurrentAccount } from "@/lib/auth/current";
import { getConfig } from "@/lib/config";
import { renderDraft } from "@/lib/dashboard/preview";

// POST /api/dashboard/templates/preview – the New template editor's live preview: compiles unsaved TSX and renders it
// in the same WebAssembly sandbox as saved user templates. Signed-in dashboard users only, same origin only.

const bodySchema = z.object({
  code: z.string().max(1_000_000),
  variables: z.record(z.string(), z.unknown()).nullable().default(null),
});

export async function POST(request: NextRequest) {
  const account = await getCurrentAccount();
  if (!account) return NextResponse.json({ error: "Authentication required", code: "UNAUTHORIZED", success: false }, { status: 401 });
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== request.nextUrl.origin && origin !== new URL(getConfig().siteUrl).origin) {
    return NextResponse.json({ error: "Cross-site request refused", code: "CSRF_REJECTED", success: false }, { status: 403 });
  }
  const parsed = bodySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) {
    return NextResponse.json({ error: "Invalid request body", code: "VALIDATION_ERROR", success: false }, { status: 400 });
  }
  const result = await renderDraft(account.id, parsed.data.code, parsed.data.variables);
  return NextResponse.json(result, { headers: { "cache-control": "no-store" } });
}
