// The queue of trials for workers on many machines, on pg-boss (PostgreSQL; docs/guide/running-at-scale.md
// says why pg-boss and not graphile-worker). One job per trial, keyed by the trial (a trial
// queued twice while waiting is one job). pg-boss gives each fetched job a visibility timeout
// (`expireInSeconds`): a job whose worker died is retried by pg-boss's maintenance after it.
// Recording a result exactly once is the store's part (leases and the record-once rule), not
// the queue's: a job run twice finds its trial done, or leased to a live worker, and does not
// call the model again.

import type { PgBoss } from 'pg-boss';
import type { TrialKey } from '../core/index.js';
import { trialKeyString } from '../store/index.js';

/** The queue every run's trials go to (a worker takes trials of any run). */
export const TRIAL_QUEUE = 'mindscope-trials';
/**
 * The queue of batch runs (run --enqueue --batch): one job per step of a run; the worker that
 * takes it polls the run's stored batches or submits its next round, then queues the next step
 * (or, when no call is left, records the trials). A worker killed mid-step leaves the job to expire.
 */
export const BATCH_RUN_QUEUE = 'mindscope-batch-runs';
/** The PostgreSQL schema pg-boss keeps its tables in. */
export const QUEUE_SCHEMA = 'mindscope_queue';

export interface TrialJob extends TrialKey {
  itemHash: string;
}

export interface QueuedBatchRun {
  id: string;
  data: { runId: string };
}

export interface QueuedTrial {
  id: string;
  data: TrialJob;
}

export interface TrialQueueOptions {
  /** How often pg-boss's maintenance looks for expired jobs (default 60 s). */
  maintenanceSeconds?: number;
}

export interface EnqueueOptions {
  /** Visibility timeout: a fetched job not completed within it is given to another worker. */
  expireSeconds: number;
  /** When a trial may be taken (a scheduled repetition); absent or past: at once. */
  startAfter?: (job: TrialJob) => Date | undefined;
  /** How many times a job is handed out again after a failure (a held lease, a database error). */
  retryLimit?: number;
  /** Seconds before a failed job is handed out again. */
  retryDelaySeconds?: number;
}

/** The pg-boss queue of trials: enqueue, fetch, acknowledge, give back. */
export class TrialQueue {
  private constructor(private readonly boss: PgBoss) {}

  /** Connect (creating pg-boss's schema and the queue if needed). */
  static async open(url: string, opts: TrialQueueOptions = {}): Promise<TrialQueue> {
    // Loaded on first use: commands that never touch the queue do not pay for it.
    const { PgBoss: Boss } = await import('pg-boss');
    const boss = new Boss({
      connectionString: url,
      schema: QUEUE_SCHEMA,
      max: 4,
      schedule: false,
      maintenanceIntervalSeconds: opts.maintenanceSeconds ?? 60,
      application_name: 'mindscope-queue',
    });
    // Connection errors in pg-boss's background maintenance must not end the process; the
    // next fetch or completion reports a database that stays away.
    boss.on('error', () => {});
    await boss.start();
    await boss.createQueue(TRIAL_QUEUE, { policy: 'short' });
    await boss.createQueue(BATCH_RUN_QUEUE, { policy: 'short' });
    return new TrialQueue(boss);
  }

  /** Queue trials (a trial already waiting in the queue is not queued twice). */
  async enqueue(jobs: TrialJob[], opts: EnqueueOptions): Promise<void> {
    for (let i = 0; i < jobs.length; i += 1000) {
      const part = jobs.slice(i, i + 1000).map((data) => ({
        data,
        ...(opts.startAfter?.(data) ? { startAfter: opts.startAfter(data) } : {}),
        singletonKey: trialKeyString(data),
        expireInSeconds: Math.max(1, Math.round(opts.expireSeconds)),
        retryLimit: opts.retryLimit ?? 100,
        retryDelay: Math.max(1, Math.round(opts.retryDelaySeconds ?? 10)),
        retryBackoff: false,
      }));
      await this.boss.insert(TRIAL_QUEUE, part);
    }
  }

  /** Take up to `n` trials; each stays taken until completed, failed, or its visibility timeout passes. */
  async fetch(n: number): Promise<QueuedTrial[]> {
    if (n <= 0) return [];
    const jobs = await this.boss.fetch<TrialJob>(TRIAL_QUEUE, { batchSize: n });
    return jobs.map((j) => ({ id: j.id, data: j.data }));
  }

  /** Acknowledge trials whose result is stored (or that were done already). */
  async complete(ids: string[]): Promise<void> {
    if (ids.length) await this.boss.complete(TRIAL_QUEUE, ids);
  }

  /** Give a trial back: it is handed out again after the retry delay. */
  async fail(id: string, reason: string): Promise<void> {
    await this.boss.fail(TRIAL_QUEUE, id, { reason });
  }

  /**
   * Trials and batch-run steps queued, waiting for a retry, or taken and not yet acknowledged;
   * trials scheduled for later (a repetition not yet due) are not counted (see `scheduled`); a
   * batch run's next step, queued to start later, is.
   */
  async outstanding(): Promise<number> {
    // Counted from the job table itself: pg-boss's queue statistics are cached for up to a minute.
    const { rows } = await this.boss.getDb().executeSql(
      `SELECT count(*)::int AS n FROM ${QUEUE_SCHEMA}.job WHERE name = ANY($1) AND state < 'completed'
           AND NOT (name = $2 AND state = 'created' AND start_after > now())`,
      [[TRIAL_QUEUE, BATCH_RUN_QUEUE], TRIAL_QUEUE],
    );
    return Number((rows[0] as { n: number } | undefined)?.n ?? 0);
  }

  /** Trials queued for later (repetitions not yet due): how many, and when the next is due (ISO). */
  async scheduled(): Promise<{ trials: number; nextDue: string | null }> {
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `SELECT count(*)::int AS n, min(start_after) AS next FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND state = 'created' AND start_after > now()`,
        [TRIAL_QUEUE],
      );
    const row = rows[0] as { n: number; next: Date | string | null } | undefined;
    return { trials: Number(row?.n ?? 0), nextDue: row?.next ? new Date(row.next).toISOString() : null };
  }

  /** Queue a step of a batch run, to start after `delaySeconds` (a step already waiting is not queued twice). */
  async enqueueBatchRun(runId: string, opts: EnqueueOptions & { delaySeconds?: number }): Promise<void> {
    await this.boss.send(
      BATCH_RUN_QUEUE,
      { runId },
      {
        singletonKey: runId,
        expireInSeconds: Math.max(1, Math.round(opts.expireSeconds)),
        retryLimit: opts.retryLimit ?? 100,
        retryDelay: Math.max(1, Math.round(opts.retryDelaySeconds ?? 10)),
        retryBackoff: false,
        ...(opts.delaySeconds ? { startAfter: Math.max(1, Math.round(opts.delaySeconds)) } : {}),
      },
    );
  }

  /** Take a step of a batch run, if one is due. */
  async fetchBatchRun(): Promise<QueuedBatchRun | undefined> {
    const [job] = await this.boss.fetch<{ runId: string }>(BATCH_RUN_QUEUE, { batchSize: 1 });
    return job ? { id: job.id, data: job.data } : undefined;
  }

  /** Acknowledge a batch-run step. */
  async completeBatchRun(id: string): Promise<void> {
    await this.boss.complete(BATCH_RUN_QUEUE, id);
  }

  /** Give a batch-run step back after an error: it is handed out again after the retry delay. */
  async failBatchRun(id: string, reason: string): Promise<void> {
    await this.boss.fail(BATCH_RUN_QUEUE, id, { reason });
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: false });
  }
}
