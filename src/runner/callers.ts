// The one way model callers are built, for every step that calls models: runs, judge panels,
// judge validation and authoring. Callers share one adaptive limit per endpoint, the retry
// policy, the price table and the call cache, so a judge panel and a run against the same
// provider hold back together after a 429. With `shareRateLimits`, the limit is also shared
// with every other process on the same store (see shared-rate-limits.ts). Cache writes are
// committed in groups: `settle()` waits for them and reports the first that failed.

import { ConfigError, createRng, deriveSeed, type GenerationSettings, type Rng } from '../core/index.js';
import type { ChatModel } from '../models/index.js';
import type { ModelCallError } from '../models/index.js';
import type { Store } from '../store/index.js';
import { DEFAULT_MAX_REPLY_BYTES, MAX_CALL_TIMEOUT_MS } from '../models/index.js';
import { AdaptiveLimiter } from './adaptive-limiter.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { PriceBook, type PriceLookup, type PriceTable } from './prices.js';
import { PendingWrites } from './pending-writes.js';
import { RecordingModel, type CallEnvironment } from './recording-model.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry-policy.js';
import { SharedRateLimits } from './shared-rate-limits.js';

/** Concurrent calls per provider endpoint, and trials in flight per worker, when none is given (`--concurrency`). */
export const DEFAULT_CONCURRENCY = 8;

/** Operational settings of calls: they change how calls are made, never what they return. */
export interface CallerOptions {
  store: Store;
  /** Concurrent calls per provider endpoint (the adaptive limit's ceiling). Default DEFAULT_CONCURRENCY. */
  concurrency?: number;
  /** Per-call time limit in milliseconds. Default 60,000. */
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** How long one call may keep retrying rate limits, in milliseconds (default 600,000); wins over retry.maxWaitMs. */
  maxWaitMs?: number;
  /** Timeouts in a row after which an endpoint is taken as down and its subjects stop (default 5; 0: never). */
  maxConsecutiveTimeouts?: number;
  /** Replies larger than this many bytes fail as `oversized` (default DEFAULT_MAX_REPLY_BYTES, 4 MiB). */
  maxReplyBytes?: number;
  /** Prices that win over the price list (exact model names). */
  prices?: PriceTable;
  /** Read and write the content-addressed call cache (default true). */
  useCache?: boolean;
  /** Seed of the retry jitter. */
  seed?: number;
  onRetry?: (spec: string, err: ModelCallError, retry: number, delayMs: number) => void;
  /** Share each endpoint's adaptive limit with the other processes on this store (runs and workers). */
  shareRateLimits?: boolean;
  /** Stored with each reply these callers pay for, to say later where a cached reply came from: the run id, or a step such as `score RUN`. */
  origin?: string;
  /** Batch runs: charges cached replies that the run's batches fetched at batch prices (see batch/batch-charges.ts). */
  batchCharge?: (key: string) => { costUsd: number | null } | undefined;
}

/** Builds every model caller (runs, judges, authors) with shared per-endpoint limits, retries, prices and the call cache. */
export class CallerFactory {
  readonly #limiters = new Map<string, AdaptiveLimiter>();
  readonly #breakers = new Map<string, CircuitBreaker>();
  readonly #prices: PriceBook;
  readonly #jitter: Rng;
  readonly #shared: SharedRateLimits | undefined;
  /** Cache writes not yet known to be committed. */
  readonly pending = new PendingWrites();

  constructor(readonly options: CallerOptions) {
    const t = options.timeoutMs;
    if (t !== undefined && !(t > 0 && t <= MAX_CALL_TIMEOUT_MS))
      throw new ConfigError(`the call time limit must be above 0 and at most ${MAX_CALL_TIMEOUT_MS / 1000} s, got ${t / 1000} s`);
    this.#prices = new PriceBook(options.prices);
    this.#jitter = createRng(deriveSeed('retry-jitter', options.seed ?? 0));
    if (options.shareRateLimits) this.#shared = new SharedRateLimits(options.store, (endpoint) => this.#limiters.get(endpoint));
  }

  /** Start sharing rate limits with other processes (when asked for): reads the store's current pauses. */
  async start(): Promise<void> {
    await this.#shared?.start();
  }

  /** The adaptive limiter shared by every caller of this endpoint. */
  limiterFor(model: ChatModel): AdaptiveLimiter {
    let l = this.#limiters.get(model.endpoint);
    if (!l) {
      this.#limiters.set(model.endpoint, (l = new AdaptiveLimiter(this.options.concurrency ?? DEFAULT_CONCURRENCY)));
      const shared = this.#shared;
      if (shared) l.onLocalRateLimit = (pauseMs) => shared.report(model.endpoint, pauseMs);
    }
    return l;
  }

  /** The circuit breaker shared by every caller of this endpoint. */
  breakerFor(model: ChatModel): CircuitBreaker {
    let b = this.#breakers.get(model.endpoint);
    if (!b) this.#breakers.set(model.endpoint, (b = new CircuitBreaker(model.endpoint, this.options.maxConsecutiveTimeouts)));
    return b;
  }

  /** Wait for the cache writes made so far; throws the first that failed. Stops sharing rate limits. */
  async settle(): Promise<void> {
    await this.#shared?.stop();
    await this.pending.settle();
  }

  /** The price of a model's calls and where it came from (unknown prices are reported, never taken as $0). */
  priceOf(model: ChatModel): PriceLookup {
    return this.#prices.lookup(model);
  }

  /**
   * A caller for one unit of work (a trial, a judged response): it records the calls it makes.
   * `subjectId` is what the calls are recorded under; `settings` the generation settings;
   * `draw` names the unit of work, so that its calls are draws of their own (see CallDraw).
   */
  caller(
    model: ChatModel,
    subjectId: string,
    settings: GenerationSettings,
    overrides: { useCache?: boolean; timeoutMs?: number; onMiss?: CallEnvironment['onMiss']; draw?: string; origin?: string } = {},
  ): RecordingModel {
    const onRetry = this.options.onRetry;
    const retry = this.options.retry ?? DEFAULT_RETRY;
    const maxWaitMs = this.options.maxWaitMs;
    return new RecordingModel(subjectId, model, settings, {
      store: this.options.store,
      track: (write) => this.pending.track(write),
      limiter: this.limiterFor(model),
      retry: maxWaitMs === undefined ? retry : { ...retry, maxWaitMs },
      breaker: this.breakerFor(model),
      maxReplyBytes: this.options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
      timeoutMs: overrides.timeoutMs ?? this.options.timeoutMs ?? 60_000,
      price: this.#prices.lookup(model).price,
      rng: this.#jitter,
      useCache: overrides.useCache ?? this.options.useCache ?? true,
      draw: overrides.draw,
      origin: overrides.origin ?? this.options.origin,
      onRetry: onRetry ? (err, n, delayMs) => onRetry(model.spec, err, n, delayMs) : undefined,
      onMiss: overrides.onMiss,
      batchCharge: this.options.batchCharge,
    });
  }
}
