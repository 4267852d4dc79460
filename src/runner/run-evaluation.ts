// Plans the trials of a run and executes those not yet done, a bounded pool of workers pulling
// from a lazy plan, so memory stays flat however many trials there are. Re-running with the
// same run id continues: done trials are skipped, failed ones are tried again.

import type { GenerationSettings, Item, Task, TrialKey, TrialOutcome } from '../core/index.js';
import { ConfigError, canonicalJson, contentHash, deriveSeed, MindscopeError, sha256, validateRecord } from '../core/index.js';
import type { ChatModel } from '../models/index.js';
import { ModelCallError } from '../models/index.js';
import type { Store, UsageRow } from '../store/index.js';
import { CallerFactory, type CallerOptions } from './callers.js';
import { CostBudget } from './cost-budget.js';
import { runPool } from './pool.js';

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
  | { type: 'subject-aborted'; spec: string; error: string };

/** A subject of a run: a model and the generation settings it runs with. */
export interface RunSubject {
  model: ChatModel;
  settings: GenerationSettings;
}

export interface RunOptions {
  runId: string;
  /** What defines the run's results (the run specification's identity), stored with it and compared on resumption. */
  config: Record<string, unknown>;
  tasks: Task[];
  subjects: RunSubject[];
  replicates: number;
  seed: number;
  /** How calls are made: store, concurrency per endpoint, time limit, retries, prices, cache. */
  calls: CallerOptions;
  /** Stop starting trials before the run's cost (this and earlier invocations) would pass this many US dollars. */
  maxCostUsd?: number;
  onEvent?: (e: RunEvent) => void;
}

export interface RunSummary {
  runId: string;
  planned: number;
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
  return sha256(JSON.stringify(item));
}

/** What the calls cost, counting those whose price is known. */
function knownCost(calls: readonly { costUsd: number | null }[]): number {
  let n = 0;
  for (const c of calls) n += c.costUsd ?? 0;
  return n;
}

/** Start a run, or check that a resumed run asks for the same thing. */
function openRun(store: Store, runId: string, config: Record<string, unknown>): void {
  const existing = store.getRun(runId);
  if (!existing) {
    store.createRun({ id: runId, createdAt: new Date().toISOString(), config });
    return;
  }
  const keys = new Set([...Object.keys(existing.config), ...Object.keys(config)]);
  const differing = [...keys].filter((k) => canonicalJson(existing.config[k]) !== canonicalJson(config[k]));
  if (differing.length) {
    throw new ConfigError(
      `run ${runId} exists with a different configuration (${differing.join(', ')}); use another --run-id to start a new run`,
    );
  }
}

interface PlannedTrial {
  task: Task;
  item: Item;
  hash: string;
  subject: RunSubject;
  subjectId: string;
  replicate: number;
}

/** Plan a run and execute the trials not yet done; the same options resume the same run. */
export async function runEvaluation(opts: RunOptions): Promise<RunSummary> {
  const started = performance.now();
  const { runId, replicates } = opts;
  const store = opts.calls.store;
  if (!(replicates >= 1)) throw new ConfigError(`--trials must be at least 1, got ${replicates}`);
  const emit = opts.onEvent ?? (() => {});
  openRun(store, runId, opts.config);

  const subjectIds = new Map<RunSubject, string>();
  for (const subject of opts.subjects) {
    const id = subjectIdFor(subject.model.spec, subject.settings);
    subjectIds.set(subject, id);
    store.upsertSubject({ id, spec: subject.model.spec, settings: { ...subject.settings } });
  }
  const hashes = new Map<Item, string>();
  for (const task of opts.tasks) {
    const batch = task.items.map((item) => ({ hash: itemHash(item), item }));
    batch.forEach(({ hash, item }) => hashes.set(item, hash));
    store.putItems(batch);
  }
  store.setPlan(
    runId,
    opts.subjects.flatMap((s) =>
      opts.tasks.map((t) => ({ subjectId: subjectIds.get(s)!, suite: t.suite, planned: t.items.length * replicates })),
    ),
  );

  const callers = new CallerFactory({
    ...opts.calls,
    seed: opts.seed,
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
  const prior = store.usage(runId);
  const spentBefore = prior.reduce((n, u) => n + (u.costUsd ?? 0), 0);
  const budget =
    opts.maxCostUsd === undefined
      ? undefined
      : new CostBudget(opts.maxCostUsd, spentBefore, new Map(prior.map((u) => [u.subjectId, (u.costUsd ?? 0) / Math.max(1, u.trials)])));
  const aborted = new Map<RunSubject, string>();
  const replicateSeeds = Array.from({ length: replicates }, (_, r) => deriveSeed(opts.seed, r));
  let planned = 0;
  let skipped = 0;
  let done = 0;
  let failed = 0;
  let truncated = 0;
  let costUsd = 0;
  let costLimitHit = false;

  const freshRun = store.trialCount(runId) === 0;
  // Items outermost and subjects innermost, so that every endpoint has work at all times.
  function* plan(): Generator<PlannedTrial> {
    for (const task of opts.tasks) {
      for (const item of task.items) {
        for (let replicate = 0; replicate < replicates; replicate++) {
          for (const subject of opts.subjects) {
            if (budget?.stopped) return;
            planned++;
            const subjectId = subjectIds.get(subject)!;
            if (aborted.has(subject)) continue;
            // A run with nothing stored yet has no finished trial to skip: no lookup needed.
            const status = freshRun ? undefined : store.trialStatus({ runId, subjectId, suite: task.suite, itemId: item.id, replicate });
            if (status === 'done') {
              skipped++;
              emit({ type: 'skipped' });
              continue;
            }
            yield { task, item, hash: hashes.get(item)!, subject, subjectId, replicate };
          }
        }
      }
    }
  }

  emit({
    type: 'start',
    runId,
    planned: opts.subjects.length * opts.tasks.reduce((n, t) => n + t.items.length, 0) * replicates,
    spentUsd: spentBefore,
  });

  const execute = async (p: PlannedTrial): Promise<void> => {
    const ticket = budget ? await budget.admit(p.subjectId) : undefined;
    if (budget && !ticket) {
      if (!costLimitHit) {
        costLimitHit = true;
        emit({ type: 'cost-limit', committedUsd: budget.committedUsd, maxCostUsd: budget.maxUsd });
      }
      return;
    }
    const key: TrialKey = { runId, subjectId: p.subjectId, suite: p.task.suite, itemId: p.item.id, replicate: p.replicate };
    const seed = replicateSeeds[p.replicate]!;
    const settings = replicates > 1 ? { ...p.subject.settings, seed } : p.subject.settings;
    const model = callers.caller(p.subject.model, p.subjectId, settings);
    let finished = false;
    try {
      const result = await p.task.execute(p.item, model, { replicate: p.replicate, seed });
      // A record that does not match its protocol's schema is a bug in the protocol: stop loudly.
      validateRecord(p.task.records, result.detail, result.score.detail, `trial ${p.task.suite}/${p.item.id}`);
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
        latencyMs: calls.reduce((n, c) => n + (c.cached ? 0 : (c.response?.latencyMs ?? 0)), 0),
        cachedCalls: calls.filter((c) => c.cached).length,
        totalCalls: calls.length,
        truncatedCalls,
        unpricedCalls,
      };
      store.recordDone(key, p.hash, outcome, Math.max(1, ...calls.map((c) => c.attempts)));
      done++;
      finished = true;
      if (truncatedCalls) {
        truncated++;
        emit({ type: 'truncated', spec: p.subject.model.spec, key, calls: truncatedCalls, maxTokens: settings.maxTokens });
      }
      emit({ type: 'done', key, value: result.score.value, costUsd: unpricedCalls ? null : outcome.costUsd });
    } catch (err) {
      if (!(err instanceof MindscopeError)) throw err;
      // A rejected key, an unknown model or an unreachable server fails every call alike:
      // stop the subject instead of failing its trials one by one.
      if (err instanceof ModelCallError && (err.fatal || err.kind === 'network')) {
        if (!aborted.has(p.subject)) {
          aborted.set(p.subject, err.message);
          emit({ type: 'subject-aborted', spec: p.subject.model.spec, error: err.message });
        }
        return;
      }
      store.recordFailed(key, p.hash, err.message, model.calls.length + 1);
      failed++;
      emit({ type: 'failed', key, error: err.message });
    } finally {
      // Failed trials' calls were paid for too.
      const spent = knownCost(model.calls);
      costUsd += spent;
      if (budget && ticket) {
        budget.settle(p.subjectId, ticket, spent, finished);
        if (budget.stopped && !costLimitHit) {
          costLimitHit = true;
          emit({ type: 'cost-limit', committedUsd: budget.committedUsd, maxCostUsd: budget.maxUsd });
        }
      }
    }
  };

  const endpoints = new Set(opts.subjects.map((s) => s.model.endpoint)).size;
  const workers = Math.max(1, Math.min(4096, (opts.calls.concurrency ?? 8) * Math.max(1, endpoints)));
  await runPool(plan(), workers, execute);
  for (const s of opts.subjects) await s.model.close?.();

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
    usage: store.usage(runId),
    elapsedMs: performance.now() - started,
  };
}
