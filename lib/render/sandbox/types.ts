/**
 * Types shared by the main-thread API (index.ts) and the sandbox worker
 * (worker.ts / engine.ts). Dependency-free but for the limits' numbers.
 */

import { MAX_HTML_BYTES, RENDER_DEADLINE_MS, SANDBOX_MEMORY_BYTES } from "../../core/limits";
import type { CompatibilityFinding } from "../analysis/warnings";
import type { ProgressData } from "../workers/worker-progress";

export type SandboxLimits = { memoryBytes: number; timeoutMs: number; maxOutputBytes: number };

export type SandboxErrorKind = "threw" | "timeout" | "memory" | "output_too_large" | "invalid_component";

export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  memoryBytes: SANDBOX_MEMORY_BYTES,
  timeoutMs: RENDER_DEADLINE_MS,
  maxOutputBytes: MAX_HTML_BYTES,
});

/** The WebAssembly memory all warm sandboxes may hold together (each holds at least 16 MB): the least recently used go. */
export const MAX_WARM_MEMORY_BYTES = 256 * 1024 * 1024;

/** The WebAssembly QuickJS build needs 16 MB of initial memory; the runtime needs a little on top. */
export const MIN_MEMORY_BYTES = 20 * 1024 * 1024;

export type EngineStats = {
  warmContexts: number;
  /** WebAssembly memory held by the warm contexts, in bytes. */
  warmMemoryBytes: number;
  contextsCreated: number;
  contextsDisposedAfterLimit: number;
  rendersInWarmContext: number;
};

/**
 * Result of one engine operation: HTML for render (with its plain text and its email client support, when asked: null
 * when the check was skipped), PreviewProps JSON (or null) for preview, null for warm.
 */
export type EngineResult =
  | {
      ok: true;
      value: string | null;
      text?: string;
      compatibility?: CompatibilityFinding[] | null;
      /** The subject message formatted, when the render was given one. */
      subject?: string;
    }
  | { ok: false; kind: SandboxErrorKind; message: string };

/** main thread → worker */
export type WorkerRequest =
  | {
      type: "render";
      id: number;
      cacheKey: string;
      compiledCode: string;
      propsJson: string;
      /** An ICU message formatted in the same job as the subject (index.ts renderInSandbox). */
      subjectMessage?: string;
      plainText: boolean;
      /** Also check the HTML's email client support (compatibility.ts). */
      compatibility: boolean;
      limits: SandboxLimits;
    }
  | { type: "preview"; id: number; cacheKey: string; compiledCode: string; limits: SandboxLimits }
  /** Make the key's context warm, rendering nothing: a context lost with another worker, made again (index.ts). */
  | { type: "warm"; id: number; cacheKey: string; compiledCode: string; limits: SandboxLimits };

/** worker → main thread; `warm`: the keys of the worker's warm contexts. */
export type WorkerMessage = { type: "done"; id: number; result: EngineResult; stats: EngineStats; warm: string[] };

/** What the worker is started with: its progress cells, and its share of MAX_WARM_MEMORY_BYTES. */
export type WorkerData = ProgressData & { warmMemoryBytes: number };
