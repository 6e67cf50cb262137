import { readFileSync } from "node:fs";

/**
 * CPU time of one thread of this process, user and system, from Linux's /proc: what a compile's deadline counts
 * (./worker-pool.ts), so that a busy machine slows a compile down without making it fail. Null where there is no /proc
 * (macOS, Windows): the deadline then counts wall-clock time.
 */

/** Linux reports thread times in clock ticks of 1/100 s (USER_HZ, the same on every architecture Node runs on). */
const MS_PER_TICK = 10;

/** The calling thread's Linux id, or 0 where there is none to read. */
export function currentThreadId(): number {
  const stat = readStat("/proc/thread-self/stat");
  return stat ? Number(stat.slice(0, stat.indexOf(" "))) : 0;
}

/** CPU time the thread `tid` of this process has used, in ms; null when it is gone or unreadable. */
export function threadCpuMs(tid: number): number | null {
  const stat = readStat(`/proc/self/task/${tid}/stat`);
  if (!stat) return null;
  // "tid (comm) state …": the name may hold spaces and parentheses, so the fields are counted after its last ")".
  // utime and stime are fields 14 and 15, the 12th and 13th after it.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks * MS_PER_TICK : null;
}

function readStat(file: string): string | null {
  if (process.platform !== "linux") return null;
  try {
    return readFileSync(file, "latin1");
  } catch {
    return null;
  }
}
