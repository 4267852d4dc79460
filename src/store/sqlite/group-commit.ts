// Group commit: writes are queued and committed together, in one transaction, at most
// GROUP_COMMIT_MS after the first of them (or at once when GROUP_COMMIT_MAX are queued), so
// that many calls finishing together cost one commit, not one each. When a batch fails, its
// writes are retried one transaction each and the failing ones are reported; the others stay.
// An error in a background commit is raised at the next use (`raise`).

import { MindscopeError } from '../../core/index.js';

/** The longest a finished trial waits in memory before it is committed. */
export const GROUP_COMMIT_MS = 25;
const GROUP_COMMIT_MAX = 512;

export interface QueuedWrite {
  /** Names the write in an error message. */
  what: string;
  write: () => void;
}

export class GroupCommit {
  #queue: QueuedWrite[] = [];
  #timer: NodeJS.Timeout | undefined;
  #error: Error | undefined;

  constructor(
    /** Runs a function in one transaction. */
    private readonly transaction: (fn: () => void) => void,
    /** Called after every flush, committed or not: queued read-your-writes state is stale then. */
    private readonly onFlushed: () => void,
    private readonly location: string,
  ) {}

  add(what: string, write: () => void): void {
    this.raise();
    this.#queue.push({ what, write });
    if (this.#queue.length >= GROUP_COMMIT_MAX) this.flush();
    else if (!this.#timer) {
      this.#timer = setTimeout(() => {
        try {
          this.flush();
        } catch (err) {
          this.#error = err as Error;
        }
      }, GROUP_COMMIT_MS);
    }
  }

  /** A background commit failed: say so now. */
  raise(): void {
    const err = this.#error;
    if (err) {
      this.#error = undefined;
      throw err;
    }
  }

  /** Commit queued writes now: one transaction, or one per write when the batch fails. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.raise();
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    try {
      this.transaction(() => batch.forEach((w) => w.write()));
    } catch {
      const failures: string[] = [];
      for (const w of batch) {
        try {
          this.transaction(w.write);
        } catch (err) {
          failures.push(`${w.what}: ${(err as Error).message}`);
        }
      }
      if (failures.length) {
        this.onFlushed();
        throw new MindscopeError(`${this.location}: could not store ${failures.length} write(s): ${failures.join('; ')}`);
      }
    }
    this.onFlushed();
  }
}
