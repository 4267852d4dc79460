// Writes in flight: the store commits finished trials and cache entries in groups, and the
// runner goes on working instead of waiting for each commit. It keeps their promises here and
// waits for all of them before it returns; the first failure is kept, so that the run can stop
// at once and report it.

/** Promises of writes committed in groups, awaited together before a run returns; keeps the first failure. */
export class PendingWrites {
  readonly #pending = new Set<Promise<void>>();
  #error: Error | undefined;

  /** Keep a write's promise until it settles. */
  track(write: Promise<void>): void {
    this.#pending.add(write);
    write.then(
      () => this.#pending.delete(write),
      (err: Error) => {
        this.#pending.delete(write);
        this.#error ??= err;
      },
    );
  }

  /** The first write that failed, if any. */
  get error(): Error | undefined {
    return this.#error;
  }

  /** Wait for every write tracked so far (and those tracked meanwhile); throws the first failure. */
  async settle(): Promise<void> {
    while (this.#pending.size) await Promise.allSettled([...this.#pending]);
    if (this.#error) throw this.#error;
  }
}
