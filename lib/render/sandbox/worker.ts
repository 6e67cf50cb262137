/**
 * Entry point of the sandbox worker thread. Bundled by
 * scripts/build-sandbox-runtime.ts into worker.generated.cjs (with the
 * QuickJS runtime bundle inlined); started and supervised by index.ts.
 *
 * Requests are handled strictly one at a time (index.ts only sends the next
 * one after "done"), so the main thread's watchdog always knows which render
 * is running.
 */
import { parentPort } from "node:worker_threads";
import { enginePreview, engineRender, engineStats } from "./engine";
import type { EngineResult, WorkerMessage, WorkerRequest } from "./types";

const port = parentPort;
if (!port) throw new Error("worker.ts must run in a worker thread");

function send(message: WorkerMessage): void {
  port!.postMessage(message);
}

port.on("message", (request: WorkerRequest) => {
  const started = (): void => send({ type: "started", id: request.id });
  const run: Promise<EngineResult> =
    request.type === "render"
      ? engineRender(request, started)
      : enginePreview(request, started);
  run
    .catch((error: unknown): EngineResult => ({
      ok: false,
      kind: "memory",
      message: `Sandbox failure (${error instanceof Error ? error.message : String(error)})`,
    }))
    .then((result) => send({ type: "done", id: request.id, result, stats: engineStats() }));
});
