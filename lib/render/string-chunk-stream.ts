/**
 * Injected (esbuild `inject`) into the catalogue render worker's bundle, where react-dom/server is the production
 * browser build with the sandbox's string-chunk patch (scripts/build-sandbox-runtime.ts): Fizz then hands over its
 * markup as strings instead of encoding every piece to UTF-8 bytes that would only be decoded again, which is most
 * of what a render costs beyond React itself. Same Fizz algorithm, so the same markup (tests/render.test.ts checks
 * it against render() for every catalogue template).
 */

type Chunk = string | Uint8Array;
type Controller = { enqueue(chunk: Chunk): void; close(): void; error(reason: unknown): void; readonly desiredSize: number };
type Source = { start?: (controller: Controller) => void; pull?: (controller: Controller) => void };

/** Replaces the global ReadableStream for react-dom/server's renderToReadableStream: it only records its source. */
class StringChunkStream {
  allReady?: Promise<void>;
  constructor(readonly source: Source) {}
}
export { StringChunkStream as ReadableStream };

/** The patched build's byte counting (outlining decisions only) and output guard (the sandbox's limit; none here). */
export const __sbxUtf8Length = (text: string): number => Buffer.byteLength(text, "utf8");
export const __sbxGuardText = (_text: string): void => {};

/** Everything the stream produces, as text: what @react-email/render's TextDecoder would give for the same bytes. */
export function readStringChunks(stream: StringChunkStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Chunk[] = [];
    let done = false;
    const controller: Controller = {
      enqueue(chunk) {
        if (!done) chunks.push(chunk);
      },
      close() {
        if (done) return;
        done = true;
        // Byte chunks only if the string-chunk patch could not be applied (the build warns): decode them instead.
        const text = chunks.every((c) => typeof c === "string")
          ? chunks.join("").toWellFormed()
          : new TextDecoder().decode(Buffer.concat(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c))));
        resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      },
      error(reason) {
        if (done) return;
        done = true;
        reject(reason);
      },
      get desiredSize() {
        return 0;
      },
    };
    try {
      stream.source.start?.(controller);
      if (!done) stream.source.pull?.(controller);
    } catch (error) {
      done = true;
      reject(error);
    }
  });
}
