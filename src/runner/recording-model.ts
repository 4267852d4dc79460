// The model a protocol talks to during one trial. Each call goes: content-addressed cache ->
// the endpoint's adaptive limiter -> the provider, with bounded retries; each call is recorded
// for the transcript with its tokens, latency, attempts and cost.

import type { CallContext, CallRecord, ChatMessage, ChatResponse, GenerationSettings, Rng, TrialModel } from '../core/index.js';
import { canonicalJson, scrubSecrets, sha256 } from '../core/index.js';
import type { ChatModel, ChatRequest, LoglikResult } from '../models/index.js';
import { ModelCallError, normalizeSettings, oversizedError, replyTooLarge } from '../models/index.js';
import type { Store } from '../store/index.js';
import type { AdaptiveLimiter } from './adaptive-limiter.js';
import type { Price } from './prices.js';
import { callCost } from './prices.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import { backoffDelay, DEFAULT_MAX_WAIT_MS, MAX_RETRY_AFTER_MS, sleep, type RetryPolicy } from './retry-policy.js';

export interface CallEnvironment {
  store: Store;
  /** Keeps the promise of each cache write (committed in groups; the caller waits for them at the end). */
  track: (write: Promise<void>) => void;
  limiter: AdaptiveLimiter;
  retry: RetryPolicy;
  timeoutMs: number;
  price: Price | undefined;
  rng: Rng;
  useCache: boolean;
  /** The unit of work the calls belong to (see CallDraw); absent: this caller's calls are told apart by occurrence only. */
  draw?: string;
  /** Stored with each reply this caller pays for: the run or step it was made for (see Store.putCached). */
  origin?: string;
  /** The endpoint's circuit breaker: too many timeouts in a row stop its subjects. */
  breaker?: CircuitBreaker;
  /** Replies larger than this many bytes fail as `oversized` (undefined: no cap). */
  maxReplyBytes?: number;
  /** Told about each retry, for progress display. */
  onRetry?: (err: ModelCallError, retry: number, delayMs: number) => void;
  /** Batch mode, collecting: a cache miss is handed here (to go into a batch) instead of being called; it throws. */
  onMiss?: (key: string, request: ChatRequest) => never;
  /** Batch mode, recording: the batch price of a cached reply that this run's batch fetched, the first time it is used; else undefined. */
  batchCharge?: (key: string) => { costUsd: number | null } | undefined;
}

/**
 * What makes a call a draw of its own, beside its request: the unit of work it belongs to (a
 * trial's suite, item and replicate; a judged trial) and how many identical requests that unit
 * made before it. A reply sampled for one trial is never another trial's answer, and a second
 * identical question in one conversation gets a reply of its own; the same trial run again
 * (a resumed run, another run with the same spec) asks for the same draws, which the cache has.
 */
export interface CallDraw {
  /** The unit of work: empty for a caller that names none (each caller's calls are then told apart by occurrence only). */
  unit: string;
  /** Identical requests the unit made before this one. */
  occurrence: number;
}

/**
 * The cache key of a call: everything that determines its result (provider, model, the
 * endpoint it goes to and its API, settings, every message) and which draw it is, each part
 * with separators and lengths, hashed in one go. `requestKey` is the key of the request alone
 * (no draw): identical requests share it, which is how their occurrences are counted.
 */
export function callCacheKey(
  model: ChatModel,
  kind: string,
  settings: unknown,
  messages: ChatMessage[] | string[],
  draw?: CallDraw,
  /** canonicalJson(settings), when the caller has it already. */
  settingsJson = canonicalJson(settings),
): string {
  const request = requestKey(model, kind, settingsJson, messages);
  return draw ? drawKey(request, draw) : request;
}

/** The key of one draw of a request. */
function drawKey(request: string, draw: CallDraw): string {
  return sha256(`${request}\u0002${draw.unit.length}\u0000${draw.unit}\u0000${draw.occurrence}`);
}

/** The key of a request alone: provider, spec, endpoint, API, kind, settings and messages. */
function requestKey(model: ChatModel, kind: string, settingsJson: string, messages: ChatMessage[] | string[]): string {
  const where = `${model.endpoint}\u0000${model.wire?.api ?? ''}\u0000${model.revision ?? ''}`;
  let text = `${model.provider}\u0000${model.spec}\u0000${where}\u0000${kind}\u0000${settingsJson}`;
  for (const m of messages) {
    if (typeof m === 'string') text += `\u0001s\u0000${m.length}\u0000${m}`;
    else if (typeof m.content === 'string') text += `\u0001${m.role}\u0000${m.content.length}\u0000${m.content}`;
    else text += `\u0001${m.role}\u0000parts\u0000${canonicalJson(m.content)}`;
  }
  return sha256(text);
}

/**
 * A subject's base settings as sent (normalised for the model) and their key text, computed once
 * per model and settings object rather than once per call: most calls add no settings of their own.
 */
const prepared = new WeakMap<ChatModel, WeakMap<GenerationSettings, { settings: GenerationSettings; json: string }>>();
function prepare(model: ChatModel, base: GenerationSettings): { settings: GenerationSettings; json: string } {
  let byModel = prepared.get(model);
  if (!byModel) prepared.set(model, (byModel = new WeakMap()));
  let p = byModel.get(base);
  if (!p) {
    const settings = normalizeSettings(model.capabilities, base);
    byModel.set(base, (p = { settings, json: canonicalJson(settings) }));
  }
  return p;
}

/** The error of a call still rate limited when the wait budget is spent: it stops the subject, the run stays resumable. */
function rateLimitExhausted(error: ModelCallError, maxWaitMs: number, waitedMs: number): ModelCallError {
  const secs = (ms: number) => `${ms < 10_000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000)}s`;
  const budget = `--max-wait ${secs(maxWaitMs)}`;
  const why =
    error.retryAfterMs !== undefined && error.retryAfterMs > maxWaitMs
      ? `the server asks to wait ${secs(error.retryAfterMs)} (Retry-After), more than ${budget}`
      : `still rate limited after ${secs(waitedMs)} of waiting (${budget})`;
  return new ModelCallError(
    `${error.message}: ${why}; stopped this subject: run the same command later (or with a larger --max-wait) to continue`,
    'rate_limit_exhausted',
    error.status,
    error.retryAfterMs,
  );
}

/** The model a protocol talks to during one trial: cache, limiter, retries, and a record of every call for the transcript. */
export class RecordingModel implements TrialModel {
  readonly calls: CallRecord[] = [];
  /** Calls the cache answered, by where the reply came from (the origin stored with it; '' when unknown). */
  readonly cacheHits = new Map<string, number>();
  readonly loglik?: TrialModel['loglik'];
  /** Requests asked so far, by request key: the occurrence of the next identical one. */
  readonly #asked = new Map<string, number>();

  constructor(
    readonly subjectId: string,
    private readonly model: ChatModel,
    private readonly baseSettings: GenerationSettings,
    private readonly env: CallEnvironment,
  ) {
    if (model.loglik) this.loglik = (context, continuations) => this.#loglik(context, continuations);
  }

  get spec(): string {
    return this.model.spec;
  }

  /** Whether the model takes a response schema (judges then ask for structured output). */
  get structuredOutput(): boolean {
    return this.model.capabilities?.structuredOutput ?? false;
  }

  /**
   * Run `fn` under the limiter with retries; returns the result and the attempts used. Rate
   * limits are retried within the wait budget (retry.maxWaitMs), other transient errors
   * maxRetries times; timeouts count towards the endpoint's circuit breaker.
   */
  async #withRetries<T>(fn: () => Promise<T>): Promise<{ value: T; attempts: number }> {
    const { limiter, retry, breaker } = this.env;
    const maxWaitMs = retry.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    let firstRateLimit: number | undefined;
    let rateLimits = 0;
    let transient = 0;
    for (let attempt = 1; ; attempt++) {
      await limiter.acquire();
      let error: ModelCallError;
      let delay = 0;
      let giveUp: ModelCallError | undefined;
      const started = Date.now();
      try {
        // An endpoint taken as down fails every call at once (the subject stops).
        if (breaker?.openError) throw breaker.openError;
        const value = await fn();
        breaker?.onAnswer();
        limiter.onSuccess();
        return { value, attempts: attempt };
      } catch (err) {
        if (!(err instanceof ModelCallError)) throw err;
        error = err;
        if (err.kind === 'timeout') error = breaker?.onTimeout(this.spec, this.env.timeoutMs, started) ?? err;
        else if (err.kind !== 'network' && err.kind !== 'unresponsive') breaker?.onAnswer();
        if (error.kind === 'rate_limit') {
          const now = Date.now();
          firstRateLimit ??= now;
          const left = maxWaitMs - (now - firstRateLimit);
          delay = backoffDelay(retry, rateLimits++, this.env.rng, error.retryAfterMs);
          if (error.retryAfterMs === undefined) delay = Math.min(delay, Math.max(0, left));
          if (delay > left || left <= 0) giveUp = rateLimitExhausted(error, maxWaitMs, now - firstRateLimit);
          // The pause is in force before this slot is released: a queued call must not start in the gap.
          limiter.onRateLimit(Math.min(error.retryAfterMs ?? delay, maxWaitMs), delay);
        } else if (error.retryable && transient < retry.maxRetries) {
          delay = Math.min(backoffDelay(retry, transient++, this.env.rng, error.retryAfterMs), MAX_RETRY_AFTER_MS);
        } else giveUp = error;
      } finally {
        limiter.release();
      }
      if (giveUp) {
        const message = attempt > 1 && giveUp === error ? `${giveUp.message} (after ${attempt} attempts)` : giveUp.message;
        throw new ModelCallError(message, giveUp.kind, giveUp.status, giveUp.retryAfterMs, attempt);
      }
      this.env.onRetry?.(error, attempt, delay);
      await sleep(delay);
    }
  }

  async chat(messages: ChatMessage[], settings: Partial<GenerationSettings> = {}, context?: CallContext): Promise<ChatResponse> {
    // What the model cannot take (a temperature for a reasoning model) is not sent, nor recorded, nor part of the key.
    let merged: GenerationSettings;
    let settingsJson: string | undefined;
    if (Object.keys(settings).length === 0) ({ settings: merged, json: settingsJson } = prepare(this.model, this.baseSettings));
    else merged = normalizeSettings(this.model.capabilities, { ...this.baseSettings, ...settings });
    const cacheable = this.env.useCache && !this.model.local;
    const key = cacheable ? this.#drawKey(requestKey(this.model, 'chat', settingsJson ?? canonicalJson(merged), messages)) : '';
    const hit = cacheable ? await this.env.store.getCachedEntry(key, this.model.provider, this.model.spec) : undefined;
    if (hit) {
      const response = hit.value as ChatResponse;
      // A reply this run's batch fetched is the run's own call, paid at the batch price; others are cache hits.
      const charge = this.env.batchCharge?.(key);
      if (charge)
        this.calls.push({ kind: 'chat', messages, settings: merged, response, cached: false, attempts: 1, costUsd: charge.costUsd });
      else {
        this.calls.push({ kind: 'chat', messages, settings: merged, response, cached: true, attempts: 0, costUsd: 0 });
        this.#countHit(hit.origin);
      }
      return response;
    }
    if (cacheable && this.env.onMiss) this.env.onMiss(key, { messages, settings: merged, timeoutMs: this.env.timeoutMs, context });
    const { value: received, attempts } = await this.#withRetries(async () =>
      this.#checkSize(
        await this.model.chat({
          messages,
          settings: merged,
          timeoutMs: this.env.timeoutMs,
          context,
          maxReplyBytes: this.env.maxReplyBytes,
        }),
      ),
    );
    // A reply that echoes a key of this process is kept (cache, transcript, record) without it.
    const response = scrubSecrets(received);
    if (cacheable) this.env.track(this.env.store.putCached(key, this.model.provider, this.model.spec, response, this.env.origin));
    const costUsd = callCost(this.env.price, response.usage);
    this.calls.push({ kind: 'chat', messages, settings: merged, response, cached: false, attempts, costUsd });
    return response;
  }

  /** A reply over the size cap fails (clients that fetch on their own are checked here, after decoding). */
  #checkSize(response: ChatResponse): ChatResponse {
    const max = this.env.maxReplyBytes;
    const bytes = replyTooLarge(response, max);
    if (bytes !== undefined && max !== undefined) throw oversizedError(this.model.spec, max, bytes);
    return response;
  }

  async #loglik(context: string, continuations: string[]): Promise<LoglikResult> {
    // A log-likelihood is computed, not sampled: one entry serves every trial that asks the same.
    const cacheable = this.env.useCache;
    const key = cacheable ? callCacheKey(this.model, 'loglik', {}, [context, ...continuations]) : '';
    const hit = cacheable ? await this.env.store.getCachedEntry(key, this.model.provider, this.model.spec) : undefined;
    const record = (r: LoglikResult, cached: boolean, attempts: number) =>
      this.calls.push({
        kind: 'loglik',
        settings: this.baseSettings,
        loglik: { context, continuations, ...r },
        cached,
        attempts,
        costUsd: 0,
      });
    if (hit) {
      record(hit.value as LoglikResult, true, 0);
      this.#countHit(hit.origin);
      return hit.value as LoglikResult;
    }
    const { value, attempts } = await this.#withRetries(() => this.model.loglik!(context, continuations));
    if (cacheable) this.env.track(this.env.store.putCached(key, this.model.provider, this.model.spec, value, this.env.origin));
    record(value, false, attempts);
    return value;
  }

  /** The key of this call's draw: the request's key, this caller's unit, and how many times the unit asked the same before. */
  #drawKey(request: string): string {
    const occurrence = this.#asked.get(request) ?? 0;
    this.#asked.set(request, occurrence + 1);
    return drawKey(request, { unit: this.env.draw ?? '', occurrence });
  }

  #countHit(origin: string | null): void {
    const from = origin ?? '';
    this.cacheHits.set(from, (this.cacheHits.get(from) ?? 0) + 1);
  }
}
