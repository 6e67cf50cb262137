import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { removeSuppressionOrThrow } from "@/lib/suppressions/service";

// DELETE /api/v1/suppressions/{email} – let the caller send to a suppressed address again
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  DELETE: implement(contract.deleteSuppression, async ({ caller, params }) => ({
    success: true,
    suppression: await removeSuppressionOrThrow(caller.accountId, params.email),
  })),
});
