import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { removeCatalogueTemplate } from "@/lib/catalogue/library";

// {id} is a catalogue template's id, or the slug it has in the caller's library.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // DELETE /api/v1/library/{id} – take a catalogue template out of the caller's library
  DELETE: implement(contract.removeFromLibrary, async ({ caller, params }) => {
    await removeCatalogueTemplate(caller.accountId, params.id);
    return { success: true };
  }),
});
