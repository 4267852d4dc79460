// `mindscope run ... --db postgres://... --enqueue`: plan a run into the store (run record with
// its specification, subjects, items, plan) and put every trial not yet done on the queue, for
// `mindscope worker` processes on any machine to take. Nothing is called here. With a repeat
// schedule, each replicate is a repetition due at its own time of day: its trials wait in the
// queue until then, and the slots are recorded with the run's provenance.

import { parseRunSpec, type RunSpecInput } from '../core/index.js';
import { irtNotQueueable } from './irt-run.js';
import { ConfigError } from '../core/index.js';
import {
  checkRepeatSchedule,
  plannedTrials,
  prepareRun,
  repeatSlots,
  TrialQueue,
  trialKeyOf,
  type PlanSubject,
  type RepeatSchedule,
  type RepeatSlot,
} from '../runner/index.js';
import { trialKeyString, type PgStore, type Store } from '../store/index.js';
import { buildSubjects, loadTasks } from './evaluate.js';
import { createRegistry, type Registry } from './registry.js';
import { collectProvenance } from './provenance.js';
import { runIdentity, runIdOf } from './run-identity.js';

export interface EnqueueOptions {
  store: PgStore;
  runId?: string;
  /** A name for people, stored with the run (replacing an earlier one). */
  name?: string;
  registry?: Registry;
  apiKeyEnv?: string;
  /** Plan suites that load no item (an error otherwise). */
  allowEmpty?: boolean;
  /**
   * How long a worker's lease on a trial lasts without its heartbeat (default 60 s); a job taken
   * by a worker that died is handed out again after twice this.
   */
  leaseSeconds?: number;
  /**
   * Send the calls through the providers' batch APIs: the run goes on the queue as one batch-run
   * job (each step polls the stored batches or submits the next round), not as trials.
   */
  batch?: boolean;
  /** Repetitions at times of day: replicate r of the run is due at the schedule's slot r (the spec's trials must be the slot count). */
  schedule?: RepeatSchedule;
  /** The moment of planning (default: now), from which a schedule without a first day starts. */
  now?: Date;
  onWarning?: (message: string) => void;
}

export interface EnqueueResult {
  runId: string;
  planned: number;
  /** Trials done already (not queued). */
  skipped: number;
  /** Trials put on the queue (one already waiting there is not queued twice). */
  queued: number;
  /** The repetitions of a scheduled run: each replicate's due time and time of day. */
  schedule?: RepeatSlot[];
  warnings: string[];
}

/**
 * The environment the models are built with here, only to read their capabilities and settings
 * (nothing is called): a key missing on this machine is stood in for; workers bring their own.
 */
const planningEnv = new Proxy(process.env, {
  get: (env, name) => env[name as string] ?? (typeof name === 'string' && /KEY/.test(name) ? 'not-needed-to-plan' : undefined),
});

/** The schedule a run records with its provenance (the latest), if any. */
export async function runSchedule(
  store: Pick<Store, 'provenance'>,
  runId: string,
): Promise<(RepeatSchedule & { timeZone: string; slots: RepeatSlot[] }) | undefined> {
  const records = await store.provenance(runId);
  for (const r of [...records].reverse())
    if (r.schedule && typeof r.schedule === 'object') return r.schedule as RepeatSchedule & { timeZone: string; slots: RepeatSlot[] };
  return undefined;
}

/**
 * The slots of a schedule for a run: the ones it recorded when it was queued with the same
 * schedule before (queued again, it keeps its repetitions' times), else new ones from `now`.
 */
async function scheduleSlots(store: PgStore, runId: string, schedule: RepeatSchedule, now: Date): Promise<RepeatSlot[]> {
  const before = await runSchedule(store, runId);
  const same = (a: RepeatSchedule, b: RepeatSchedule) => a.at.join() === b.at.join() && a.days === b.days && a.from === b.from;
  return before && same(before, schedule) ? before.slots : repeatSlots(schedule, now);
}

/** Plan a run into a PostgreSQL store and queue its trials that are not done. */
export async function enqueueRun(specInput: RunSpecInput, opts: EnqueueOptions): Promise<EnqueueResult> {
  const spec = parseRunSpec(specInput);
  if (spec.irt) throw irtNotQueueable();
  const schedule = opts.schedule ? checkRepeatSchedule(opts.schedule) : undefined;
  if (schedule && opts.batch)
    throw new ConfigError('a repeat schedule does not go with --batch (a batch run submits every replicate at once)');
  const registry = opts.registry ?? createRegistry();
  // The subjects as the plan needs them (spec and settings); workers build the models.
  // The subjects with the settings `run` would give them (from each model's capabilities); the
  // workers run them with exactly these, stored with the plan.
  const built = buildSubjects(spec, registry, { apiKeyEnv: opts.apiKeyEnv, env: planningEnv });
  const subjects: PlanSubject[] = built.subjects.map((s) => ({ model: { spec: s.model.spec }, settings: s.settings }));
  for (const s of built.subjects) await s.model.close?.();
  const loaded = await loadTasks(spec, registry, { allowEmpty: opts.allowEmpty });
  const tasks = loaded.tasks;
  const warnings = [...built.warnings, ...loaded.warnings];
  warnings.forEach((w) => opts.onWarning?.(w));
  const identity = runIdentity(spec);
  const runId = opts.runId ?? runIdOf(identity);
  const slots = schedule ? await scheduleSlots(opts.store, runId, schedule, opts.now ?? new Date()) : undefined;
  if (slots && slots.length !== spec.trials)
    throw new ConfigError(
      `the repeat schedule has ${slots.length} slot(s) (times x days) and the run ${spec.trials} trial(s) per item: each replicate is one repetition, so give --trials ${slots.length} or leave --trials out`,
    );
  // Provenance beside the run, as for `run` (never in its identity).
  await opts.store.recordProvenance(runId, {
    ...collectProvenance(spec, tasks),
    ...(slots ? { schedule: { timeZone: 'UTC', ...schedule, slots } } : {}),
  });
  const run = await prepareRun(opts.store, {
    runId,
    config: identity,
    spec: spec as Record<string, unknown>,
    ...(opts.name ? { name: opts.name } : {}),
    tasks,
    subjects,
    replicates: spec.trials,
  });
  const done = await opts.store.doneTrials(runId);
  const jobs = [];
  let planned = 0;
  for (const p of plannedTrials(run)) {
    planned++;
    const key = trialKeyOf(runId, p);
    if (!done.has(trialKeyString(key))) jobs.push({ ...key, itemHash: p.hash });
  }
  const leaseSeconds = opts.leaseSeconds ?? 60;
  const queue = await TrialQueue.open(opts.store.url);
  try {
    if (opts.batch) {
      if (jobs.length)
        await queue.enqueueBatchRun(runId, { expireSeconds: 2 * leaseSeconds, retryDelaySeconds: Math.max(1, leaseSeconds / 2) });
      return { runId, planned, skipped: planned - jobs.length, queued: jobs.length, warnings };
    }
    const due = slots?.map((x) => new Date(x.due));
    await queue.enqueue(jobs, {
      expireSeconds: 2 * leaseSeconds,
      retryDelaySeconds: Math.max(1, leaseSeconds / 2),
      ...(due ? { startAfter: (job) => due[job.replicate] } : {}),
    });
    return { runId, planned, skipped: planned - jobs.length, queued: jobs.length, ...(slots ? { schedule: slots } : {}), warnings };
  } finally {
    await queue.close();
  }
}
