// Rate limits shared by the processes on one store: a 429 on an endpoint starts a pause (an
// "episode", counted by generation) that every process reads, so that all of them slow down.

import type { RateLimitState } from '../store.js';
import type { SqlDriver } from './driver.js';

/** Record a 429 on `endpoint` asking for `pauseMs`; returns the endpoint's state after it. */
export async function reportEndpointRateLimit(db: SqlDriver, endpoint: string, pauseMs: number): Promise<RateLimitState> {
  const { nowMs, greatest } = db.dialect;
  // A new episode only when the endpoint is not paused already: a burst of 429s seen by many
  // processes at once halves every limit once, not once per process.
  const row = await db.transaction((tx) =>
    tx.get<RateLimitState>(
      `INSERT INTO rate_limits (endpoint, generation, paused_until) VALUES (?, 1, ${nowMs} + ?)
       ON CONFLICT (endpoint) DO UPDATE SET
         generation = rate_limits.generation + CASE WHEN rate_limits.paused_until < ${nowMs} THEN 1 ELSE 0 END,
         paused_until = ${greatest('rate_limits.paused_until', 'excluded.paused_until')}
       RETURNING endpoint, generation, ${greatest('0', `paused_until - ${nowMs}`)} AS "pausedForMs"`,
      [endpoint, Math.round(pauseMs)],
    ),
  );
  return row!;
}

/** Every endpoint's rate-limit state: its episode count and how long it is still paused. */
export function endpointRateLimits(db: SqlDriver): Promise<RateLimitState[]> {
  const { nowMs, greatest } = db.dialect;
  return db.all<RateLimitState>(
    `SELECT endpoint, generation, ${greatest('0', `paused_until - ${nowMs}`)} AS "pausedForMs" FROM rate_limits`,
  );
}
