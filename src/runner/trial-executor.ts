// One trial, from its planned form to a stored result: the protocol runs the item against a
// recording caller, the record is checked against the protocol's schema, and the trial is
// recorded done (with its transcript and score) or failed. Shared by the in-process runner and
// the queue workers. The store commits in groups: the returned promise `committed` resolves
// once the result is durable; the runner collects it, a worker waits for it before it
// acknowledges the job.

import type { GenerationSettings, Item, Task, TrialKey, TrialOutcome } from '../core/index.js';
import { MindscopeError, validateRecord } from '../core/index.js';
import type { ChatModel } from '../models/index.js';
import { ModelCallError } from '../models/index.js';
import type { CallerFactory } from './callers.js';

/** A subject of a run: a model and the generation settings it runs with. */
export interface RunSubject {
  model: ChatModel;
  settings: GenerationSettings;
}

/** What planning needs of a subject: its spec and settings (enqueueing plans without building models). */
export interface PlanSubject {
  model: Pick<ChatModel, 'spec'>;
  settings: GenerationSettings;
}

export interface PlannedTrial<S extends PlanSubject = RunSubject> {
  task: Task;
  item: Item;
  /** The item's content hash (the stored item). */
  hash: string;
  subject: S;
  subjectId: string;
  replicate: number;
}

export interface TrialRunContext {
  runId: string;
  replicates: number;
  /** Seed of each replicate. */
  replicateSeeds: readonly number[];
  callers: CallerFactory;
}

/**
 * `spentUsd`: what the trial's calls cost, counting those whose price is known (failed trials'
 * calls were paid for too); `calls`: how many it made, and how many of them the cache answered,
 * by the origin stored with the reply ('' when unknown).
 */
export type TrialResult = {
  key: TrialKey;
  spentUsd: number;
  settings: GenerationSettings;
  calls: { made: number; cacheHits: ReadonlyMap<string, number> };
} & (
  | {
      kind: 'done';
      value: number;
      /** What the trial cost; null when a call's price is unknown. */
      costUsd: number | null;
      /** Calls whose reply was cut off by the output-token limit. */
      truncatedCalls: number;
      committed: Promise<void>;
    }
  | { kind: 'failed'; error: string; committed: Promise<void> }
  /** An error every call of the subject would hit (rejected key, unknown model, unreachable server): nothing is recorded. */
  | { kind: 'aborted'; error: string }
);

/** What the calls cost, counting those whose price is known. */
function knownCost(calls: readonly { costUsd: number | null }[]): number {
  let n = 0;
  for (const c of calls) n += c.costUsd ?? 0;
  return n;
}

/** The unit of work a trial's calls are draws of (see CallDraw): its suite, item and replicate, not its run. */
export function trialDraw(p: PlannedTrial<PlanSubject>): string {
  return `${p.task.suite}\u0000${p.item.id}\u0000${p.replicate}`;
}

/** The key of a planned trial in a run. */
export function trialKeyOf(runId: string, p: PlannedTrial<PlanSubject>): TrialKey {
  return { runId, subjectId: p.subjectId, suite: p.task.suite, itemId: p.item.id, replicate: p.replicate };
}

/** Run one trial and hand its result to the store; errors other than mindscope's own (bugs) are thrown. */
export async function executeTrial(p: PlannedTrial, ctx: TrialRunContext): Promise<TrialResult> {
  const key = trialKeyOf(ctx.runId, p);
  const store = ctx.callers.options.store;
  const seed = ctx.replicateSeeds[p.replicate]!;
  const settings = ctx.replicates > 1 ? { ...p.subject.settings, seed } : p.subject.settings;
  const model = ctx.callers.caller(p.subject.model, p.subjectId, settings, { draw: trialDraw(p), origin: ctx.runId });
  try {
    const result = await p.task.execute(p.item, model, { replicate: p.replicate, seed });
    // A record that does not match its protocol's schema is a bug in the protocol: stop loudly.
    validateRecord(p.task.records, result.detail, result.score.detail, `trial ${p.task.suite}/${p.item.id}`);
    if (typeof result.score.value !== 'number' || !Number.isFinite(result.score.value)) {
      throw new MindscopeError(`trial ${p.task.suite}/${p.item.id}: score ${String(result.score.value)} is not a finite number`);
    }
    const calls = model.calls;
    const truncatedCalls = calls.filter((c) => c.response?.truncated).length;
    const unpricedCalls = calls.filter((c) => c.costUsd === null).length;
    const outcome: TrialOutcome = {
      transcript: { protocol: p.task.records.protocol, calls, detail: result.detail },
      score: result.score,
      usage: {
        inputTokens: calls.reduce((n, c) => n + (c.cached ? 0 : (c.response?.usage.inputTokens ?? 0)), 0),
        outputTokens: calls.reduce((n, c) => n + (c.cached ? 0 : (c.response?.usage.outputTokens ?? 0)), 0),
      },
      costUsd: knownCost(calls),
      // A batch call's wait (hours, possibly) is kept apart from interactive latency.
      latencyMs: calls.reduce((n, c) => n + (c.cached || c.response?.batch ? 0 : (c.response?.latencyMs ?? 0)), 0),
      batchLatencyMs: calls.reduce((n, c) => n + (!c.cached && c.response?.batch ? c.response.latencyMs : 0), 0),
      cachedCalls: calls.filter((c) => c.cached).length,
      totalCalls: calls.length,
      truncatedCalls,
      unpricedCalls,
    };
    const committed = store.recordDone(key, p.hash, outcome, Math.max(1, ...calls.map((c) => c.attempts)));
    return {
      kind: 'done',
      key,
      settings,
      calls: { made: calls.length, cacheHits: model.cacheHits },
      value: result.score.value,
      spentUsd: outcome.costUsd,
      costUsd: unpricedCalls ? null : outcome.costUsd,
      truncatedCalls,
      committed,
    };
  } catch (err) {
    if (!(err instanceof MindscopeError)) throw err;
    const spentUsd = knownCost(model.calls);
    const calls = { made: model.calls.length, cacheHits: model.cacheHits };
    if (err instanceof ModelCallError && (err.fatal || err.kind === 'network'))
      return { kind: 'aborted', key, settings, calls, spentUsd, error: err.message };
    // The attempts of the call that failed (as recordDone counts the most any call took), not 1.
    const attempts = Math.max(1, err instanceof ModelCallError ? (err.attempts ?? 1) : 1, ...model.calls.map((c) => c.attempts));
    const committed = store.recordFailed(key, p.hash, err.message, attempts);
    return { kind: 'failed', key, settings, calls, spentUsd, error: err.message, committed };
  }
}
