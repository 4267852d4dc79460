// `mindscope worker`: take trials from the queue (any run), call the models, record the
// results, on as many machines as there are. A trial of a scheduled repetition is handed out
// only once it is due (the queue holds it until then); `untilIdle` stops when nothing due is
// left, and the summary says how many trials wait for later and when the next is due. Per job: lease the trial in the store (a trial
// done already is acknowledged at once; one leased by a live worker goes back to the queue for
// later), run it with the run's task and subject rebuilt from the stored specification and the
// stored item, wait for the result's commit, then acknowledge the job. A worker killed at any
// moment loses nothing: an unacknowledged job is handed out again after its visibility
// timeout, its lease lapses, and the store records each trial once.

import {
  ConfigError,
  canonicalJson,
  deriveSeed,
  MindscopeError,
  parseRunSpec,
  type GenerationSettings,
  type Item,
  type Task,
} from '../core/index.js';
import {
  CallerFactory,
  DEFAULT_CONCURRENCY,
  DEFAULT_LEASE_MS,
  executeTrial,
  LeaseKeeper,
  PendingWrites,
  runPool,
  sleep,
  TrialQueue,
  type QueuedTrial,
  type RetryPolicy,
  type PriceTable,
  type RunSubject,
} from '../runner/index.js';
import type { PgStore } from '../store/index.js';
import { taskShells } from './evaluate.js';
import { batchRunLoop } from './batch-worker.js';
import { createRegistry, type Registry } from './registry.js';
import { runIdentity } from './run-identity.js';

export interface WorkerOptions {
  store: PgStore;
  registry?: Registry;
  /** Trials in flight in this worker, and the most concurrent calls per endpoint (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
  /** Lease length (default 60 s); keep it as the runs were enqueued with. */
  leaseMs?: number;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** How long one call may keep retrying rate limits (default 600 s). */
  maxWaitMs?: number;
  /** Timeouts in a row after which an endpoint's subjects stop (default 5). */
  maxConsecutiveTimeouts?: number;
  /** Replies larger than this fail as oversized (default 4 MiB). */
  maxReplyBytes?: number;
  prices?: PriceTable;
  useCache?: boolean;
  apiKeyEnv?: string;
  /** How often an empty queue is asked again (default 1 s). */
  pollMs?: number;
  /** Batch runs (run --enqueue --batch): how long between polls of a run's batches (default 30 s). */
  batchPollMs?: number;
  /** Stop once nothing is queued, waiting or taken (default: run until `signal` aborts). */
  untilIdle?: boolean;
  signal?: AbortSignal;
  onEvent?: (e: WorkerEvent) => void;
}

export type WorkerEvent =
  | { type: 'done' | 'failed' | 'skipped' | 'held'; runId: string }
  | { type: 'subject-aborted'; spec: string; error: string }
  /** A step of a batch run: its batches are still in flight (pending), or its trials are recorded. */
  | { type: 'batch-step'; runId: string; pending: boolean }
  | { type: 'error'; error: string };

export interface WorkerSummary {
  done: number;
  failed: number;
  /** Jobs whose trial was done already (a retried job, or a trial done by `run`). */
  skipped: number;
  /** Jobs given back because another live worker held the trial's lease. */
  held: number;
  /** Jobs given back after an error (retried by the queue). */
  errors: number;
  /** Trials of scheduled repetitions not yet due when the worker stopped. */
  scheduled: number;
  /** When the next of them is due (ISO), or null. */
  nextDue: string | null;
  elapsedMs: number;
}

interface RunContext {
  tasks: Map<string, Task>;
  subjects: Map<string, RunSubject>;
  replicates: number;
  replicateSeeds: number[];
  items: Map<string, Item>;
}

/** The run's tasks and subjects, rebuilt from its stored specification (whose files must be the ones it was planned with). */
async function loadRunContext(opts: WorkerOptions, registry: Registry, runId: string): Promise<RunContext> {
  const run = await opts.store.getRun(runId);
  if (!run) throw new ConfigError(`no run "${runId}" in ${opts.store.location}`);
  if (!run.spec) throw new ConfigError(`run ${runId} has no stored specification: enqueue it again with this version of mindscope`);
  const spec = parseRunSpec(run.spec, `run ${runId}'s stored specification`);
  const identity = runIdentity(spec);
  const differing = [...new Set([...Object.keys(identity), ...Object.keys(run.config)])].filter(
    (k) => canonicalJson(identity[k]) !== canonicalJson(run.config[k]),
  );
  if (differing.length)
    throw new ConfigError(`run ${runId}: this machine's files differ from those the run was planned with (${differing.join(', ')})`);
  // The subjects as planned: each model built here, with the settings stored with it (and the
  // context window its specification gives it).
  const windows = new Map<string, number | 'server'>();
  for (const m of spec.models)
    if (typeof m !== 'string' && m.contextWindow !== undefined)
      windows.set(registry.createModel(m.spec, { apiKeyEnv: opts.apiKeyEnv, contextWindow: m.contextWindow }).spec, m.contextWindow);
  const subjects = new Map<string, RunSubject>();
  for (const s of await opts.store.runSubjects(runId)) {
    const contextWindow = windows.get(s.spec);
    subjects.set(s.id, {
      model: registry.createModel(s.spec, { apiKeyEnv: opts.apiKeyEnv, ...(contextWindow !== undefined ? { contextWindow } : {}) }),
      settings: s.settings as unknown as GenerationSettings,
    });
  }
  return {
    tasks: taskShells(spec, registry),
    subjects,
    replicates: spec.trials,
    replicateSeeds: Array.from({ length: spec.trials }, (_, r) => deriveSeed(spec.seed, r)),
    items: new Map(),
  };
}

/** Take and run trials from the queue until stopped (or, with `untilIdle`, until the queue is empty). */
export async function runWorker(opts: WorkerOptions): Promise<WorkerSummary> {
  const started = performance.now();
  const registry = opts.registry ?? createRegistry();
  const store = opts.store;
  const emit = opts.onEvent ?? (() => {});
  const slots = Math.max(1, opts.concurrency ?? DEFAULT_CONCURRENCY);
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  const callers = new CallerFactory({
    store,
    concurrency: slots,
    timeoutMs: opts.timeoutMs,
    retry: opts.retry,
    maxWaitMs: opts.maxWaitMs,
    maxConsecutiveTimeouts: opts.maxConsecutiveTimeouts,
    maxReplyBytes: opts.maxReplyBytes,
    prices: opts.prices,
    useCache: opts.useCache,
    shareRateLimits: true,
  });
  const leases = new LeaseKeeper(store, leaseMs);
  const queue = await TrialQueue.open(store.url, { maintenanceSeconds: Math.max(1, Math.min(60, Math.round(leaseMs / 2000))) });
  const contexts = new Map<string, Promise<RunContext>>();
  const aborted = new Map<RunSubject, string>();
  const summary: WorkerSummary = { done: 0, failed: 0, skipped: 0, held: 0, errors: 0, scheduled: 0, nextDue: null, elapsedMs: 0 };
  let inFlight = 0;
  /** Results not yet committed, each acknowledging its job once it is. */
  const commits = new PendingWrites();

  // Acknowledgements go in groups, like the store's commits.
  let acks: string[] = [];
  let acking: Promise<void> = Promise.resolve();
  const ackNow = () => {
    const ids = acks;
    acks = [];
    if (ids.length) acking = acking.then(() => queue.complete(ids)).catch((err) => emit({ type: 'error', error: (err as Error).message }));
    return acking;
  };
  const ackTimer = setInterval(ackNow, 50);

  const contextOf = (runId: string) => {
    let c = contexts.get(runId);
    if (!c) {
      contexts.set(runId, (c = loadRunContext(opts, registry, runId)));
      // A run that cannot be rebuilt here is retried by the queue later (perhaps on another machine).
      c.catch(() => contexts.delete(runId));
    }
    return c;
  };

  /** An error: the job goes back to the queue (handed out again after the retry delay), its lease is given up. */
  const giveBack = async (job: QueuedTrial, err: unknown, counted = true) => {
    const message = err instanceof Error ? err.message : String(err);
    if (counted) {
      summary.errors++;
      emit({ type: 'error', error: message });
    }
    await leases.release([job.data]).catch(() => {});
    await queue.fail(job.id, message).catch(() => {});
  };

  const handle = async (job: QueuedTrial): Promise<void> => {
    const key = job.data;
    inFlight++;
    try {
      const ctx = await contextOf(key.runId);
      const task = ctx.tasks.get(key.suite);
      const subject = ctx.subjects.get(key.subjectId);
      let item = ctx.items.get(key.itemHash);
      if (!item) {
        item = await store.getItem(key.itemHash);
        if (item) ctx.items.set(key.itemHash, item);
      }
      if (!task || !subject || !item)
        throw new ConfigError(
          `run ${key.runId}: trial ${key.suite}/${key.itemId} names a ${!task ? 'suite' : !subject ? 'subject' : 'item'} its run does not have`,
        );
      const stopped = aborted.get(subject);
      if (stopped) throw new MindscopeError(stopped);
      const r = await executeTrial(
        { task, item, hash: key.itemHash, subject, subjectId: key.subjectId, replicate: key.replicate },
        { runId: key.runId, replicates: ctx.replicates, replicateSeeds: ctx.replicateSeeds, callers },
      );
      if (r.kind === 'aborted') {
        if (!aborted.has(subject)) {
          aborted.set(subject, r.error);
          emit({ type: 'subject-aborted', spec: subject.model.spec, error: r.error });
        }
        throw new MindscopeError(r.error);
      }
      // Acknowledged once the result is committed (a crash before leaves the job to be handed
      // out again); the slot is free meanwhile.
      commits.track(
        r.committed.then(
          () => {
            acks.push(job.id);
            summary[r.kind]++;
            emit({ type: r.kind, runId: key.runId });
          },
          (err) => giveBack(job, err),
        ),
      );
    } catch (err) {
      await giveBack(job, err);
    } finally {
      inFlight--;
    }
  };

  /** Fetch up to a batch of jobs and lease their trials: done ones are acknowledged, ones held by live workers given back. */
  let recoveredAt = Number.NEGATIVE_INFINITY;
  const fetchBatch = async (): Promise<QueuedTrial[]> => {
    // The jobs of a worker of this machine that died come back to the queue: its journaled
    // replies go into the cache first (looked for at most once a second).
    if (performance.now() - recoveredAt > 1000) {
      recoveredAt = performance.now();
      await store.recoverReplies().catch((err: unknown) => emit({ type: 'error', error: (err as Error).message }));
    }
    const batch = await queue.fetch(slots);
    if (batch.length === 0) return [];
    let claims: Awaited<ReturnType<LeaseKeeper['claim']>>;
    try {
      claims = await leases.claim(batch.map((j) => j.data));
    } catch (err) {
      for (const j of batch) await giveBack(j, err);
      return [];
    }
    const claimed: QueuedTrial[] = [];
    for (let i = 0; i < batch.length; i++) {
      const job = batch[i]!;
      if (claims[i] === 'claimed') claimed.push(job);
      else if (claims[i] === 'done') {
        summary.skipped++;
        acks.push(job.id);
        emit({ type: 'skipped', runId: job.data.runId });
      } else {
        summary.held++;
        await queue.fail(job.id, 'leased by another worker').catch(() => {});
        emit({ type: 'held', runId: job.data.runId });
      }
    }
    return claimed;
  };

  /** The jobs to run, a batch fetched ahead while the previous one runs, so that no slot waits for the queue. */
  async function* jobs(): AsyncGenerator<QueuedTrial> {
    let next = fetchBatch();
    while (!opts.signal?.aborted) {
      const batch = await next;
      if (batch.length) {
        next = fetchBatch();
        for (const [i, job] of batch.entries()) {
          if (opts.signal?.aborted) {
            // Stopping: the jobs not started go back to the queue.
            for (const j of batch.slice(i)) await giveBack(j, new MindscopeError('the worker stopped'), false);
            break;
          }
          yield job;
        }
        continue;
      }
      if (opts.untilIdle && inFlight === 0) {
        await commits.settle().catch(() => {});
        await ackNow();
        if ((await queue.outstanding()) === 0) return;
      }
      await sleep(opts.pollMs ?? 1000);
      next = fetchBatch();
    }
    for (const j of await next) await giveBack(j, new MindscopeError('the worker stopped'), false);
  }

  await callers.start();
  leases.start();
  // Batch runs alongside the trials: a step at a time, until the trials' loop ends.
  let trialsEnded = false;
  const batchRuns = batchRunLoop(
    queue,
    {
      store,
      registry,
      concurrency: slots,
      leaseMs,
      timeoutMs: opts.timeoutMs,
      retry: opts.retry,
      prices: opts.prices,
      useCache: opts.useCache,
      apiKeyEnv: opts.apiKeyEnv,
      pollMs: opts.batchPollMs,
    },
    () => trialsEnded || (opts.signal?.aborted ?? false),
    (r) => {
      summary.done += r.done;
      summary.failed += r.failed;
      emit({ type: 'batch-step', runId: r.runId, pending: r.pending });
    },
    (error) => {
      summary.errors++;
      emit({ type: 'error', error });
    },
  );
  try {
    await runPool(jobs(), slots, handle);
    trialsEnded = true;
    await batchRuns;
    await store.flush();
    await commits.settle().catch(() => {});
  } finally {
    trialsEnded = true;
    await batchRuns.catch(() => {});
    clearInterval(ackTimer);
    await ackNow();
    await callers.settle().catch(() => {});
    await leases.stop().catch(() => {});
    const later = await queue.scheduled().catch(() => ({ trials: 0, nextDue: null }));
    summary.scheduled = later.trials;
    summary.nextDue = later.nextDue;
    await queue.close().catch(() => {});
    for (const c of contexts.values()) {
      const ctx = await c.catch(() => undefined);
      for (const s of ctx?.subjects.values() ?? []) await s.model.close?.();
    }
  }
  summary.elapsedMs = performance.now() - started;
  return summary;
}
