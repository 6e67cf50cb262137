import { spawn } from "node:child_process";
import { createElement } from "react";
import { render } from "@react-email/render";
import { getCatalogueEntry } from "@/lib/catalogue/catalogue";
import { renderCatalogueOffThread, stopCatalogueWorkers } from "@/lib/render/workers/catalogue-pool";
import { log } from "./report";

// The render floor the bench prints before the load: what a render of the welcome template costs in-process, and
// through the app's render worker.

/** Measures the render floor and prints it. */
export async function reportRenderCosts(): Promise<void> {
  const { floor, worker } = await measureRenderCostsInProduction();
  log(
    `Render floor: @react-email/render render() of the welcome template in-process: ${floor.toFixed(3)} ms per call (200 calls, production React)`,
  );
  log(
    `  the app's render worker (lib/render/workers/catalogue-pool.ts, the same bytes), one render at a time, hop included: ${worker.toFixed(3)} ms per call`,
  );
}

/** In a child process with NODE_ENV=production: this process loaded React's development build, the server does not. */
async function measureRenderCostsInProduction(): Promise<{ floor: number; worker: number }> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], "--measure-render"], {
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => void (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`measuring render() failed (exit ${code})`);
  return JSON.parse(out.trim().split("\n").at(-1)!) as { floor: number; worker: number };
}

async function measureRenderCost(renderOnce: () => Promise<unknown>, calls: number): Promise<number> {
  for (let i = 0; i < 20; i++) await renderOnce();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await renderOnce();
  return (performance.now() - started) / calls;
}

/** The child measureRenderCostsInProduction spawns: prints both costs as one JSON line. */
export async function measureRenderCostsHere(): Promise<void> {
  const entry = getCatalogueEntry("welcome");
  if (!entry) throw new Error("the welcome template is missing from emails/_catalogue.ts");
  const props = entry.variables.parse({ userName: "Ada" });
  const component = await entry.loadComponent();
  const floor = await measureRenderCost(() => render(createElement(component, props)), 200);
  const worker = await measureRenderCost(() => renderCatalogueOffThread("bench", "welcome", props, false), 200);
  await stopCatalogueWorkers();
  console.log(JSON.stringify({ floor, worker }));
}
