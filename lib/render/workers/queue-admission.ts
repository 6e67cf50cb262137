/**
 * Bounded, fair admission to a worker pool's queue (./worker-pool.ts): the sandbox's (./sandbox/index.ts), the compile
 * workers' (./sandbox/compile-pool.ts) and the catalogue render workers' (./catalogue-pool.ts). A job holds its place from
 * submission until it settles (waiting or running). An account (owner) holds at most `perAccount` places. Below `total`
 * places held in all, that is the only bound; at `total`, an account still gets in while it holds less than its fair
 * share (`total` ÷ the accounts holding places, the asking one included, at least 1), so a few accounts filling the
 * queue do not shut everyone else out; and at `total` × QUEUE_CEILING_FACTOR nobody does, so the queue stays bounded
 * however many accounts ask. A refused job is answered at once with the SANDBOX_BUSY AppError (503) and Retry-After,
 * instead of waiting behind the others.
 *
 * Counted in process memory on purpose: the queue it bounds is this process's own.
 */
import { errors } from "@/lib/core/errors";
import { QUEUE_CEILING_FACTOR } from "@/lib/core/limits";

/** A full queue drains within about a second unless its jobs run to their deadlines. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** The bounds, and for the refusals what the pool's jobs are called (`jobs`) and what it says when it is full. */
export type AdmissionCaps = { total: number; perAccount: number; jobs: string; full: string };

export class QueueAdmission {
  private readonly heldPerOwner = new Map<string, number>();
  private heldInAll = 0;

  constructor(private readonly caps: AdmissionCaps) {}

  /** Places held in all. */
  get held(): number {
    return this.heldInAll;
  }

  /**
   * Takes a place for one of `owner`'s jobs, or throws the SANDBOX_BUSY AppError. Returns the function that gives the
   * place back when the job settles; calling it again does nothing.
   */
  admit(owner: string): () => void {
    const ownerHeld = this.heldPerOwner.get(owner) ?? 0;
    if (ownerHeld >= this.caps.perAccount) {
      throw errors.sandboxBusy(
        `This account already has ${this.caps.perAccount} ${this.caps.jobs} waiting; try again in a moment.`,
        BUSY_RETRY_AFTER_SECONDS,
      );
    }
    if (this.heldInAll >= this.caps.total) {
      const accounts = this.heldPerOwner.size + (ownerHeld === 0 ? 1 : 0);
      const fairShare = Math.max(1, Math.floor(this.caps.total / accounts));
      if (ownerHeld >= fairShare || this.heldInAll >= this.caps.total * QUEUE_CEILING_FACTOR) {
        throw errors.sandboxBusy(`${this.caps.full}; try again in a moment.`, BUSY_RETRY_AFTER_SECONDS);
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
