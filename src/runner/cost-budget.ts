// `--max-cost USD`: the runner asks before each trial whether it may start. A trial is let in
// only if what is spent, plus what the trials in flight may still cost, plus what this one may
// cost stays within the limit; the first trial that does not fit stops all scheduling. What a
// trial may cost is judged by the dearest finished trial of the same subject (the mean of the
// earlier runs' trials on resumption). Until a subject has a finished trial its cost cannot be
// judged, so it runs one trial at a time until then. Nothing stops mid-trial: the limit is kept
// at the granularity of trials, and the run is resumable like any other.

export class CostBudget {
  #spent: number;
  #reserved = 0;
  #stopped = false;
  readonly #estimate = new Map<string, number>();
  readonly #probing = new Map<string, Promise<void>>();
  readonly #probeDone = new Map<string, () => void>();

  /** `spentUsd`: what the run had already cost before this invocation; `priorEstimates`: cost per trial by subject from those trials. */
  constructor(
    readonly maxUsd: number,
    spentUsd = 0,
    priorEstimates: Map<string, number> = new Map(),
  ) {
    if (!(maxUsd >= 0)) throw new Error(`the cost limit must be a non-negative number of dollars, got ${maxUsd}`);
    this.#spent = spentUsd;
    for (const [k, v] of priorEstimates) this.#estimate.set(k, v);
  }

  get spentUsd(): number {
    return this.#spent;
  }

  /** What is spent plus what the trials in flight may still cost. */
  get committedUsd(): number {
    return this.#spent + this.#reserved;
  }

  /** Whether scheduling has stopped at the limit. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * Ask to start a trial of `subject`: resolves to a ticket to settle when it ends, or undefined
   * when it would pass the limit (scheduling then stops for good).
   */
  async admit(subject: string): Promise<{ reserved: number; probe: boolean } | undefined> {
    for (;;) {
      if (this.#stopped) return undefined;
      const estimate = this.#estimate.get(subject);
      if (estimate === undefined) {
        const probe = this.#probing.get(subject);
        if (probe) {
          await probe;
          continue;
        }
        if (this.#spent + this.#reserved >= this.maxUsd) return this.#stop();
        let done!: () => void;
        this.#probing.set(subject, new Promise<void>((resolve) => (done = resolve)));
        this.#probeDone.set(subject, done);
        return { reserved: 0, probe: true };
      }
      if (this.#spent + this.#reserved + estimate > this.maxUsd) return this.#stop();
      this.#reserved += estimate;
      return { reserved: estimate, probe: false };
    }
  }

  /** A trial ended having cost `costUsd`; only a finished trial (not a failed one) tells what the next may cost. */
  settle(subject: string, ticket: { reserved: number; probe: boolean }, costUsd: number, finished: boolean): void {
    this.#reserved -= ticket.reserved;
    this.#spent += costUsd;
    const previous = this.#estimate.get(subject);
    if (finished && (previous === undefined || costUsd > previous)) this.#estimate.set(subject, costUsd);
    if (ticket.probe) {
      this.#probing.delete(subject);
      this.#probeDone.get(subject)?.();
      this.#probeDone.delete(subject);
    }
  }

  #stop(): undefined {
    this.#stopped = true;
    for (const done of this.#probeDone.values()) done();
    return undefined;
  }
}
