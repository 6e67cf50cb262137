import "server-only";
import { after } from "next/server";

/**
 * Runs `task` without holding up the response. Inside a request, Next's `after()` runs it once the response is sent
 * and keeps the function alive until it settles (on Vercel through waitUntil): a promise left dangling instead is cut
 * off when a serverless function is frozen after answering. Outside a request scope (tests, the CLI, scripts), where
 * `after` throws, the task starts at once and the process lives on until it settles. Failures are logged, never thrown.
 */
export function runInBackground(description: string, task: () => Promise<unknown>): void {
  const guarded = () => task().catch((error) => logFailure(`${description} failed`, error));
  try {
    after(guarded);
  } catch {
    void guarded();
  }
}

/**
 * For work any request may start but that need not run more than once per `intervalMs` in this process (catching up
 * on due rows): the function returned starts `task` in the background, or does nothing if it started less than
 * `intervalMs` ago.
 */
export function throttledInBackground(
  description: string,
  intervalMs: number,
  task: () => Promise<unknown>,
): () => void {
  let lastStart = Number.NEGATIVE_INFINITY;
  return () => {
    const now = Date.now();
    if (now - lastStart < intervalMs) return;
    lastStart = now;
    runInBackground(description, task);
  };
}

/** Logs a failure no caller hears of (work in the background, or a step whose failure must not fail the request). */
export function logFailure(message: string, error: unknown): void {
  console.error(
    JSON.stringify({ level: "error", message, error: error instanceof Error ? error.message : String(error) }),
  );
}
