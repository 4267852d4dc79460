// Retries with jittered exponential backoff ("full jitter" on the upper half), which keeps many
// workers that failed together from retrying together. Transient errors (5xx, timeouts, resets,
// malformed bodies) get a bounded count; rate limits (429) are retried for as long as the wait
// budget allows instead, since a busy provider asks for time, not for fewer attempts.

import type { Rng } from '../core/index.js';

export interface RetryPolicy {
  /** Retries after the first attempt, for errors other than rate limits. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * How long one call may keep retrying rate limits (429s), counted from its first 429
   * (default DEFAULT_MAX_WAIT_MS). A Retry-After beyond what is left stops the subject at once.
   */
  maxWaitMs?: number;
}

/** The default wait budget for rate limits: ten minutes, longer than any per-minute quota takes to refill. */
export const DEFAULT_MAX_WAIT_MS = 600_000;

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 30_000, maxWaitMs: DEFAULT_MAX_WAIT_MS };

/** The longest backoff between two rate-limit retries when the server names no delay. */
export const MAX_RETRY_AFTER_MS = 300_000;

/** Delay before retry number `retry` (0-based). A server's Retry-After wins when it gives one (the wait budget decides whether it is waited on). */
export function backoffDelay(policy: RetryPolicy, retry: number, rng: Rng, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  // Rate limits may be retried many times: the exponent stops growing once the ceiling is reached.
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(retry, 30));
  return ceiling / 2 + rng.next() * (ceiling / 2);
}

/** Resolve after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
