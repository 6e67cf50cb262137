/**
 * Bounded, fair admission to a worker pool's queue: the sandbox's (./sandbox/index.ts), the compile workers'
 * (./sandbox/compile-pool.ts) and the catalogue render workers' (./catalogue-pool.ts). A job holds its place from
 * submission until it settles (waiting or running). An account (owner) holds at most `perAccount` places. Below `total`
 * places held in all, that is the only bound; at `total`, an account still gets in while it holds less than its fair
 * share (`total` ÷ the accounts holding places, the asking one included, at least 1), so a few accounts filling the
 * queue do not shut everyone else out; and at `total` × QUEUE_CEILING_FACTOR nobody does, so the queue stays bounded
 * however many accounts ask. A refused job is answered at once with the 503 SANDBOX_BUSY ApiError and Retry-After,
 * instead of waiting behind the others.
 *
 * Counted in process memory on purpose: the queue it bounds is this process's own.
 */
import { errors } from "@/lib/api/errors";
import { QUEUE_CEILING_FACTOR } from "@/lib/limits";

/** A full queue drains within about a second unless its jobs run to their deadlines. */
const BUSY_RETRY_AFTER_SECONDS = 1;

export class QueueAdmission {
  private readonly heldPerOwner = new Map<string, number>();
  private heldInAll = 0;

  /** `words`, for the refusals: what the pool's jobs are called, and what it says when it is full. */
  constructor(
    private readonly caps: { total: number; perAccount: number },
    private readonly words: { jobs: string; full: string },
  ) {}

  /** Places held in all. */
  get held(): number {
    return this.heldInAll;
  }

  /**
   * Takes a place for one of `owner`'s jobs, or throws the 503 ApiError. Returns the function that gives the place
   * back when the job settles; calling it again does nothing.
   */
  admit(owner: string): () => void {
    const ownerHeld = this.heldPerOwner.get(owner) ?? 0;
    if (ownerHeld >= this.caps.perAccount) {
      throw errors.sandboxBusy(
        `This account already has ${this.caps.perAccount} ${this.words.jobs} waiting; try again in a moment.`,
        BUSY_RETRY_AFTER_SECONDS,
      );
    }
    if (this.heldInAll >= this.caps.total) {
      const accounts = this.heldPerOwner.size + (ownerHeld === 0 ? 1 : 0);
      const fairShare = Math.max(1, Math.floor(this.caps.total / accounts));
      if (ownerHeld >= fairShare || this.heldInAll >= this.caps.total * QUEUE_CEILING_FACTOR) {
        throw errors.sandboxBusy(`${this.words.full}; try again in a moment.`, BUSY_RETRY_AFTER_SECONDS);
      }
    }
    this.heldPerOwner.set(owner, ownerHeld + 1);
    this.heldInAll++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.heldInAll--;
      const left = this.heldPerOwner.get(owner)! - 1;
      if (left === 0) this.heldPerOwner.delete(owner);
      else this.heldPerOwner.set(owner, left);
    };
  }
}

type Settlers<T> = { resolve: (value: T) => void; reject: (error: Error) => void };

/**
 * Queues one job of `owner` on a pool admitted by `admission` (or throws its 503 at once). `enqueue` puts the job in
 * the pool's waiting line, with settlers that give the place back; a `signal` aborted while the job still waits
 * (`removeWaiting` finds it there) rejects it with the signal's reason.
 */
export function queueJob<J, T>(
  admission: QueueAdmission,
  owner: string,
  signal: AbortSignal | undefined,
  enqueue: (settlers: Settlers<T>) => J,
  removeWaiting: (job: J) => boolean,
): Promise<T> {
  signal?.throwIfAborted();
  const release = admission.admit(owner);
  return new Promise<T>((resolve, reject) => {
    const settle = () => {
      release();
      signal?.removeEventListener("abort", drop);
    };
    const settlers: Settlers<T> = {
      resolve: (value) => {
        settle();
        resolve(value);
      },
      reject: (error) => {
        settle();
        reject(error);
      },
    };
    const drop = () => {
      if (removeWaiting(job)) settlers.reject(signal!.reason);
    };
    signal?.addEventListener("abort", drop, { once: true });
    const job = enqueue(settlers);
  });
}

/** Takes `job` out of its owner's line; false when it is no longer waiting (sent to a worker, or settled). */
export function removeFromLine<J extends { owner: string }>(lines: Map<string, J[]>, job: J): boolean {
  const line = lines.get(job.owner);
  const index = line?.indexOf(job) ?? -1;
  if (index === -1) return false;
  line!.splice(index, 1);
  if (line!.length === 0) lines.delete(job.owner);
  return true;
}
