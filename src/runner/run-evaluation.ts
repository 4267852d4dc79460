// Plans the trials of a run and executes those not yet done, a bounded pool of workers pulling
// from a lazy plan, so memory stays flat however many trials there are. Re-running with the
// same run id continues: done trials are skipped, failed ones are tried again.
//
// Several processes may run the same run on the same store at once: each trial is leased in
// the store before it runs (lease-keeper.ts), so a second process helps instead of repeating
// calls. Trials another process holds are waited for at the end: done by it, or taken over
// when its lease expires (it was killed). Results are committed in groups while the pool goes
// on; their promises are collected and awaited before the run returns.

import type { Item, Task, TrialKey } from '../core/index.js';
import { ConfigError, canonicalJson, contentHash, deriveSeed, sha256 } from '../core/index.js';
import type { GenerationSettings } from '../core/index.js';
import type { Store, UsageRow } from '../store/index.js';
import { assertStorableIds } from './storable-ids.js';
import { CallerFactory, type CallerOptions, DEFAULT_CONCURRENCY } from './callers.js';
import { CallTally, type CallCounts } from './call-tally.js';
import { CostBudget } from './cost-budget.js';
import { DEFAULT_LEASE_MS, LeaseKeeper } from './lease-keeper.js';
import { PendingWrites } from './pending-writes.js';
import { runPool } from './pool.js';
import { sleep } from './retry-policy.js';
import { executeTrial, trialKeyOf, type PlannedTrial, type PlanSubject, type RunSubject } from './trial-executor.js';

export type { PlannedTrial, PlanSubject, RunSubject } from './trial-executor.js';

export type RunEvent =
  | { type: 'start'; runId: string; planned: number; spentUsd: number }
  | { type: 'skipped' }
  /** `costUsd`: what the trial's calls cost; null when a call's price is unknown. */
  | { type: 'done'; key: TrialKey; value: number; costUsd: number | null }
  /** A reply of the trial was cut off by the output-token limit: its answer may be missing or wrong. */
  | { type: 'truncated'; spec: string; key: TrialKey; calls: number; maxTokens: number }
  | { type: 'warning'; message: string }
  /** --max-cost: no further trial is started; what is done stays done, and the run resumes like any other. */
  | { type: 'cost-limit'; committedUsd: number; maxCostUsd: number }
  | { type: 'failed'; key: TrialKey; error: string }
  | { type: 'retry'; spec: string; error: string; retry: number; delayMs: number }
  | { type: 'retry-end' }
  | { type: 'subject-aborted'; spec: string; error: string }
  /** --batch: a provider batch was submitted, is running, ended or failed; `finished` of its `total` calls are done (0 of 0: the API does not say). */
  | {
      type: 'batch';
      spec: string;
      batchId: string;
      round: number;
      state: 'submitted' | 'running' | 'ended' | 'failed';
      total: number;
      finished: number;
      error?: string;
    };

/** Operational settings of a run's calls, plus how long a trial's lease lasts without a heartbeat. */
export interface RunCallOptions extends CallerOptions {
  /** Lease length in milliseconds (default 60,000): a killed process's trials are taken over after it. */
  leaseMs?: number;
}

export interface RunOptions {
  runId: string;
  /** What defines the run's results (the run specification's identity), stored with it and compared on resumption. */
  config: Record<string, unknown>;
  /** The run specification itself, stored so that workers can rebuild the run's tasks. */
  spec?: Record<string, unknown>;
  /** A name for people, stored with the run (replacing an earlier one); not part of its identity. */
  name?: string;
  tasks: Task[];
  subjects: RunSubject[];
  replicates: number;
  seed: number;
  /** How calls are made: store, concurrency per endpoint, time limit, retries, prices, cache, leases. */
  calls: RunCallOptions;
  /** Stop starting trials before the run's cost (this and earlier invocations) would pass this many US dollars. */
  maxCostUsd?: number;
  /** Leave the models open at the end (a caller running a run in several calls, e.g. adaptive waves, closes them). */
  keepModelsOpen?: boolean;
  /**
   * Stop starting trials once it fires (Ctrl-C): the trials in flight finish and are stored,
   * so no call is lost and paid for again; the same options continue the run.
   */
  signal?: AbortSignal;
  onEvent?: (e: RunEvent) => void;
}

export interface RunSummary {
  runId: string;
  planned: number;
  /** Trials done already, or done meanwhile by another process on the same run. */
  skipped: number;
  done: number;
  failed: number;
  /** Subjects stopped by an error that every call would hit (rejected key, unknown model, unreachable server). */
  aborted: Array<{ spec: string; error: string }>;
  /** Trials of this invocation with a reply cut off by the output-token limit. */
  truncated: number;
  /** Subjects whose price is unknown: their cost is unknown (null), never $0. */
  unpriced: Array<{ spec: string; note?: string }>;
  /** What this invocation's calls cost, in US dollars, counting the calls whose price is known. */
  costUsd: number;
  /** Set when --max-cost stopped the run before every trial was started. */
  costLimit?: { maxCostUsd: number; spentUsd: number };
  /** Set when the run's signal stopped it with planned trials left unstarted (a signal after the last one started: not set). */
  interrupted?: true;
  /** This invocation's model calls: `made` in all, `cached` of them answered from the call cache, by where the replies came from. */
  calls: CallCounts;
  usage: UsageRow[];
  elapsedMs: number;
}

/** The opaque id judges and exports may show instead of a subject's name. */
export function subjectIdFor(spec: string, settings: GenerationSettings): string {
  const { seed: _seed, ...rest } = settings;
  return `s-${contentHash({ spec, settings: rest }).slice(0, 12)}`;
}

/**
 * The content hash of an item. Loaders build items with a fixed key order, so plain JSON is
 * canonical here and several times faster than canonicalJson on thousands of items.
 */
export function itemHash(item: Item): string {
  return hashedItem(item).hash;
}

/** An item's hash and the JSON text it was made from (the text is what the store keeps). */
function hashedItem(item: Item): { hash: string; item: Item; json: string } {
  const json = JSON.stringify(item);
  return { hash: sha256(json), item, json };
}

/**
 * Refuse a run id the store holds with a different configuration. Callers that change a stored
 * run before starting it (discarding the trials of edited items) check first, so that a refused
 * command leaves the store as it was.
 */
export async function assertRunConfig(store: Store, runId: string, config: Record<string, unknown>): Promise<void> {
  const existing = await store.getRun(runId);
  if (!existing) return;
  const keys = new Set([...Object.keys(existing.config), ...Object.keys(config)]);
  const differing = [...keys].filter((k) => canonicalJson(existing.config[k]) !== canonicalJson(config[k]));
  if (differing.length) {
    throw new ConfigError(
      `run ${runId} exists with a different configuration (${differing.join(', ')}); use another --run-id to start a new run`,
    );
  }
}

/** Start a run, or check that a resumed run asks for the same thing. */
async function openRun(
  store: Store,
  runId: string,
  config: Record<string, unknown>,
  spec?: Record<string, unknown>,
  name?: string,
): Promise<void> {
  await store.createRun({ id: runId, createdAt: new Date().toISOString(), config, ...(spec ? { spec } : {}), ...(name ? { name } : {}) });
  await assertRunConfig(store, runId, config);
}

/** A run written to the store: its record, subjects, items and plan; what the plan iterates over. */
export interface PreparedRun<S extends PlanSubject = RunSubject> {
  runId: string;
  tasks: Task[];
  subjects: S[];
  replicates: number;
  subjectIds: Map<S, string>;
  hashes: Map<Item, string>;
  /**
   * Resolves once the items are stored. Trials may run before (the store commits their results
   * after the items); prepareRun waits for it unless asked not to (itemsInBackground).
   */
  itemsStored: Promise<void>;
}

/** Create (or check) the run and store its subjects, items and plan. */
export async function prepareRun<S extends PlanSubject>(
  store: Store,
  opts: Pick<RunOptions, 'runId' | 'config' | 'spec' | 'name' | 'tasks' | 'replicates'> & { subjects: S[]; itemsInBackground?: boolean },
): Promise<PreparedRun<S>> {
  const { runId, replicates } = opts;
  if (!(replicates >= 1)) throw new ConfigError(`--trials must be at least 1, got ${replicates}`);
  const subjectIds = new Map<S, string>();
  for (const subject of opts.subjects) subjectIds.set(subject, subjectIdFor(subject.model.spec, subject.settings));
  assertStorableIds(runId, [...subjectIds.values()], opts.tasks);
  await openRun(store, runId, opts.config, opts.spec, opts.name);
  for (const subject of opts.subjects) {
    await store.upsertSubject({ id: subjectIds.get(subject)!, spec: subject.model.spec, settings: { ...subject.settings } });
  }
  const hashes = new Map<Item, string>();
  const items = opts.tasks.flatMap((task) => task.items.map(hashedItem));
  for (const { hash, item } of items) hashes.set(item, hash);
  const itemsStored = store.putItems(items);
  // Settled here too: a caller that stops before waiting for it leaves no unhandled rejection.
  itemsStored.catch(() => {});
  if (!opts.itemsInBackground) await itemsStored;
  await store.setPlan(
    runId,
    opts.subjects.flatMap((s) =>
      opts.tasks.map((t) => ({ subjectId: subjectIds.get(s)!, suite: t.suite, planned: t.items.length * replicates })),
    ),
  );
  return { runId, tasks: opts.tasks, subjects: opts.subjects, replicates, subjectIds, hashes, itemsStored };
}

/** Every trial of a prepared run. Items outermost and subjects innermost, so that every endpoint has work at all times. */
export function* plannedTrials<S extends PlanSubject>(run: PreparedRun<S>): Generator<PlannedTrial<S>> {
  for (const task of run.tasks) {
    for (const item of task.items) {
      for (let replicate = 0; replicate < run.replicates; replicate++) {
        for (const subject of run.subjects) {
          yield { task, item, hash: run.hashes.get(item)!, subject, subjectId: run.subjectIds.get(subject)!, replicate };
        }
      }
    }
  }
}

/** Plan a run and execute the trials not yet done; the same options resume the same run. */
export async function runEvaluation(opts: RunOptions): Promise<RunSummary> {
  const started = performance.now();
  const { runId, replicates } = opts;
  const store = opts.calls.store;
  const emit = opts.onEvent ?? (() => {});
  // What a resumed run has spent already, read before its items are handed to the store (a read
  // after would wait for them).
  const prior = await store.usage(runId);
  // Items are stored (encoded a chunk at a time between trials) while the first trials run. If they cannot
  // be, no further trial starts and the run fails with their error (trials already started fail
  // to commit; their calls stay cached).
  const run = await prepareRun(store, { ...opts, itemsInBackground: true });
  let itemsError: unknown;
  run.itemsStored.catch((err: unknown) => {
    itemsError = err;
  });

  const callers = new CallerFactory({
    ...opts.calls,
    seed: opts.seed,
    shareRateLimits: opts.calls.shareRateLimits ?? true,
    onRetry: (spec, err, retry, delayMs) => {
      opts.calls.onRetry?.(spec, err, retry, delayMs);
      emit({ type: 'retry', spec, error: err.message, retry, delayMs });
    },
  });
  const unpriced: RunSummary['unpriced'] = [];
  for (const s of opts.subjects) {
    const { price, note } = callers.priceOf(s.model);
    if (!price && !unpriced.some((u) => u.spec === s.model.spec)) unpriced.push({ spec: s.model.spec, ...(note ? { note } : {}) });
  }
  if (unpriced.length) {
    const names = unpriced.map((u) => (u.note ? `${u.spec} (${u.note})` : u.spec)).join(', ');
    if (opts.maxCostUsd !== undefined)
      throw new ConfigError(`--max-cost needs a price for every model; none is known for ${names}: give them in a --prices file`);
    emit({ type: 'warning', message: `no price is known for ${names}: their cost is shown as unknown; give prices with --prices FILE` });
  }
  const spentBefore = prior.reduce((n, u) => n + (u.costUsd ?? 0), 0);
  const budget =
    opts.maxCostUsd === undefined
      ? undefined
      : new CostBudget(opts.maxCostUsd, spentBefore, new Map(prior.map((u) => [u.subjectId, (u.costUsd ?? 0) / Math.max(1, u.trials)])));
  const leases = new LeaseKeeper(store, opts.calls.leaseMs ?? DEFAULT_LEASE_MS);
  const writes = new PendingWrites();
  const aborted = new Map<RunSubject, string>();
  const replicateSeeds = Array.from({ length: replicates }, (_, r) => deriveSeed(opts.seed, r));
  const ctx = { runId, replicates, replicateSeeds, callers };
  const endpoints = new Set(opts.subjects.map((s) => s.model.endpoint)).size;
  const workers = Math.max(1, Math.min(4096, (opts.calls.concurrency ?? DEFAULT_CONCURRENCY) * Math.max(1, endpoints)));
  let planned = 0;
  let skipped = 0;
  let done = 0;
  let failed = 0;
  let truncated = 0;
  let costUsd = 0;
  const calls = new CallTally();
  let costLimitHit = false;
  /** Planned trials the signal left unstarted (the run is then interrupted, not complete). */
  let leftBySignal = 0;
  const costLimit = () => {
    if (!budget || costLimitHit) return;
    costLimitHit = true;
    emit({ type: 'cost-limit', committedUsd: budget.committedUsd, maxCostUsd: budget.maxUsd });
  };

  /** Lease a batch: yield the trials claimed, count the done ones, keep the held ones for later. */
  async function* claim(batch: PlannedTrial[], held: PlannedTrial[]): AsyncGenerator<PlannedTrial> {
    if (batch.length === 0) return;
    const results = await leases.claim(batch.map((p) => trialKeyOf(runId, p)));
    for (let i = 0; i < batch.length; i++) {
      const p = batch[i]!;
      if (results[i] === 'done') {
        skipped++;
        emit({ type: 'skipped' });
      } else if (results[i] === 'held') held.push(p);
      else if (!aborted.has(p.subject)) yield p;
    }
  }

  // Leased a batch at a time, a little ahead of the pool; the heartbeat keeps the leases.
  const claimBatch = Math.max(16, Math.min(512, workers));
  async function* plan(): AsyncGenerator<PlannedTrial> {
    const held: PlannedTrial[] = [];
    let batch: PlannedTrial[] = [];
    for (const p of plannedTrials(run)) {
      if (budget?.stopped) break;
      planned++;
      // After the signal the rest of the plan is counted (the summary's `planned` stays the
      // whole plan), not claimed or started.
      if (opts.signal?.aborted) {
        leftBySignal++;
        continue;
      }
      if (aborted.has(p.subject)) continue;
      batch.push(p);
      if (batch.length >= claimBatch) {
        yield* claim(batch, held);
        batch = [];
      }
    }
    yield* claim(batch, held);
    // Trials another process is running: wait until it records them, or its leases lapse.
    while (held.length) {
      if (opts.signal?.aborted) {
        leftBySignal += held.length;
        break;
      }
      await sleep(Math.min(1000, leases.ttlMs / 2));
      // A process of this machine that died holding trials: its replies come back from its journal first.
      await leases.reapDeadLocal(runId);
      await store.recoverReplies();
      const again = held.splice(0).filter((p) => !aborted.has(p.subject));
      for (let i = 0; i < again.length; i += claimBatch) yield* claim(again.slice(i, i + claimBatch), held);
    }
  }

  const totalPlanned = opts.subjects.length * opts.tasks.reduce((n, t) => n + t.items.length, 0) * replicates;
  emit({ type: 'start', runId, planned: totalPlanned, spentUsd: spentBefore });

  const execute = async (p: PlannedTrial): Promise<void> => {
    // A result that could not be stored stops the run: its error is the run's.
    if (itemsError) throw itemsError;
    if (writes.error) throw writes.error;
    if (aborted.has(p.subject)) return;
    // Claimed ahead but not started when the signal fired: left for the next invocation.
    if (opts.signal?.aborted) {
      leftBySignal++;
      return;
    }
    const ticket = budget ? await budget.admit(p.subjectId) : undefined;
    if (budget && !ticket) return costLimit();
    const r = await executeTrial(p, ctx);
    // Failed trials' calls were paid for too.
    costUsd += r.spentUsd;
    calls.add(r.calls.made, r.calls.cacheHits);
    if (budget && ticket) {
      budget.settle(p.subjectId, ticket, r.spentUsd, r.kind === 'done');
      if (budget.stopped) costLimit();
    }
    if (r.kind === 'aborted') {
      // A rejected key, an unknown model or an unreachable server fails every call alike:
      // stop the subject instead of failing its trials one by one.
      if (!aborted.has(p.subject)) {
        aborted.set(p.subject, r.error);
        emit({ type: 'subject-aborted', spec: p.subject.model.spec, error: r.error });
      }
      return;
    }
    writes.track(r.committed);
    if (r.kind === 'done') {
      done++;
      if (r.truncatedCalls) {
        truncated++;
        emit({ type: 'truncated', spec: p.subject.model.spec, key: r.key, calls: r.truncatedCalls, maxTokens: r.settings.maxTokens });
      }
      emit({ type: 'done', key: r.key, value: r.value, costUsd: r.costUsd });
    } else {
      failed++;
      emit({ type: 'failed', key: r.key, error: r.error });
    }
  };

  await callers.start();
  leases.start();
  // Leases of a killed run on this machine (a rerun after a crash) are taken over at once.
  await leases.reapDeadLocal(runId);
  try {
    // Items that could not be stored are the cause of the trials that could not be.
    await runPool(plan(), workers, execute).catch((err: unknown) => {
      throw itemsError ?? err;
    });
    await run.itemsStored;
    await writes.settle();
    await callers.settle();
    await store.flush();
  } finally {
    await callers.settle().catch(() => {});
    await leases.stop().catch(() => {});
    if (!opts.keepModelsOpen) for (const s of opts.subjects) await s.model.close?.();
  }

  const usage = await store.usage(runId);
  // The signal may come after the last trial started, or when the rest were done already (the
  // plan stops before it has read which): interrupted only if this invocation's trials are not all done.
  const ids = new Set(run.subjectIds.values());
  const doneNow = usage.reduce((n, u) => n + (ids.has(u.subjectId) ? u.trials : 0), 0);
  const interrupted = leftBySignal > 0 && doneNow < totalPlanned;
  return {
    runId,
    planned,
    skipped,
    done,
    failed,
    aborted: [...aborted.entries()].map(([s, error]) => ({ spec: s.model.spec, error })),
    truncated,
    unpriced,
    costUsd,
    ...(budget?.stopped ? { costLimit: { maxCostUsd: budget.maxUsd, spentUsd: budget.spentUsd } } : {}),
    ...(interrupted ? { interrupted: true as const } : {}),
    calls: calls.counts(),
    usage,
    elapsedMs: performance.now() - started,
  };
}
