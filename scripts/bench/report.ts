import type { Measurements, Window } from "./load";
import { SCENARIOS } from "./scenarios";

// What the bench prints: each scenario's figures against bare's, then its target or floor, met or not.

export const log = (line: string) => console.log(line);
const NODE_MAJOR = Number(process.versions.node.split(".")[0]);

/** A scenario's figures, as the JSON line reports them. */
export type ScenarioResult = {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  ratio_to_bare: number;
  hostile_max_ms?: number;
  p97_5_ms?: number;
  emails_per_s?: number;
  emails_per_s_to_send?: number;
  /** send_webhooks: deliveries per second its receiver took during its windows. */
  webhook_deliveries_per_s?: number;
  /** send_webhooks: how long after its last window deliveries still arrived. */
  webhook_drained_ms?: number;
  send_share?: number;
  render_user_share?: number;
};

/** Prints each scenario's figures (bare first) and its errors, each a failure too; answers the figures by scenario. */
export function reportMeasurements(
  { bare, others, bareWindows, windows, hostileResults, errorCounts }: Measurements,
  failures: string[],
): Record<string, ScenarioResult> {
  const results: Record<string, ScenarioResult> = {};
  const mean = (values: number[]) => values.reduce((total, value) => total + value, 0) / values.length;
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  // Latencies are the medians of the windows' own: one stall of the server or of autocannon moves a short
  // window's p99 a lot.
  const summarize = (list: Window[]) => ({
    rps: round(mean(list.map((w) => w.rps)), 1),
    p50_ms: round(median(list.map((w) => w.p50)), 2),
    p97_5_ms: round(median(list.map((w) => w.p97_5)), 2),
    p99_ms: round(median(list.map((w) => w.p99)), 2),
    total: list.reduce((total, w) => total + w.total, 0),
  });
  const report = (
    name: string,
    r: { rps: number; p50_ms: number; p99_ms: number },
    ratio: number | null,
    note: string,
  ) =>
    log(
      `${name.padEnd(17)} ${String(r.rps).padStart(8)} req/s  p50 ${String(r.p50_ms).padStart(6)} ms  ` +
        `p99 ${String(r.p99_ms).padStart(6)} ms  ${ratio === null ? "".padStart(14) : `${(ratio * 100).toFixed(1).padStart(5)}% of bare`}  (${note})`,
    );

  const bareSummary = summarize(bareWindows);
  results.bare = { rps: bareSummary.rps, p50_ms: bareSummary.p50_ms, p99_ms: bareSummary.p99_ms, ratio_to_bare: 1 };
  const bareSpread = `${Math.round(Math.min(...bareWindows.map((w) => w.rps)))}–${Math.round(Math.max(...bareWindows.map((w) => w.rps)))} req/s`;
  report(
    "bare",
    results.bare,
    null,
    `${bareSummary.total} requests in ${bareWindows.length} windows, ${bareSpread}; ${bare.scenario.description}`,
  );
  for (const { scenario } of others) {
    const list = windows.get(scenario)!;
    const summary = summarize(list.map(({ window }) => window));
    const bareAround = list.map(
      ({ bareBefore }) => (bareWindows[bareBefore]!.rps + bareWindows[bareBefore + 1]!.rps) / 2,
    );
    const ratio = round(summary.rps / mean(bareAround), 3);
    results[scenario.name] = {
      rps: summary.rps,
      p50_ms: summary.p50_ms,
      p99_ms: summary.p99_ms,
      ratio_to_bare: ratio,
      ...(scenario.waitFloor ? { p97_5_ms: summary.p97_5_ms } : {}),
    };
    const byWindow = list.map(({ window }, i) => `${((window.rps / bareAround[i]!) * 100).toFixed(0)}%`).join(" ");
    report(scenario.name, summary, ratio, `${summary.total} requests, by window ${byWindow}; ${scenario.description}`);
    const hostile = hostileResults.get(scenario);
    if (hostile) {
      const hostileMax = Math.max(0, ...hostile.map((h) => h.ms));
      results[scenario.name]!.hostile_max_ms = round(hostileMax, 1);
      for (const name of new Set(hostile.map((h) => h.name))) {
        const mine = hostile.filter((h) => h.name === name);
        const statuses = [...new Set(mine.map((h) => h.status))].join(", ");
        log(
          `${"".padEnd(17)} hostile "${name}": ${mine.length} answered (${statuses}), slowest ${round(Math.max(...mine.map((h) => h.ms)), 1)} ms`,
        );
        const broken = mine.filter((h) => h.status === "error" || h.status >= 500);
        if (broken.length > 0)
          failures.push(`${scenario.name}: hostile "${name}" answered ${broken.map((h) => h.status).join(", ")}`);
      }
    }
  }
  for (const [scenario, counts] of errorCounts) {
    if (counts.non2xx + counts.errors + counts.timeouts === 0) continue;
    const message =
      `${scenario.name}: ${counts.non2xx} non-2xx responses (${Object.entries(counts.statuses)
        .map(([status, count]) => `${status} ×${count}`)
        .join(", ")}), ` + `${counts.errors} connection errors, ${counts.timeouts} timeouts out of ${counts.total}`;
    failures.push(message);
    log(`${"".padEnd(17)} ERRORS: ${message}`);
  }
  return results;
}

/** Prints each measured scenario's target or floor, met or not; adds batch sends' emails per second to `results`. */
export function reportTargets(results: Record<string, ScenarioResult>, { windows }: Measurements): void {
  const windowsOf = (name: string) => [...windows].find(([scenario]) => scenario.name === name)?.[1];
  // A share's floor is judged on the scenarios' whole runs (above). Each round's share, its window over the base's
  // window of the same round, says how far the host moved it within the run: a floor missed in some rounds and met in
  // others is not settled by that run.
  const byRound = (name: string, base: string): string => {
    const mine = windowsOf(name);
    const theirs = windowsOf(base);
    if (!mine || !theirs || mine.length !== theirs.length) return "";
    const shares = mine.map(({ window }, i) => window.rps / theirs[i]!.window.rps);
    const sorted = [...shares].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
    return ` (by round ${shares.map(percent).join(" ")}; their median ${(median * 100).toFixed(1)}%)`;
  };
  for (const scenario of SCENARIOS) {
    const result = results[scenario.name];
    if (scenario.latencyTarget && result) {
      const { p99Ms, hostileMaxMs } = scenario.latencyTarget;
      // A server that answered nothing has a p99 of 0 in autocannon's figures: that is a stall, not a pass.
      const met = result.rps > 0 && result.p99_ms <= p99Ms && (result.hostile_max_ms ?? Infinity) <= hostileMaxMs;
      log(
        `${scenario.name.padEnd(17)} p99 ${result.p99_ms} ms (target ≤ ${p99Ms}), slowest hostile answer ${result.hostile_max_ms} ms ` +
          `(target ≤ ${hostileMaxMs}): ${met ? "met" : "NOT met"}`,
      );
    }
    if (scenario.waitFloor && result?.p97_5_ms !== undefined) {
      const { p97_5Ms } = scenario.waitFloor;
      const met = result.rps > 0 && result.p97_5_ms <= p97_5Ms;
      log(
        `${scenario.name.padEnd(17)} p97.5 ${result.p97_5_ms} ms (floor ≤ ${p97_5Ms}, ${scenario.waitFloor.meaning}): ${met ? "met" : "NOT met"}`,
      );
    }
    if (scenario.emailsPerRequest && result) {
      result.emails_per_s = round(result.rps * scenario.emailsPerRequest, 1);
      const send = results.send;
      if (send) result.emails_per_s_to_send = round(result.emails_per_s / send.rps, 2);
      log(
        `${scenario.name.padEnd(17)} ${result.emails_per_s} emails/s` +
          (send ? `, ${result.emails_per_s_to_send}× send's ${send.rps} emails/s` : " (run send too to compare)"),
      );
    }
    if (scenario.sendShareFloor !== undefined && result) {
      const send = results.send;
      if (send) result.send_share = round(result.rps / send.rps, 3);
      log(
        `${scenario.name.padEnd(17)} ${send ? `${(result.send_share! * 100).toFixed(1)}% of send's throughput (floor ≥ ${scenario.sendShareFloor * 100}%): ${result.send_share! >= scenario.sendShareFloor ? "met" : "NOT met"}${byRound(scenario.name, "send")}` : "(run send too to compare)"}` +
          (result.webhook_deliveries_per_s !== undefined
            ? `; ${result.webhook_deliveries_per_s} webhook deliveries/s received in its windows, the last ${result.webhook_drained_ms} ms after them`
            : ""),
      );
    }
    if (scenario.renderUserShareFloor !== undefined && result) {
      const renderUser = results.render_user;
      if (renderUser) result.render_user_share = round(result.rps / renderUser.rps, 3);
      const floor = scenario.renderUserShareFloor;
      log(
        `${scenario.name.padEnd(17)} ${renderUser ? `${(result.render_user_share! * 100).toFixed(1)}% of render_user's throughput (floor ≥ ${floor * 100}%): ${result.render_user_share! >= floor ? "met" : "NOT met"}${byRound(scenario.name, "render_user")}` : "(run render_user too to compare)"}`,
      );
    }
    if (scenario.webhookDeliveriesFloor !== undefined && result?.webhook_deliveries_per_s !== undefined) {
      const floor = scenario.webhookDeliveriesFloor;
      log(
        `${scenario.name.padEnd(17)} ${result.webhook_deliveries_per_s} webhook deliveries/s (floor ≥ ${floor}): ${result.webhook_deliveries_per_s >= floor ? "met" : "NOT met"}`,
      );
    }
    const ratio = result?.ratio_to_bare;
    if (scenario.target === undefined || ratio === undefined) continue;
    const target = NODE_MAJOR >= 24 ? scenario.target.node24 : scenario.target.node20;
    const verdict = ratio >= target ? "met" : "NOT met";
    log(
      `${scenario.name.padEnd(17)} at ${(ratio * 100).toFixed(1)}% of bare (target on Node ${NODE_MAJOR} ≥ ${Math.round(target * 100)}%): ${verdict}`,
    );
  }
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
