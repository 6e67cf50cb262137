import { routeHandlers } from "@/lib/api/route";
import { withErrorHandling } from "@/lib/api/with-api-auth";
import { clientTarball } from "@/lib/client-package/tarball";

// GET /letterpress.tgz – the typed client as an npm package (`npm install <origin>/letterpress.tgz`): it is not on the
// npm registry, and a name there is not ours to point people at.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: withErrorHandling(
    async () =>
      new Response(new Uint8Array(await clientTarball()), {
        headers: { "Content-Type": "application/gzip", "Cache-Control": "public, max-age=300" },
      }),
  ),
});
