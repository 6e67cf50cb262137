/**
 * Entry point of a catalogue render worker thread: renders trusted catalogue templates (emails/) to the document
 * render() gives, plus its plain text when asked. Bundled by scripts/build-sandbox-runtime.ts into
 * catalogue-worker.generated.cjs, with react-dom/server's string-chunk build (see react-email/stream.ts); started
 * and fed by catalogue-pool.ts, whose watchdog reads the id and start time of the running render from shared memory
 * (worker-progress.ts). Variables arrive already validated.
 */
import "./worker-priority";
import { parentPort, workerData } from "node:worker_threads";
import { createElement, Suspense, type ReactElement } from "react";
import { renderToReadableStream } from "react-dom/server";
import { getCatalogueEntry } from "@/lib/catalogue/catalogue";
import { MAX_HTML_BYTES } from "@/lib/core/limits";
import { toPlainText } from "@/lib/render/react-email/plain-text";
import { checkCompatibility } from "@/lib/render/analysis/compatibility";
import { withHtmlWarning } from "@/lib/render/analysis/warnings";
import type { CatalogueRenderReply, CatalogueRenderRequest, RenderedEmail } from "./catalogue-pool";
import { finalizeEmailHtml } from "../react-email/document";
import { OutputLimitError, readAll } from "../react-email/stream";
import { jobProgress, type ProgressData } from "./worker-progress";

const port = parentPort;
if (!port) throw new Error("catalogue-worker.ts must run in a worker thread");
const progress = jobProgress(workerData as ProgressData);

async function renderDocument(element: ReactElement): Promise<string> {
  let failure: unknown = null;
  // As render() does: one Suspense boundary around the email, everything in one chunk, any error fails the render.
  const stream = await renderToReadableStream(createElement(Suspense, null, element), {
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError: (error) => void (failure ??= error),
  });
  await stream.allReady;
  // Counts UTF-16 units, fewer than the bytes: it stops a document far over the bound early; render() checks the bytes.
  const html = await readAll(stream as never, MAX_HTML_BYTES);
  if (failure) throw failure;
  return finalizeEmailHtml(html);
}

const utf8 = new TextEncoder();

async function render({
  id,
  slug,
  props,
  plainText,
  compatibility,
  jsonFields,
}: CatalogueRenderRequest): Promise<CatalogueRenderReply> {
  const entry = getCatalogueEntry(slug);
  if (!entry) return { id, ok: false, kind: "missing", message: `no catalogue component for ${slug}` };
  try {
    const html = await renderDocument(createElement(await entry.loadComponent(), props));
    const htmlBytes = Buffer.byteLength(html);
    if (htmlBytes > MAX_HTML_BYTES) return tooLarge(id);
    const rendered: RenderedEmail = plainText ? { html, text: toPlainText(html) } : { html };
    const { warnings: variableWarnings = [], ...fields } = jsonFields ?? {};
    const warnings = withHtmlWarning(variableWarnings, htmlBytes);
    if (warnings) rendered.warnings = warnings;
    if (jsonFields) return { id, ok: true, json: utf8.encode(JSON.stringify({ ...fields, ...rendered })) };
    return {
      id,
      ok: true,
      rendered: compatibility ? { ...rendered, compatibility: checkCompatibility(html) } : rendered,
    };
  } catch (error) {
    if (error instanceof OutputLimitError) return tooLarge(id);
    return { id, ok: false, kind: "threw", message: error instanceof Error ? error.message : String(error) };
  }
}

function tooLarge(id: number): CatalogueRenderReply {
  const limit = `${MAX_HTML_BYTES / 1024 / 1024} MB (${MAX_HTML_BYTES.toLocaleString("en-US")} bytes)`;
  return {
    id,
    ok: false,
    kind: "too_large",
    message: `The rendered HTML is larger than ${limit}: use fewer or shorter variables`,
  };
}

/** render(), with its id and start time published for the pool's watchdog. */
function renderWatched(request: CatalogueRenderRequest): Promise<CatalogueRenderReply> {
  progress.started(request.id);
  return render(request).finally(() => progress.ended());
}

/**
 * Renders run one at a time, each after a turn of the event loop. React schedules a task on a MessageChannel at the
 * start of every render that holds its whole request until it runs, and Node hands this thread all the messages that
 * are waiting back to back, without a turn of the event loop in between: under load those tasks, and the requests
 * they hold, piled up until the queue emptied (136 at once, held up to 107 ms, with a driver keeping one render in
 * flight). The requests then outlived young-generation GCs and were promoted. The turn lets each task run before the
 * next render starts. It costs a few microseconds, and one at a time costs no throughput: catalogue templates render
 * synchronously, so two renders on this thread never overlapped anyway.
 */
let previous: Promise<void> = warmUp();

port.on("message", (request: CatalogueRenderRequest) => {
  const rendered = previous.then(nextTurn).then(() => renderWatched(request));
  // render() answers its own failures; a reply that cannot be posted fails this thread as before, not the queue.
  previous = rendered.then(
    () => undefined,
    () => undefined,
  );
  void rendered.then((reply) => port.postMessage(reply, "json" in reply ? [reply.json.buffer] : []));
});

/**
 * A fresh thread's first render also compiles React's code paths, which on a busy machine can take longer than a
 * render's deadline; so the thread renders one template before it takes any job (jobs wait for it, within the pool's
 * start-up allowance).
 */
async function warmUp(): Promise<void> {
  const entry = getCatalogueEntry("welcome");
  if (entry)
    await renderDocument(createElement(await entry.loadComponent(), entry.variables.parse({}))).catch(() => undefined);
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
