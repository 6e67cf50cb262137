import { afterAll, beforeAll, beforeEach, onTestFinished } from "vitest";
import { resetConfig } from "@/lib/core/config";

/** Environment variables to set: undefined unsets one. */
export type EnvVars = Record<string, string | undefined>;

// vitest.config.ts tells the files that change the environment by these names (CHANGES_ENV): keep the two in step.

/**
 * Sets the variables and has the configuration read again (lib/core/config.ts caches it); the function returned puts
 * back what they were, and has it read again.
 */
export function setEnv(vars: EnvVars): () => void {
  const before = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  assign(vars);
  return () => assign(before);
}

/**
 * The variables set for the calling file's (or describe block's) tests: from its beforeAll to its afterAll. A function
 * is called in the beforeAll, for values known only then (a stand-in's port).
 */
export function envForSuite(vars: EnvVars | (() => EnvVars)): void {
  let restore: () => void;
  beforeAll(() => {
    restore = setEnv(typeof vars === "function" ? vars() : vars);
  });
  afterAll(() => restore());
}

/**
 * The variables set before each of the calling file's (or describe block's) tests, and put back when it finishes
 * (after the afterEach hooks), so that what a test sets with setTestEnv is put back first.
 */
export function envForEachTest(vars: EnvVars | (() => EnvVars)): void {
  beforeEach(() => setTestEnv(typeof vars === "function" ? vars() : vars));
}

/** Runs `run` with the variables set, then puts them back, whether it succeeded or not. */
export async function withEnv<T>(vars: EnvVars, run: () => T | Promise<T>): Promise<T> {
  const restore = setEnv(vars);
  try {
    return await run();
  } finally {
    restore();
  }
}

/** The variables set for the rest of the running test (or from a beforeEach hook, for its test): put back when it finishes. */
export function setTestEnv(vars: EnvVars): void {
  // Vitest runs these last registered first, so changes made one over another are undone in turn.
  onTestFinished(setEnv(vars));
}

function assign(vars: EnvVars): void {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}
