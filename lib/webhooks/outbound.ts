import "server-only";

// TEMPORARY (wh-store): a stand-in so lib/webhooks/delivery.ts type-checks before wh-http's branch is merged. It makes
// no request (it has none of the address checks a request to a user's URL needs): every attempt fails. wh-http owns
// this file; its attemptWebhook replaces this one whole on merge.

export async function attemptWebhook(request: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
}): Promise<{ status: number | null; durationMs: number; error?: string; excerpt: string; succeeded: boolean }> {
  return {
    status: null,
    durationMs: 0,
    error: `no request made to ${new URL(request.url).host}: outbound requests are not built yet (wh-http)`,
    excerpt: "",
    succeeded: false,
  };
}
