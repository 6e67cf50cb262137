/**
 * Renders catalogue templates on worker threads (catalogue-worker.ts, bundled into catalogue-worker.generated.cjs),
 * so a render — about a quarter of a millisecond of React for the welcome template, twice that with plain text — never
 * holds up the event loop that serves every other request. For an API response the worker also writes the JSON.
 *
 * The pool (./worker-pool.ts, where the turns, deadlines and admission are described) gives each owner (the account a
 * render is for) at most MAX_SENT_PER_OWNER renders sent to a worker, each going to the worker with the fewest in
 * flight, so one account's flood delays another account's render by at most that many of its renders per worker. A
 * render past RENDER_DEADLINE_MS costs its worker (catalogue templates are trusted code: nothing inside the render can
 * be interrupted): it fails, and the renders sent behind it go to a new worker. The worker itself refuses HTML over the
 * contract's 5 MB. Past CATALOGUE_QUEUE.perAccount renders held by one account, or past CATALOGUE_QUEUE.total in
 * all for an account holding its fair share, a render is refused at once with the 503 SANDBOX_BUSY.
 */
import "server-only";
import os from "node:os";
import { generatedFilePath } from "./generated-file";
import { WorkerPool } from "./worker-pool";
import { errors } from "@/lib/core/errors";
import { CATALOGUE_QUEUE, RENDER_DEADLINE_MS } from "@/lib/core/limits";
import type { CompatibilityFinding, RenderWarning } from "../analysis/warnings";

export type CatalogueRenderRequest = {
  id: number;
  slug: string;
  props: Record<string, unknown>;
  plainText: boolean;
  /** Check the HTML's email client support (compatibility.ts): its findings, for the template's page. */
  compatibility?: boolean;
  /**
   * Answer with the UTF-8 JSON of `{ ...jsonFields, html, text?, warnings? }` instead of the strings; the HTML's own
   * warning (Gmail clipping) joins the `warnings` given here.
   */
  jsonFields?: JsonRenderFields;
};
export type JsonRenderFields = Record<string, unknown> & { warnings?: RenderWarning[] };
/**
 * A rendered document and, when asked for, its plain text (and from a render worker, its email client support: null
 * when the check was skipped, lib/render/analysis/compatibility.ts).
 */
export type RenderedEmail = {
  html: string;
  text?: string;
  warnings?: RenderWarning[];
  compatibility?: CompatibilityFinding[] | null;
};
/** A render the worker refused: the template threw, has no component (`missing`), or made too much HTML. */
type CatalogueRenderRefusal = { id: number; ok: false; kind: "threw" | "missing" | "too_large"; message: string };
export type CatalogueRenderReply =
  | ({ id: number; ok: true } & ({ rendered: RenderedEmail } | { json: Uint8Array<ArrayBuffer> }))
  | CatalogueRenderRefusal;

/** Jobs of one owner sent to one worker at once (see the top of the file). */
const MAX_SENT_PER_OWNER = 2;

const pool = new WorkerPool<
  Omit<CatalogueRenderRequest, "id">,
  CatalogueRenderReply,
  CatalogueRenderReply & { ok: true }
>({
  file: () => generatedFilePath("lib/render/workers/catalogue-worker.generated.cjs", import.meta.url),
  // One core stays with the event loop; the workers take the others.
  workers: Math.max(1, Math.min(4, os.availableParallelism() - 1)),
  jobsPerWorker: Infinity,
  jobsPerOwnerPerWorker: MAX_SENT_PER_OWNER,
  admission: {
    ...CATALOGUE_QUEUE,
    jobs: "renders",
    full: "The render workers are busy with other renders",
  },
  deadlineMs: () => RENDER_DEADLINE_MS,
  read: (reply) => (reply.ok ? { id: reply.id, result: reply } : { id: reply.id, error: refusalError(reply) }),
  lost: (loss) =>
    loss.cause === "deadline"
      ? errors.renderFailed(`The template did not finish rendering within its deadline of ${RENDER_DEADLINE_MS} ms`)
      : new Error(
          loss.cause === "start"
            ? "The catalogue render worker did not start a render in time"
            : `The catalogue render worker ${loss.reason}`,
        ),
  // `npm run dev` rebuilds the bundle when emails/ change (bin/serve.ts): the next render loads the new one.
  reloadOnChange: process.env.NODE_ENV === "development",
});

/**
 * A template that throws, makes more HTML than allowed (or runs past its deadline) is the caller's 422 RENDER_ERROR; a
 * worker without the component is our fault (500).
 */
function refusalError(refusal: CatalogueRenderRefusal): Error {
  if (refusal.kind === "missing") return new Error(`The render worker has ${refusal.message}: rebuild it`);
  if (refusal.kind === "threw") return errors.renderFailed(`The template threw while rendering: ${refusal.message}`);
  return errors.renderFailed(refusal.message);
}

/**
 * The document render() gives for the catalogue template `slug` with these (validated) props, and its plain text.
 * Rejects with RENDER_ERROR when the template fails, with the SANDBOX_BUSY AppError when the queue is full, and with
 * `signal`'s reason when it is aborted before the render is sent to a worker.
 */
export async function renderCatalogueOffThread(
  owner: string,
  slug: string,
  props: Record<string, unknown>,
  plainText: boolean,
  signal?: AbortSignal,
): Promise<RenderedEmail> {
  return renderedOffThread(owner, { slug, props, plainText }, signal);
}

/**
 * The same render as the UTF-8 JSON of `{ ...jsonFields, html, text?, warnings? }`, written on the worker: an API response body
 * the event loop only forwards, instead of serializing and encoding ten or more kilobytes of HTML itself. Its warnings
 * are the variables' and Gmail clipping's: a catalogue template's HTML is not the caller's to change, so its email
 * client support is listed once on its page (GET /templates/{id}'s `compatibility`), not in every render.
 */
export async function renderCatalogueJsonOffThread(
  owner: string,
  slug: string,
  props: Record<string, unknown>,
  plainText: boolean,
  jsonFields: JsonRenderFields,
  signal?: AbortSignal,
): Promise<Uint8Array<ArrayBuffer>> {
  const reply = await pool.run(owner, { slug, props, plainText, jsonFields }, { signal });
  if (!("json" in reply)) throw new Error("The catalogue render worker answered strings where JSON was asked for");
  return reply.json;
}

/** The email client support of the catalogue template `slug` rendered with these (validated) props; null: skipped. */
export async function catalogueCompatibilityOffThread(
  owner: string,
  slug: string,
  props: Record<string, unknown>,
): Promise<CompatibilityFinding[] | null> {
  const rendered = await renderedOffThread(owner, { slug, props, plainText: false, compatibility: true });
  return rendered.compatibility ?? [];
}

/** A render asked for as strings (no `jsonFields`): the document the worker answered with. */
async function renderedOffThread(
  owner: string,
  request: Omit<CatalogueRenderRequest, "id" | "jsonFields">,
  signal?: AbortSignal,
): Promise<RenderedEmail> {
  const reply = await pool.run(owner, request, { signal });
  if (!("rendered" in reply)) throw new Error("The catalogue render worker answered JSON where strings were asked for");
  return reply.rendered;
}

/** Stops the workers (tests, shutdown); renders in flight or waiting fail. */
export function stopCatalogueWorkers(): Promise<void> {
  return pool.stop("The catalogue render workers were stopped");
}
