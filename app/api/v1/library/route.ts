import { NextResponse } from "next/server";
import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { addCatalogueTemplate, listLibraryPage } from "@/lib/catalogue/library";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // GET /api/v1/library – list the caller's templates, newest addition first
  GET: implement(contract.listLibrary, async ({ caller, query }) => ({
    success: true,
    ...(await listLibraryPage(caller.accountId, query)),
  })),
  // POST /api/v1/library – add a free catalogue template to the caller's library (200 when it is there already)
  POST: implement(contract.addToLibrary, async ({ caller, body }) => {
    const { entry, created } = await addCatalogueTemplate(caller.accountId, body.template_id);
    const response = { success: true as const, template: entry };
    return created ? response : NextResponse.json(response, { status: 200 });
  }),
});
