import "server-only";
import { errors } from "@/lib/core/errors";

/**
 * A request's body as bytes, refused with 413 past `limit` bytes: by its Content-Length at once, and while reading, for
 * a body sent without one (chunked), so no more than the limit is ever buffered.
 */
export async function readBody(request: Request, limit: number): Promise<Buffer> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) throw errors.payloadTooLarge();
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw errors.payloadTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** readBody, as UTF-8 text. */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  return (await readBody(request, limit)).toString("utf8");
}
