// What an invocation's calls were: how many were made, and how many the call cache answered,
// by where each reply came from (the run, or step, whose call paid for it). A resumed run's
// hits come from its own earlier attempts; a rerun under another run id is answered by the
// first run. The summary says so, so that a result built on another run's replies is visible.

/** Cache hits from one origin. */
export interface CacheOrigin {
  /** The run (or step) whose call paid for the reply; null for replies cached before origins were kept. */
  origin: string | null;
  calls: number;
}

/** An invocation's calls: `made` in all, `cached` of them answered from the call cache, by origin. */
export interface CallCounts {
  made: number;
  cached: number;
  cachedFrom: CacheOrigin[];
}

/** Counts calls as units of work finish. */
export class CallTally {
  made = 0;
  cached = 0;
  readonly #byOrigin = new Map<string, number>();

  /** Count one unit of work's calls; `hits` by origin, '' for unknown. */
  add(made: number, hits: ReadonlyMap<string, number>): void {
    this.made += made;
    for (const [origin, n] of hits) {
      this.cached += n;
      this.#byOrigin.set(origin, (this.#byOrigin.get(origin) ?? 0) + n);
    }
  }

  /** Add counts already summed (another wave of the same invocation). */
  addCounts(c: CallCounts): void {
    this.made += c.made;
    this.add(0, new Map(c.cachedFrom.map((o) => [o.origin ?? '', o.calls])));
  }

  /** The counts, hits by origin most first (ties by name). */
  counts(): CallCounts {
    const cachedFrom = [...this.#byOrigin]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([origin, calls]) => ({ origin: origin === '' ? null : origin, calls }));
    return { made: this.made, cached: this.cached, cachedFrom };
  }
}
