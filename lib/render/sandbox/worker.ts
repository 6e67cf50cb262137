/**
 * Entry point of the sandbox worker thread. Bundled by
 * scripts/build-sandbox-runtime.ts into worker.generated.cjs (with the
 * QuickJS runtime bundle inlined); started and supervised by index.ts.
 *
 * Requests are queued here and handled strictly one at a time, in the order
 * they arrived. The id and start time of the render running are written to
 * shared memory (../worker-progress.ts), where the pool's watchdog reads them.
 * The plain-text version is made here too, under the same watchdog: HTML that
 * a template shapes (say, thousands of nested elements) can make html-to-text
 * run for minutes, which must cost the template its deadline, not the server.
 * So is the check of its email client support, when asked for.
 */
import "../workers/worker-priority";
import { parentPort, workerData } from "node:worker_threads";
import { checkCompatibility } from "../analysis/compatibility";
import { toPlainText } from "../react-email/plain-text";
import { jobProgress } from "../workers/worker-progress";
import { enginePreview, engineRender, engineStats, engineWarm, setWarmMemoryCap, warmKeys } from "./engine";
import type { EngineResult, WorkerData, WorkerMessage, WorkerRequest } from "./types";

const port = parentPort;
if (!port) throw new Error("worker.ts must run in a worker thread");
setWarmMemoryCap((workerData as WorkerData).warmMemoryBytes);
const progress = jobProgress(workerData as WorkerData);

function send(message: WorkerMessage): void {
  port!.postMessage(message);
}

async function handle(request: WorkerRequest): Promise<void> {
  const started = (): void => progress.started(request.id);
  const run: Promise<EngineResult> =
    request.type === "render"
      ? engineRender(request, started)
      : request.type === "preview"
        ? enginePreview(request, started)
        : engineWarm(request);
  let result = await run.catch((error: unknown): EngineResult => ({
    ok: false,
    kind: "memory",
    message: `Sandbox failure (${error instanceof Error ? error.message : String(error)})`,
  }));
  if (request.type === "render" && request.plainText && result.ok) result = addPlainText(result);
  if (request.type === "render" && request.compatibility && result.ok) {
    result = { ...result, compatibility: checkCompatibility(result.value ?? "") };
  }
  progress.ended();
  send({ type: "done", id: request.id, result, stats: engineStats(), warm: warmKeys() });
}

/** The rendered result (its subject kept) with its plain text, or why there is none. */
function addPlainText(rendered: EngineResult & { ok: true }): EngineResult {
  try {
    return { ...rendered, text: toPlainText(rendered.value ?? "") };
  } catch (error) {
    // A stack overflow on deeply nested HTML, in practice.
    const reason =
      error instanceof RangeError
        ? "its HTML is nested too deeply"
        : error instanceof Error
          ? error.message
          : String(error);
    return {
      ok: false,
      kind: "output_too_large",
      message: `The template's HTML could not be converted to plain text: ${reason}`,
    };
  }
}

let queue: Promise<void> = Promise.resolve();
port.on("message", (request: WorkerRequest) => {
  queue = queue.then(() => handle(request));
});
