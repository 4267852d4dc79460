// The smallest done-trial outcome a store takes: no calls, a score of `value`, the protocol's detail as given.

import type { TrialOutcome } from '../../src/core/index.js';

export const minimalOutcome = (value = 1, detail: Record<string, unknown> = {}): TrialOutcome => ({
  transcript: { protocol: 'test', calls: [], detail },
  score: { scorer: 'mcq', value, detail: {} },
  usage: { inputTokens: 1, outputTokens: 1 },
  costUsd: 0,
  latencyMs: 0,
  cachedCalls: 0,
  totalCalls: 1,
});
