import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";

// After the run, one line per failed test with the first lines of its error: `npm test`'s summary keeps them (the
// list reporter's full errors scroll far above it, out of a CI excerpt's reach).
export default class FailureCauses implements Reporter {
  private readonly causes: string[] = [];

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === test.expectedStatus || result.status === "skipped") return;
    const error = result.errors[0];
    const message = (error?.message ?? result.status).replace(/\x1b\[[0-9;]*m/g, "");
    // The first three lines: the matcher or the timeout, then what was expected or waited for.
    const lines = message
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .slice(0, 3);
    const where = error?.location
      ? `${error.location.file.replace(/^.*\/tests\//, "tests/")}:${error.location.line}`
      : "";
    this.causes.push(
      `cause: ${test.title.slice(0, 60)} | ${lines.join(" / ").slice(0, 300)}${where ? ` at ${where}` : ""}`,
    );
  }

  onEnd(): void {
    for (const cause of this.causes) console.log(`  ${cause}`);
  }
}
