import { randomUUID } from "node:crypto";
import { readUnsubscribeLink, unsubscribeByToken } from "@/lib/unsubscribe/service";
import { unsubscribePage } from "@/lib/unsubscribe/page";
import { deliverWebhookSoon } from "@/lib/webhooks/delivery";

// /u/<token>, the link of a send's `unsubscribe` (RFC 8058). GET shows what the link would do and a button that POSTs
// here: it never unsubscribes, since mail scanners follow links. POST (a mail client's one-click, or that button; no
// session or key, and whatever the body, which is not read) suppresses the address for the link's group and answers
// 200, again on a repeat. Plain HTML pages of their own: mail clients and people from any mailbox land here.

type Context = { params: Promise<Record<string, string | string[]>> };

/** The path's token ("" for anything else, which no token matches). */
const tokenOf = async ({ params }: Context) => {
  const { token } = await params;
  return typeof token === "string" ? token : "";
};

export async function GET(_request: Request, context: Context): Promise<Response> {
  return answer(async () => {
    const claims = await readUnsubscribeLink(await tokenOf(context));
    return claims ? unsubscribePage({ kind: "confirm", ...claims }) : unsubscribePage({ kind: "invalid" });
  });
}

export async function POST(_request: Request, context: Context): Promise<Response> {
  return answer(async () => {
    const outcome = await unsubscribeByToken(await tokenOf(context));
    if (outcome.status === "invalid") return unsubscribePage({ kind: "invalid" });
    if (outcome.status === "limited") return unsubscribePage({ kind: "limited", ...outcome });
    // The email.unsubscribed event it made, attempted after the answer.
    deliverWebhookSoon(outcome.claims.accountId);
    return unsubscribePage({ kind: "done", ...outcome.claims });
  });
}

async function answer(page: () => Promise<Response>): Promise<Response> {
  try {
    return await page();
  } catch (error) {
    const requestId = randomUUID();
    // Details go to the log only, tied to the request id the page shows.
    const message = error instanceof Error ? error.message : String(error);
    console.error(
      JSON.stringify({ level: "error", requestId, message, stack: error instanceof Error ? error.stack : undefined }),
    );
    return unsubscribePage({ kind: "failed", requestId });
  }
}
