import "server-only";
import { Writable } from "node:stream";
import { createElement, Suspense, type ReactElement } from "react";
import { finalizeEmailHtml } from "@/lib/render/react-email/document";

/**
 * The document @react-email/render's render() gives for a trusted element, at about a third of the cost: on Node,
 * render() reads React's output through a web ReadableStream, which costs more than rendering does. React's Node
 * stream gives the same bytes; tests/render.test.ts compares the two for every catalogue template.
 */
export async function renderEmailDocument(element: ReactElement): Promise<string> {
  const { renderToPipeableStream } = await loadReactDomServer();
  return new Promise((resolve, reject) => {
    let html = "";
    const decoder = new TextDecoder();
    const sink = new Writable({
      write(chunk: Uint8Array, _encoding, callback) {
        html += decoder.decode(chunk, { stream: true });
        callback();
      },
      final(callback) {
        html += decoder.decode();
        callback();
      },
    });
    sink.on("finish", () => resolve(finalizeEmailHtml(html)));
    sink.on("error", reject);
    // As render() does: one Suspense boundary around the email, everything in one chunk, any error fails the render.
    const stream = renderToPipeableStream(createElement(Suspense, null, element), {
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError: (error) => {
        reject(error);
        stream.abort();
      },
    });
  });
}

type ReactDomServer = typeof import("react-dom/server");
let reactDomServer: Promise<ReactDomServer> | undefined;

// Imported on first use, as @react-email/render does: Next refuses a static react-dom/server import in modules that
// Server Components may load.
function loadReactDomServer(): Promise<ReactDomServer> {
  reactDomServer ??= import("react-dom/server").then((module) =>
    "default" in module ? (module.default as ReactDomServer) : module,
  );
  return reactDomServer;
}
