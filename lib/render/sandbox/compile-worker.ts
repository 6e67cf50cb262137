/**
 * Entry point of a compile worker thread: parses and compiles users' template code (compileTemplate,
 * compileTemplateFiles, each with its Tailwind styles (tailwind-styles.ts), applyVariablesToSource for the `react`
 * render format, and checkMessages of a template's messages), one request at a time. Bundled by
 * scripts/build-sandbox-runtime.ts into compile-worker.generated.cjs, with sucrase and TypeScript inlined; started,
 * timed (../worker-progress.ts) and replaced by compile-pool.ts.
 */
import "../workers/worker-priority";
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import { applyVariablesToSource } from "../react-email/react-source";
import { checkMessages, localizedFiles } from "../../templates/messages";
import { compileTemplate, compileTemplateFiles } from "./compile";
import type { CompileResult, FilesCompileResult } from "./compile-result";
import type * as TailwindStylesModule from "./tailwind-styles";
import { jobProgress, type ProgressData } from "../workers/worker-progress";
import type { CompileWorkerData, ReactSourceResult, UserCodeReply, UserCodeRequest } from "./compile-pool";

const port = parentPort;
if (!port) throw new Error("compile-worker.ts must run in a worker thread");
const progress = jobProgress(workerData as ProgressData);

function reactSource(code: string, props: Record<string, unknown>): ReactSourceResult {
  try {
    return { ok: true, source: applyVariablesToSource(code, props) };
  } catch (error) {
    // A source without a default export, or one nested deeper than the parser's stack.
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

// Tailwind's compiler and React Email (tailwind-styles.ts) are a bundle of their own, loaded by a template that uses
// <Tailwind> (most compiles never need it), or at start by a worker that replaces one that used it, so that the next
// such template does not wait for it. @react-email/tailwind keeps a compiler per config for the life of its module,
// and each compiler keeps every class it has been given, whose rules then reach any template with a class in their
// selector (`group`, `peer`): so a worker whose Tailwind has styled one template serves no other (the pool replaces it).
// This file runs bundled as CommonJS, next to that bundle.
const loadTailwindStyles = () =>
  createRequire(__filename)("./tailwind-styles.generated.cjs") as typeof TailwindStylesModule;
let tailwindStyles = (workerData as CompileWorkerData).preloadTailwind ? loadTailwindStyles() : undefined;
let tailwindUsed = false;

async function addTailwindStyles<Result extends CompileResult | FilesCompileResult>(result: Result) {
  if (!result.ok || !result.tailwind) return result;
  // Loading it is our work, not the template's: off its deadline, as a worker's start is.
  tailwindStyles ??= progress.untimed(loadTailwindStyles);
  tailwindUsed = true;
  return tailwindStyles.addTailwindStyles(result);
}

function reply(message: UserCodeReply): void {
  port!.postMessage(message);
}

/** compileTemplate with its Tailwind styles; a failure in them names no file, as compileTemplate's do not. */
async function compileSingle(source: string): Promise<CompileResult> {
  const result = await addTailwindStyles(compileTemplate(source));
  if (result.ok || !("path" in result)) return result;
  const { path: _path, ...failure } = result;
  return failure;
}

/** Compiles, or applies the variables, and replies; a failure is replied too (as an error), so nothing rejects. */
async function answer(request: UserCodeRequest): Promise<void> {
  progress.started(request.id);
  try {
    const result =
      request.type === "compile"
        ? await compileSingle(request.source)
        : request.type === "compile-files"
          ? await addTailwindStyles(
              compileTemplateFiles(
                localizedFiles(request.files, request.defaultLocale),
                request.entry,
                request.components,
              ),
            )
          : request.type === "messages"
            ? checkMessages(request.files, request.defaultLocale)
            : reactSource(request.code, request.props);
    reply({ type: "done", id: request.id, result, reusable: !tailwindUsed });
  } catch (error) {
    reply({
      type: "error",
      id: request.id,
      message: error instanceof Error ? error.message : String(error),
      reusable: !tailwindUsed,
    });
  } finally {
    progress.ended();
  }
}

port.on("message", (request: UserCodeRequest) => void answer(request));
reply({ type: "ready" });
