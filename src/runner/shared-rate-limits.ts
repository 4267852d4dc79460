// The adaptive limit per endpoint, coordinated across every process working on one store (the
// runs and workers of a multi-machine evaluation). A 429 seen by any process is written to the
// store (a new "episode" unless the endpoint is paused already); every process polls the store
// and, for each new episode, halves its own limit once and pauses for what is left of the
// Retry-After. So 8 workers after a 429 back off together, as one process would, instead of
// each learning of the limit by hitting it.

import type { RateLimitState, Store } from '../store/index.js';
import type { AdaptiveLimiter } from './adaptive-limiter.js';

/** How often the store's rate-limit state is read. */
export const RATE_LIMIT_POLL_MS = 500;

/** Shares each endpoint's rate-limit episodes with every process on the same store (report and poll). */
export class SharedRateLimits {
  /** The last episode seen per endpoint. */
  readonly #seen = new Map<string, number>();
  /** Endpoints with a report on its way to the store: their new episode is our own. */
  readonly #reporting = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;
  #started = false;
  #initialised = false;

  constructor(
    private readonly store: Store,
    private readonly limiterOf: (endpoint: string) => AdaptiveLimiter | undefined,
    private readonly pollMs = RATE_LIMIT_POLL_MS,
  ) {}

  /** Read the current state (an endpoint paused now stays paused here) and start polling. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await this.poll();
    this.#initialised = true;
    this.#timer = setInterval(() => {
      this.#polling ??= this.poll()
        .catch(() => {})
        .finally(() => (this.#polling = undefined));
    }, this.pollMs);
    this.#timer.unref();
  }

  /** This process was rate-limited: tell the others (errors are ignored: sharing is best effort). */
  report(endpoint: string, pauseMs: number): void {
    if (!this.#started) return;
    this.#reporting.set(endpoint, (this.#reporting.get(endpoint) ?? 0) + 1);
    this.store
      .reportRateLimit(endpoint, pauseMs)
      .then((s) => this.#seen.set(endpoint, Math.max(this.#seen.get(endpoint) ?? 0, s.generation)))
      .catch(() => {})
      .finally(() => this.#reporting.set(endpoint, (this.#reporting.get(endpoint) ?? 1) - 1));
  }

  /** Apply the episodes other processes reported since the last poll. */
  async poll(): Promise<void> {
    for (const s of await this.store.rateLimits()) this.#apply(s);
  }

  #apply(s: RateLimitState): void {
    if (this.#reporting.get(s.endpoint)) return;
    const seen = this.#seen.get(s.endpoint) ?? (this.#initialised ? 0 : undefined);
    this.#seen.set(s.endpoint, Math.max(seen ?? 0, s.generation));
    const limiter = this.limiterOf(s.endpoint);
    if (seen === undefined) {
      // First look: old episodes are history, a pause still running is not.
      if (s.pausedForMs > 0) limiter?.pauseFor(s.pausedForMs);
    } else if (s.generation > seen) {
      limiter?.applySharedRateLimit(s.pausedForMs);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#polling;
  }
}
