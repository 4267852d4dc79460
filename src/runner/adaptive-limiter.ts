// A concurrency limit per provider endpoint that adapts to rate limiting, additive-increase /
// multiplicative-decrease: a 429 halves the limit and pauses new calls for the Retry-After
// delay; every `limit` successes in a row raise it by one, back up to the configured maximum.
// Other processes' 429s arrive through applySharedRateLimit (see shared-rate-limits.ts).

export interface LimiterSnapshot {
  limit: number;
  active: number;
  waiting: number;
  pausedForMs: number;
}

/** A concurrency limit per endpoint that halves on a 429, pauses for Retry-After, and rises again one step per streak of successes. */
export class AdaptiveLimiter {
  #limit: number;
  #active = 0;
  #successStreak = 0;
  #pausedUntil = 0;
  #waiters: Array<() => void> = [];
  #timer: NodeJS.Timeout | undefined;
  /** Told of each 429 this process sees, with the pause it asks for (to share it with other processes). */
  onLocalRateLimit?: (pauseMs: number) => void;

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new Error(`concurrency must be at least 1, got ${max}`);
    this.#limit = max;
  }

  get limit(): number {
    return this.#limit;
  }

  snapshot(): LimiterSnapshot {
    return {
      limit: this.#limit,
      active: this.#active,
      waiting: this.#waiters.length,
      pausedForMs: Math.max(0, this.#pausedUntil - Date.now()),
    };
  }

  /** Wait for a slot. Every acquire must be followed by exactly one release. */
  async acquire(): Promise<void> {
    if (this.#canStart()) {
      this.#active++;
      return;
    }
    await new Promise<void>((resolve) => {
      this.#waiters.push(resolve);
      this.#drain();
    });
  }

  release(): void {
    this.#active--;
    this.#drain();
  }

  /** A call succeeded: maybe raise the limit. */
  onSuccess(): void {
    if (this.#limit >= this.max) return;
    if (++this.#successStreak >= this.#limit) {
      this.#limit++;
      this.#successStreak = 0;
      this.#drain();
    }
  }

  /** The server rate-limited us: halve the limit and pause new calls. */
  onRateLimit(retryAfterMs: number | undefined, fallbackMs: number): void {
    const pauseMs = retryAfterMs ?? fallbackMs;
    this.applySharedRateLimit(pauseMs);
    this.onLocalRateLimit?.(pauseMs);
  }

  /** Another process sharing this endpoint was rate-limited: halve the limit and pause as it asks. */
  applySharedRateLimit(pauseMs: number): void {
    this.#limit = Math.max(1, Math.floor(this.#limit / 2));
    this.#successStreak = 0;
    this.pauseFor(pauseMs);
  }

  /** Start no call for `ms` (a pause already longer is kept). */
  pauseFor(ms: number): void {
    const until = Date.now() + ms;
    if (until > this.#pausedUntil) this.#pausedUntil = until;
  }

  #canStart(): boolean {
    return this.#active < this.#limit && Date.now() >= this.#pausedUntil;
  }

  #drain(): void {
    while (this.#waiters.length && this.#canStart()) {
      this.#active++;
      this.#waiters.shift()!();
    }
    if (this.#waiters.length && this.#active < this.#limit && !this.#timer) {
      // Paused: wake up when the pause ends.
      this.#timer = setTimeout(
        () => {
          this.#timer = undefined;
          this.#drain();
        },
        Math.max(1, this.#pausedUntil - Date.now()),
      );
    }
  }
}
