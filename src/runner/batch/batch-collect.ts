// One collecting round of a batch run: every trial not yet done is played through its protocol
// against the call cache. A call the cache answers is replayed; the first call it cannot answer
// is taken for the next batch (its request body exactly as the synchronous call would send it,
// under its cache key) and the trial stops there for this round. A multi-turn trial thus needs
// one round per turn; a single-call trial one round. Trials whose batch call came back as an
// error, and subjects without a batch API, are left to the normal path (the final pass).

import { deriveSeed } from '../../core/index.js';
import type { BatchRequestRow, Store } from '../../store/index.js';
import { trialKeyString } from '../../store/index.js';
import type { CallerFactory } from '../callers.js';
import { runPool } from '../pool.js';
import type { PlannedTrial, RunSubject } from '../trial-executor.js';
import { trialDraw, trialKeyOf } from '../trial-executor.js';

/** Thrown from a cache miss to stop a trial for this round (not a MindscopeError: protocols let it through). */
class BatchDeferral extends Error {}

/** The calls a round takes, by subject model spec: cache key -> request body. */
type RoundRequests = Map<string, Map<string, unknown>>;

export interface CollectResult {
  requests: RoundRequests;
  /** Trials waiting on a call that is in a batch in flight (of this or another process). */
  waiting: number;
}

/** Play every pending trial against the cache and take the calls it misses. */
export async function collectRound(
  runId: string,
  trials: Iterable<PlannedTrial<RunSubject>>,
  ctx: { store: Store; callers: CallerFactory; replicates: number; seed: number; ledger: Map<string, BatchRequestRow> },
): Promise<CollectResult> {
  const done = await ctx.store.doneTrials(runId);
  const requests: RoundRequests = new Map();
  let waiting = 0;
  const visit = async (p: PlannedTrial<RunSubject>): Promise<void> => {
    if (done.has(trialKeyString(trialKeyOf(runId, p)))) return;
    const seed = deriveSeed(ctx.seed, p.replicate);
    const settings = ctx.replicates > 1 ? { ...p.subject.settings, seed } : p.subject.settings;
    const model = p.subject.model;
    const caller = ctx.callers.caller(model, p.subjectId, settings, {
      draw: trialDraw(p),
      origin: runId,
      onMiss: (key, request) => {
        const row = ctx.ledger.get(key);
        // In a batch in flight: wait for it. Errored (or fetched but uncached): the normal path takes the trial.
        if (row?.status === 'pending') waiting++;
        else if (!row) {
          let group = requests.get(model.spec);
          if (!group) requests.set(model.spec, (group = new Map()));
          if (!group.has(key)) group.set(key, model.wire!.encode(request));
        }
        throw new BatchDeferral();
      },
    });
    try {
      await p.task.execute(p.item, caller, { replicate: p.replicate, seed });
    } catch {
      // A deferral stops the trial for this round; any other error is the final pass's to record.
    }
  };
  async function* all(): AsyncGenerator<PlannedTrial<RunSubject>> {
    yield* trials;
  }
  await runPool(all(), 32, visit);
  return { requests, waiting };
}
