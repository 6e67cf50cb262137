/**
 * Entry point of a catalogue render worker thread: renders trusted catalogue templates (emails/) to the document
 * render() gives, plus its plain text when asked. Bundled by scripts/build-sandbox-runtime.ts into
 * catalogue-worker.generated.cjs; started and fed by catalogue-pool.ts. Variables arrive already validated.
 */
import { parentPort } from "node:worker_threads";
import { createElement } from "react";
import { getCatalogueEntry } from "@/lib/catalogue";
import { renderEmailDocument } from "@/lib/render/native";
import { toPlainText } from "@/lib/render/plain-text";
import type { CatalogueRenderReply, CatalogueRenderRequest } from "./catalogue-pool";

const port = parentPort;
if (!port) throw new Error("catalogue-worker.ts must run in a worker thread");

async function render({ id, slug, props, plainText }: CatalogueRenderRequest): Promise<CatalogueRenderReply> {
  const entry = getCatalogueEntry(slug);
  if (!entry) return { id, ok: false, missing: true, message: `no catalogue component for ${slug}` };
  try {
    const html = await renderEmailDocument(createElement(entry.component, props));
    return { id, ok: true, html, ...(plainText ? { text: toPlainText(html) } : {}) };
  } catch (error) {
    return { id, ok: false, missing: false, message: error instanceof Error ? error.message : String(error) };
  }
}

port.on("message", (request: CatalogueRenderRequest) => {
  void render(request).then((reply) => port.postMessage(reply));
});
