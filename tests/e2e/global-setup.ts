import type { TestProject } from "vitest/node";
import { startTestApp } from "./app-server";

export default async function setup(project: TestProject) {
  const app = await startTestApp();
  project.provide("baseUrl", app.baseUrl);
  project.provide("databaseUrl", app.databaseUrl);
  project.provide("appLogFile", app.logFile);
  return async () => {
    if (process.env.E2E_SHOW_LOGS === "1") console.log(app.logs());
    await app.stop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    appLogFile: string;
  }
}
