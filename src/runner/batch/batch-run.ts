// `mindscope run ... --batch`: a run whose calls go through the providers' batch APIs at batch
// prices. It goes in rounds, all of it kept in the store's batch ledger so that a killed
// process, or another one on the same store, takes up where it stopped:
//   1. batches in flight (this run's, from any process) are polled until they end; their
//      replies go into the call cache;
//   2. every trial not yet done is played against the cache (batch-collect.ts); the calls it
//      misses are claimed in the ledger and submitted, one batch per model (and per
//      `maxPerBatch` calls); back to 1. Multi-turn protocols take one round per turn.
//   3. when a round misses nothing, the ordinary runner records every trial from the cache:
//      a reply fetched by this run's batch is charged once at the batch price; calls a batch
//      returned as errors (and subjects without a batch API) are made the normal way, with retries.

import { randomUUID } from 'node:crypto';
import { ConfigError } from '../../core/index.js';
import { type ChatModel, ModelCallError } from '../../models/index.js';
import type { BatchRequestRow } from '../../store/index.js';
import { CallerFactory } from '../callers.js';
import { PriceBook } from '../prices.js';
import { sleep } from '../retry-policy.js';
import { plannedTrials, prepareRun, runEvaluation, type RunOptions, type RunSummary } from '../run-evaluation.js';
import type { RunSubject } from '../trial-executor.js';
import { collectRound } from './batch-collect.js';
import { pollBatch } from './batch-poll.js';
import { recoverLostBatches } from './batch-recover.js';
import { StandardCallCounter, type StandardPriceCalls } from './standard-calls.js';

export interface BatchRunOptions {
  /** How often batches in flight are polled (default 30 s). */
  pollMs?: number;
  /** Most calls in one batch (default 10,000; OpenAI takes up to 50,000, Anthropic 100,000). */
  maxPerBatch?: number;
  /** A batch left in `submitting` this long is taken to be from a process that died before the provider answered (default 10 leases: 10 min). */
  staleSubmitMs?: number;
  /**
   * Return (with `pending`) instead of waiting for batches in flight: one step of the run, as a
   * queue worker takes it (it queues the next step for later, for any worker to take).
   */
  once?: boolean;
}

/** A batch run's summary; `pending`: a `once` step ended with batches still in flight (nothing recorded yet). */
export interface BatchRunSummary extends RunSummary {
  pending: boolean;
  /** Calls made one by one at the standard price instead of through a batch, per subject (none: every call was batched or cached). */
  standardPrice: StandardPriceCalls[];
}

/** Whether a model's calls can go through a batch API. */
export function batchable(model: ChatModel): boolean {
  return !model.local && typeof model.batchApi === 'function' && model.wire !== undefined;
}

/** Run (or resume) an evaluation through the providers' batch APIs; see the file's comment. */
export async function runBatchEvaluation(opts: RunOptions & { batch?: BatchRunOptions }): Promise<BatchRunSummary> {
  const started = performance.now();
  const store = opts.calls.store;
  const emit = opts.onEvent ?? (() => {});
  if (opts.calls.useCache === false) throw new ConfigError('--batch keeps batch replies in the call cache: it cannot run with --no-cache');
  if (opts.maxCostUsd !== undefined) throw new ConfigError('--batch cannot run with --max-cost: a submitted batch is paid whole');
  const pollMs = opts.batch?.pollMs ?? 30_000;
  const maxPerBatch = Math.max(1, opts.batch?.maxPerBatch ?? 10_000);
  const run = await prepareRun(store, opts);
  const { runId } = run;
  const models = new Map<string, ChatModel>();
  for (const s of opts.subjects) {
    if (batchable(s.model)) models.set(s.model.spec, s.model);
    else emit({ type: 'warning', message: `${s.model.spec} has no batch API: its calls are made one by one at the standard price` });
  }
  const prices = new PriceBook(opts.calls.prices);
  const callers = new CallerFactory({ ...opts.calls, seed: opts.seed, shareRateLimits: false });
  const batchSubjects = opts.subjects.filter((s) => models.has(s.model.spec));
  const trials = () => {
    const only: typeof run = { ...run, subjects: batchSubjects };
    return plannedTrials<RunSubject>(only);
  };
  const spentBefore = (await store.usage(runId)).reduce((n, u) => n + (u.costUsd ?? 0), 0);
  const planned = opts.subjects.length * opts.tasks.reduce((n, t) => n + t.items.length, 0) * opts.replicates;
  emit({ type: 'start', runId, planned, spentUsd: spentBefore });

  const pending = async (): Promise<BatchRunSummary> => {
    await callers.settle();
    for (const s of opts.subjects) await s.model.close?.();
    const usage = await store.usage(runId);
    return {
      runId,
      planned,
      skipped: 0,
      done: 0,
      failed: 0,
      aborted: [],
      truncated: 0,
      unpriced: [],
      costUsd: 0,
      calls: { made: 0, cached: 0, cachedFrom: [] },
      usage,
      elapsedMs: performance.now() - started,
      pending: true,
      standardPrice: [],
    };
  };
  // A batch left in `submitting` by a dead process: looked up at the provider and polled, or
  // dropped and its calls claimed again (batch-recover.ts); every round, as one may be in doubt.
  const staleMs = opts.batch?.staleSubmitMs ?? 10 * (opts.calls.leaseMs ?? 60_000);
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    emit({ type: 'warning', message });
  };
  const lastStates = new Map<string, string>();
  for (;;) {
    await recoverLostBatches(store, runId, models, staleMs, warn);
    await store.dropStaleBatches(runId, staleMs);
    const batches = await store.runBatches(runId);
    let round = batches.reduce((n, b) => Math.max(n, b.round), 0);
    const inFlight = batches.filter((b) => b.state === 'submitted' || b.state === 'submitting');
    if (inFlight.length) {
      let running = 0;
      for (const b of inFlight) {
        const model = models.get(b.spec);
        // Another process is creating this batch, or it belongs to a model this invocation does not run.
        if (b.state === 'submitting' || !model) {
          // Said once: the wait may be long (a process killed while creating it leaves it so until staleMs).
          if (b.state === 'submitting') {
            const until = new Date(Date.parse(b.createdAt) + staleMs);
            warn(
              `batch ${b.id} (${b.spec}) is being created by another process, or was by one that died: waiting for it until ${until.toISOString()}, then it is looked up at the provider`,
            );
          }
          running++;
          continue;
        }
        let p: Awaited<ReturnType<typeof pollBatch>>;
        try {
          p = await pollBatch(store, b, model, prices.lookup(model).price);
        } catch (err) {
          if (!(err instanceof ModelCallError)) throw err;
          // A passing failure (network, 5xx, 429): ask again next time. Anything else ends the batch: its calls take the normal path.
          if (err.retryable) {
            emit({ type: 'warning', message: `polling batch ${b.remoteId}: ${err.message}; trying again` });
            running++;
            continue;
          }
          const error = `polling batch ${b.remoteId}: ${err.message}`;
          const keys = (await store.batchRequests(runId)).filter((r) => r.batchId === b.id).map((r) => r.key);
          await store.settleBatchRequests(
            b.id,
            keys.map((key) => ({ key, status: 'error', costUsd: null, error })),
          );
          await store.updateBatch(b.id, { state: 'failed', error });
          p = { state: 'failed', total: b.requests, finished: 0, error };
        }
        if (p.state === 'running') running++;
        const total = p.total || b.requests;
        const finished = p.state === 'ended' ? total : p.finished;
        const seen = `${p.state}:${finished}`;
        if (lastStates.get(b.id) !== seen) {
          lastStates.set(b.id, seen);
          emit({
            type: 'batch',
            spec: b.spec,
            batchId: b.remoteId ?? b.id,
            round: b.round,
            state: p.state,
            total,
            finished,
            ...(p.error ? { error: p.error } : {}),
          });
        }
      }
      if (running) {
        if (opts.batch?.once) return pending();
        await sleep(pollMs);
      }
      continue;
    }
    const ledger = new Map<string, BatchRequestRow>((await store.batchRequests(runId)).map((r) => [r.key, r]));
    const { requests, waiting } = await collectRound(runId, trials(), {
      store,
      callers,
      replicates: opts.replicates,
      seed: opts.seed,
      ledger,
    });
    await callers.settle();
    if (requests.size === 0) {
      if (waiting) {
        if (opts.batch?.once) return pending();
        await sleep(pollMs);
        continue;
      }
      break;
    }
    round++;
    for (const [spec, calls] of requests) {
      const model = models.get(spec)!;
      const entries = [...calls].map(([customId, body]) => ({ customId, body }));
      for (let i = 0; i < entries.length; i += maxPerBatch) {
        const id = randomUUID();
        const part = entries.slice(i, i + maxPerBatch);
        // Claimed first: a call another process claimed meanwhile is left to its batch.
        const claimed = new Set(
          await store.openBatch(
            { id, runId, spec, round },
            part.map((e) => e.customId),
          ),
        );
        if (claimed.size === 0) continue;
        try {
          const remoteId = await model.batchApi!().submit(
            part.filter((e) => claimed.has(e.customId)),
            id,
          );
          await store.updateBatch(id, { remoteId, state: 'submitted' });
          emit({ type: 'batch', spec, batchId: remoteId, round, state: 'submitted', total: claimed.size, finished: 0 });
        } catch (err) {
          // The batch API refused (a server without one, a request too large): its calls take the normal path.
          const error = `${model.batchApi!().name}: submission failed: ${(err as Error).message}`;
          await store.settleBatchRequests(
            id,
            [...claimed].map((key) => ({ key, status: 'error', costUsd: null, error })),
          );
          await store.updateBatch(id, { state: 'failed', error });
          emit({ type: 'batch', spec, batchId: id, round, state: 'failed', total: claimed.size, finished: 0, error });
        }
      }
    }
  }

  // Final pass: record every trial; the run's batch replies are charged once each, at batch prices.
  const charges = new Map<string, number | null>();
  for (const r of await store.batchRequests(runId)) if (r.status === 'done') charges.set(r.key, r.costUsd);
  const standard = new StandardCallCounter();
  const summary = await runEvaluation({
    ...opts,
    subjects: opts.subjects.map((s) => standard.count(s)),
    calls: {
      ...opts.calls,
      batchCharge: (key) => {
        if (!charges.has(key)) return undefined;
        const costUsd = charges.get(key)!;
        charges.delete(key);
        return { costUsd };
      },
    },
  });
  return { ...summary, elapsedMs: performance.now() - started, pending: false, standardPrice: standard.counts(new Set(models.keys())) };
}
