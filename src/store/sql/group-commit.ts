// Group commit: writes are queued and committed together, in one transaction, at most
// GROUP_COMMIT_MS after the first of them (or at once when GROUP_COMMIT_MAX are queued), so
// that many calls finishing together cost one commit, not one each. Each write's promise
// resolves once its batch is committed, so a caller can go on working and collect the
// promises instead of waiting for each commit in turn. When a batch fails, its writes are
// retried one transaction each: the failing ones reject (and are reported by the next
// flush), the others stay. Batches commit one after another, in the order they were queued.

// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';
import { StoreFullError } from './store-full.js';

/**
 * The longest a finished trial waits in memory before it is committed. A killed process loses
 * at most this much of its results (their trials run again); longer groups share their index
 * pages and their commit: 100 ms took the runner's main thread from 0.94 to 0.80 ms a trial
 * against 25 ms (bench/runner.mjs's MCQ run, 5,000 trials).
 */
export const GROUP_COMMIT_MS = 100;
const GROUP_COMMIT_MAX = 512;
/** Failed writes named in a flush error; the others are counted. */
const MAX_FAILURES_SHOWN = 3;

/** Names a write in an error message: the text, or what makes it (called only when there is an error to name it in). */
export type WriteName = string | (() => string);

interface Queued<W> {
  what: WriteName;
  write: W;
  /**
   * Called once the write has been tried, with whether it was committed (bookkeeping: what the
   * store knows committed, read-your-writes), before the write's promise settles for its callers.
   */
  after?: (committed: boolean) => void;
  resolve: () => void;
  reject: (err: Error) => void;
  committed: boolean;
  /** Why it could not be committed. */
  error?: Error;
}

const nameOf = (what: WriteName): string => (typeof what === 'string' ? what : what());

export class GroupCommit<W> {
  #queue: Queued<W>[] = [];
  #timer: NodeJS.Timeout | undefined;
  #chain: Promise<void> = Promise.resolve();
  #failures: string[] = [];
  #full: StoreFullError | undefined;

  constructor(
    /** Runs the writes in one transaction. */
    private readonly commit: (writes: W[]) => Promise<void>,
    private readonly location: string,
  ) {}

  /** Queue a write; the promise resolves when it is committed and rejects when it cannot be. */
  add(what: WriteName, write: W, after?: (committed: boolean) => void): Promise<void> {
    let resolve!: () => void;
    let reject!: (err: Error) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A caller that does not wait for the write still hears of a failure from flush().
    done.catch(() => {});
    this.#queue.push({ what, write, after, resolve, reject, committed: false });
    if (this.#queue.length >= GROUP_COMMIT_MAX) void this.#commitQueued();
    else if (!this.#timer) this.#timer = setTimeout(() => void this.#commitQueued(), GROUP_COMMIT_MS);
    return done;
  }

  /** Writes queued and not yet committed. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Commit what is queued now; resolves when every batch queued so far has been tried. */
  #commitQueued(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length) this.#chain = this.#chain.then(() => this.#commitBatch(batch));
    return this.#chain;
  }

  async #commitBatch(batch: Queued<W>[]): Promise<void> {
    try {
      await this.commit(batch.map((b) => b.write));
      for (const b of batch) b.committed = true;
    } catch {
      for (const b of batch) {
        try {
          await this.commit([b.write]);
          b.committed = true;
        } catch (err) {
          // A full disk is one short line naming the database, however many writes it refused.
          if (err instanceof StoreFullError) {
            this.#full = err;
            b.error = err;
            continue;
          }
          const message = (err as Error).message;
          const what = nameOf(b.what);
          this.#failures.push(`${what}: ${message}`);
          b.error = new MindscopeError(`${this.location}: could not store ${what}: ${message}`);
        }
      }
    }
    // The batch's bookkeeping first, then its writes' promises (settled even if bookkeeping throws).
    try {
      for (const b of batch) b.after?.(b.committed);
    } finally {
      for (const b of batch) {
        if (b.committed) b.resolve();
        else b.reject(b.error!);
      }
    }
  }

  /** Commit queued writes now; rejects naming every write that could not be stored since the last flush. */
  async flush(): Promise<void> {
    await this.#commitQueued();
    if (this.#full) {
      const full = this.#full;
      this.#full = undefined;
      this.#failures = [];
      throw full;
    }
    if (this.#failures.length) {
      const failures = this.#failures;
      this.#failures = [];
      // The first few reasons; the rest counted, not listed (an error line, not a log).
      const shown = failures.slice(0, MAX_FAILURES_SHOWN).join('; ');
      const more = failures.length > MAX_FAILURES_SHOWN ? `; and ${failures.length - MAX_FAILURES_SHOWN} more` : '';
      throw new MindscopeError(`${this.location}: could not store ${failures.length} write(s): ${shown}${more}`);
    }
  }
}
