// What a store refuses in a trial before writing it, rather than keep it changed: an id with a
// lone UTF-16 surrogate (it would read back as another id: core/storable-text.ts), and a latency
// the store cannot give back exactly (trial-values.ts).

import type { TrialKey } from '../../core/index.js';
import { unstorableId } from '../../core/storable-text.js';
import { unstorableLatency } from './trial-values.js';

/** Why a trial's key, or a scorer of it, cannot be stored; undefined where they can. */
export function unstorableKey(
  k: Pick<TrialKey, 'runId' | 'subjectId' | 'suite' | 'itemId'>,
  scorers: readonly string[] = [],
): string | undefined {
  return (
    unstorableId('run id', k.runId) ??
    unstorableId('subject id', k.subjectId) ??
    unstorableId('suite', k.suite) ??
    unstorableId('item id', k.itemId) ??
    scorers.map((s) => unstorableId('scorer', s)).find((why) => why !== undefined)
  );
}

/** Why a trial (its key, scorers and latencies) cannot be stored; undefined where it can. */
export function unstorableTrial(
  k: Pick<TrialKey, 'runId' | 'subjectId' | 'suite' | 'itemId'>,
  scorers: readonly string[],
  latencyMs: number,
  batchLatencyMs: number | undefined,
): string | undefined {
  return (
    unstorableKey(k, scorers) ??
    unstorableLatency('latency', latencyMs) ??
    (batchLatencyMs === undefined ? undefined : unstorableLatency('batch latency', batchLatencyMs))
  );
}
