/**
 * Renders catalogue templates on worker threads (catalogue-worker.ts, bundled into catalogue-worker.generated.cjs),
 * so a render — about a quarter of a millisecond of React for the welcome template, twice that with plain text — never
 * holds up the event loop that serves every other request. For an API response the worker also writes the JSON. A
 * request goes to the worker with the fewest renders in flight. Workers start on first use and restart after a crash
 * (the renders in flight on the crashed one fail).
 *
 * Not guarded with "server-only" so that Vitest can load it; never import it from client components.
 */
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { generatedFilePath } from "./generated-file";

export type CatalogueRenderRequest = {
  id: number;
  slug: string;
  props: Record<string, unknown>;
  plainText: boolean;
  /** Answer with the UTF-8 JSON of `{ ...jsonFields, html, text? }` instead of the strings. */
  jsonFields?: Record<string, unknown>;
};
/** A rendered document and, when asked for, its plain text. */
export type RenderedEmail = { html: string; text?: string };
export type CatalogueRenderReply =
  | ({ id: number; ok: true } & ({ rendered: RenderedEmail } | { json: Uint8Array<ArrayBuffer> }))
  | { id: number; ok: false; missing: boolean; message: string };

/** The template threw while rendering (its message), or has no component (`missing`). */
export class CatalogueRenderError extends Error {
  constructor(
    message: string,
    readonly missing: boolean,
  ) {
    super(message);
    this.name = "CatalogueRenderError";
  }
}

const WORKER_FILE = "catalogue-worker.generated.cjs";
/** One core stays with the event loop; the workers take the others. */
const POOL_SIZE = Math.max(1, Math.min(4, os.availableParallelism() - 1));

type Pending = { resolve: (reply: CatalogueRenderReply & { ok: true }) => void; reject: (error: Error) => void };
type PoolWorker = { thread: Worker; pending: Map<number, Pending> };

const workers: (PoolWorker | null)[] = Array.from({ length: POOL_SIZE }, () => null);
let nextId = 1;

function spawn(slot: number): PoolWorker {
  const thread = new Worker(generatedFilePath(WORKER_FILE, import.meta.url, path.join("lib", "render")), { env: {}, execArgv: [] });
  const worker: PoolWorker = { thread, pending: new Map() };
  thread.on("message", (reply: CatalogueRenderReply) => {
    const pending = worker.pending.get(reply.id);
    if (!pending) return;
    worker.pending.delete(reply.id);
    if (worker.pending.size === 0) thread.unref();
    if (reply.ok) pending.resolve(reply);
    else pending.reject(new CatalogueRenderError(reply.message, reply.missing));
  });
  const gone = (reason: string) => {
    if (workers[slot] === worker) workers[slot] = null;
    for (const { reject } of worker.pending.values()) reject(new Error(`The catalogue render worker ${reason}`));
    worker.pending.clear();
  };
  thread.on("error", (error) => gone(`crashed: ${error.message}`));
  thread.on("exit", (code) => gone(`exited with code ${code}`));
  thread.unref();
  return worker;
}

/** The document render() gives for the catalogue template `slug` with these (validated) props, and its plain text. */
export async function renderCatalogueOffThread(slug: string, props: Record<string, unknown>, plainText: boolean): Promise<RenderedEmail> {
  const reply = await dispatch({ slug, props, plainText });
  if (!("rendered" in reply)) throw new Error("The catalogue render worker answered JSON where strings were asked for");
  return reply.rendered;
}

/**
 * The same render as the UTF-8 JSON of `{ ...jsonFields, html, text? }`, written on the worker: an API response body
 * the event loop only forwards, instead of serializing and encoding ten or more kilobytes of HTML itself.
 */
export async function renderCatalogueJsonOffThread(
  slug: string,
  props: Record<string, unknown>,
  plainText: boolean,
  jsonFields: Record<string, unknown>,
): Promise<Uint8Array<ArrayBuffer>> {
  const reply = await dispatch({ slug, props, plainText, jsonFields });
  if (!("json" in reply)) throw new Error("The catalogue render worker answered strings where JSON was asked for");
  return reply.json;
}

function dispatch(request: Omit<CatalogueRenderRequest, "id">): Promise<CatalogueRenderReply & { ok: true }> {
  let slot = 0;
  for (let i = 1; i < workers.length; i++) {
    if ((workers[i]?.pending.size ?? 0) < (workers[slot]?.pending.size ?? 0)) slot = i;
  }
  const worker = (workers[slot] ??= spawn(slot));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    worker.pending.set(id, { resolve, reject });
    worker.thread.ref(); // keep the process alive while a render is in flight
    worker.thread.postMessage({ id, ...request } satisfies CatalogueRenderRequest);
  });
}

/** Stops the workers (tests, shutdown); renders in flight fail. */
export async function stopCatalogueWorkers(): Promise<void> {
  const running = workers.filter((worker) => worker !== null);
  workers.fill(null);
  await Promise.all(running.map((worker) => worker.thread.terminate()));
}
