// Bounded retries with jittered exponential backoff ("full jitter" on the upper half), which
// keeps many workers that failed together from retrying together.

import type { Rng } from '../core/index.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

/** The longest Retry-After honoured as given; a server asking for more is waited on for this long. */
export const MAX_RETRY_AFTER_MS = 300_000;

/** Delay before retry number `retry` (0-based). A server's Retry-After wins when it gives one. */
export function backoffDelay(policy: RetryPolicy, retry: number, rng: Rng, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return ceiling / 2 + rng.next() * (ceiling / 2);
}

/** Resolve after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
