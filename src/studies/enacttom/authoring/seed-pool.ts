// In-context seed tasks for the author, as the EnactToM paper draws them (Section 4.4): tasks
// of the existing pool "sampled by their performance against a family of target models: a
// fraction rho are tasks these models failed, and the remainder are tasks they passed". The
// pool is a stored run; a task's failure ratio is the mean, over the target models, of the share
// of their episodes of it that failed, and the task counts as failed when that ratio is at least
// `failedAt`. The seeds are the pool's tasks themselves, written back as EnactToM JSON.

import { failureRatios } from '../analysis/failure-ratios.js';
import { ConfigError, createRng } from '../../../core/index.js';
import type { Store } from '../../../store/index.js';
import { storedEpisodes, taskOfItem } from '../analysis/index.js';
import { writeEnactTomTask } from './task-json.js';

/** A pool task with its outcome against the target models. */
export interface PoolTask {
  taskId: string;
  json: Record<string, unknown>;
  /** Mean over the target models of the share of their episodes of the task that failed. */
  failureRatio: number;
  failed: boolean;
}

export interface SeedPool {
  runId: string;
  /** The subjects the failure ratio is taken over. */
  targets: string[];
  failedAt: number;
  failed: PoolTask[];
  passed: PoolTask[];
}

/**
 * The tasks of a stored run, failed or passed by the target models (default: every subject but
 * the reference agents `agent:...`, or those when nothing else ran).
 */
export async function seedPool(store: Store, runId: string, opts: { targets?: string[]; failedAt?: number } = {}): Promise<SeedPool> {
  const failedAt = opts.failedAt ?? 0.5;
  if (!(failedAt > 0 && failedAt <= 1)) throw new ConfigError('the failure ratio a failed task reaches must lie in (0, 1]');
  const all = await storedEpisodes(store, runId);
  const subjects = [...new Set(all.map((e) => e.subject))].sort();
  const missing = (opts.targets ?? []).filter((t) => !subjects.includes(t));
  if (missing.length)
    throw new ConfigError(`run ${runId} has no episodes of ${missing.join(', ')} (its subjects: ${subjects.join(', ') || 'none'})`);
  const models = subjects.filter((s) => !s.startsWith('agent:'));
  const targets = opts.targets?.length ? [...opts.targets].sort() : models.length ? models : subjects;
  const tasks: PoolTask[] = [];
  for (const r of failureRatios(all.filter((e) => targets.includes(e.subject)))) {
    const item = await store.getItem(r.itemHash);
    const task = item ? taskOfItem(item) : undefined;
    if (!task) continue;
    tasks.push({ taskId: r.taskId, json: writeEnactTomTask(task), failureRatio: r.ratio, failed: r.ratio >= failedAt });
  }
  tasks.sort((a, b) => a.taskId.localeCompare(b.taskId));
  return { runId, targets, failedAt, failed: tasks.filter((t) => t.failed), passed: tasks.filter((t) => !t.failed) };
}

/** One in-context seed: the task and, for pool seeds, whether the target models failed it. */
export interface Seed {
  json: Record<string, unknown>;
  failed?: boolean;
}

/**
 * Seeds for `n` drafts, `perDraft` each, a share `rho` of them failed pool tasks and the rest
 * passed ones: over all drafts the failed seeds are round(rho * n * perDraft), spread evenly;
 * each side is shown in a seeded order, cycling. A side with no task gives its places to the
 * other (the share shown is then not rho: `failedShare` says what it was).
 */
export function planSeeds(
  pool: Pick<SeedPool, 'failed' | 'passed'>,
  n: number,
  perDraft: number,
  rho: number,
  seed: number,
): { perDraft: Seed[][]; failedShare: number } {
  if (!(rho >= 0 && rho <= 1)) throw new ConfigError('rho must lie in [0, 1]');
  if (pool.failed.length + pool.passed.length === 0) throw new ConfigError('the pool has no task to draw seeds from');
  const rng = createRng(`enacttom-seeds:${seed}`);
  const queues = { failed: rng.shuffle(pool.failed), passed: rng.shuffle(pool.passed) };
  const next = { failed: 0, passed: 0 };
  let shownFailed = 0;
  let shown = 0;
  const out: Seed[][] = [];
  for (let i = 0; i < n; i++) {
    const draft: PoolTask[] = [];
    for (let k = 0; k < perDraft; k++) {
      const j = i * perDraft + k;
      const wantFailed = Math.round(rho * (j + 1)) - Math.round(rho * j) === 1;
      // A side with no task gives its place to the other.
      const side = wantFailed ? (queues.failed.length ? 'failed' : 'passed') : queues.passed.length ? 'passed' : 'failed';
      const q = queues[side];
      // The next task of the side not already shown in this draft (when the side has one).
      let pick = q[next[side] % q.length]!;
      for (let tries = 0; tries < q.length && draft.includes(pick); tries++) pick = q[++next[side] % q.length]!;
      next[side]++;
      if (draft.includes(pick)) continue;
      draft.push(pick);
      shown++;
      if (pick.failed) shownFailed++;
    }
    out.push(draft.map((t) => ({ json: t.json, failed: t.failed })));
  }
  return { perDraft: out, failedShare: shown ? shownFailed / shown : 0 };
}
