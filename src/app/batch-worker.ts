// The batch runs on the queue (run --enqueue --batch), as `mindscope worker` takes them: one
// step at a time. A step rebuilds the run from its stored specification, polls its stored
// batches (or submits its next round), and queues the next step after the poll interval; once
// no call is left, it records the run's trials. Everything a step knows is in the store (the
// batch ledger), so any worker takes the next step, and a worker killed mid-step leaves its
// job to expire and be handed to another, which polls the same batches: none is resubmitted.

import { ConfigError, parseRunSpec } from '../core/index.js';
import { sleep, type TrialQueue } from '../runner/index.js';
import type { PgStore } from '../store/index.js';
import { evaluate, type RunOperations } from './evaluate.js';
import type { Registry } from './registry.js';

export interface BatchStepOptions extends Omit<RunOperations, 'runId' | 'batch' | 'onEvent' | 'store'> {
  store: PgStore;
  registry?: Registry;
  /** How long a step waits before the next one polls (default 30 s). */
  pollMs?: number;
  /** Lease on trials (ms); a step's job expires after twice this. */
  leaseMs?: number;
}

/** What one step did: the run is still waiting on batches, or its trials are recorded. */
export interface BatchStepResult {
  runId: string;
  pending: boolean;
  done: number;
  failed: number;
}

/** One step of a queued batch run (see the file's comment). */
export async function runBatchStep(runId: string, opts: BatchStepOptions): Promise<BatchStepResult> {
  const run = await opts.store.getRun(runId);
  if (!run?.spec) throw new ConfigError(`run ${runId} has no stored specification: enqueue it again with this version of mindscope`);
  const { pollMs: _poll, ...ops } = opts;
  const r = await evaluate(parseRunSpec(run.spec, `run ${runId}'s stored specification`), { ...ops, runId, batch: { once: true } });
  return { runId, pending: r.pending ?? false, done: r.done, failed: r.failed };
}

/**
 * Take batch-run steps from the queue until `stopping()` says so: each step is acknowledged once
 * done, with the next one queued after the poll interval while batches are in flight.
 */
export async function batchRunLoop(
  queue: TrialQueue,
  opts: BatchStepOptions,
  stopping: () => boolean,
  onStep: (r: BatchStepResult) => void,
  onError: (message: string) => void,
): Promise<void> {
  const pollMs = opts.pollMs ?? 30_000;
  const leaseSeconds = (opts.leaseMs ?? 60_000) / 1000;
  while (!stopping()) {
    const job = await queue.fetchBatchRun().catch((err) => {
      onError((err as Error).message);
      return undefined;
    });
    if (!job) {
      await sleep(Math.min(1000, pollMs));
      continue;
    }
    try {
      const r = await runBatchStep(job.data.runId, opts);
      if (r.pending)
        await queue.enqueueBatchRun(r.runId, {
          expireSeconds: 2 * leaseSeconds,
          retryDelaySeconds: Math.max(1, leaseSeconds / 2),
          delaySeconds: pollMs / 1000,
        });
      await queue.completeBatchRun(job.id);
      onStep(r);
    } catch (err) {
      onError(`batch run ${job.data.runId}: ${(err as Error).message}`);
      await queue.failBatchRun(job.id, (err as Error).message).catch(() => {});
    }
  }
}
