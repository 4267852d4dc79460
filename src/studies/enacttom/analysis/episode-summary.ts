// Everything `embodied results` and the report show for a run's episodes: the metrics per
// subject, and failure modes with counts and example turns.

import { failureRatios } from './failure-ratios.js';
import type { EmbodiedTask } from '../world/index.js';
import type { Store } from '../../../store/index.js';
import { episodeAttemptPlan } from './episode-attempts.js';
import { episodeMetrics, type SubjectEpisodeMetrics } from './episode-metrics.js';
import { storedEpisodes, taskOfItem, type StoredEpisode } from './episode-results.js';
import { classifyFailure, FAILURE_MODES, type FailureFinding, type FailureMode } from './failure-modes.js';

export interface EpisodeSummary {
  metrics: SubjectEpisodeMetrics[];
  /** The run's --trials (attempts planned per task); null when the run does not say. */
  trialsPlanned?: number | null;
  failures: Array<{
    subject: string;
    failed: number;
    counts: Record<FailureMode, number>;
    examples: Array<{ taskId: string; replicate: number } & FailureFinding>;
  }>;
  episodes: StoredEpisode[];
}

/**
 * A run's embodied metrics per subject and its failure-mode counts with examples. Pass@k and
 * Pass^k count k planned attempts of every task the run planned, a missing one a non-pass.
 */
export async function summarizeEpisodes(store: Store, runId: string, k = 3): Promise<EpisodeSummary> {
  const episodes = await storedEpisodes(store, runId);
  const plan = await episodeAttemptPlan(store, runId, episodes);
  const tasks = new Map<string, EmbodiedTask | undefined>();
  for (const e of episodes) if (!tasks.has(e.itemHash)) tasks.set(e.itemHash, taskOfItem((await store.getItem(e.itemHash))!));
  const taskOf = (e: StoredEpisode) => tasks.get(e.itemHash);
  const subjects = [...new Set(episodes.map((e) => e.subject))].sort();
  const failures = subjects.map((subject) => {
    const counts = Object.fromEntries(FAILURE_MODES.map((m) => [m, 0])) as Record<FailureMode, number>;
    const examples: EpisodeSummary['failures'][number]['examples'] = [];
    const mine = episodes.filter((e) => e.subject === subject && !(e.detail.functional && e.detail.epistemic));
    for (const e of mine) {
      const task = taskOf(e);
      if (!task) continue;
      for (const f of classifyFailure(task, e.detail)) {
        counts[f.mode]++;
        if (examples.filter((x) => x.mode === f.mode).length < 2) examples.push({ taskId: e.taskId, replicate: e.replicate, ...f });
      }
    }
    return { subject, failed: mine.length, counts, examples };
  });
  return { metrics: episodeMetrics(episodes, k, plan.subjects), trialsPlanned: plan.trials, failures, episodes };
}

/** One task's failure ratio: the mean, over the subjects judged, of the share of their episodes of it that failed. */
export interface TaskFailureRatio {
  itemHash: string;
  taskId: string;
  task?: EmbodiedTask;
  settings?: Record<string, unknown>;
  ratio: number;
  subjects: number;
}

export interface EvolutionPool {
  /** Generator settings of tasks whose failure ratio is >= failedAt (the models failed them). */
  failed: Array<Record<string, unknown>>;
  passed: Array<Record<string, unknown>>;
  failedAt: number;
  ratios: TaskFailureRatio[];
  /** The subjects the ratio is taken over; reference agents are left out when any other subject ran. */
  judged: string[];
}

/**
 * The evaluated pool of a difficulty-evolution round, as the EnactToM paper takes it: a task's
 * failure ratio across the evaluated models (reference agents `agent:...` left out when any other
 * subject ran); a task counts as failed when its ratio is >= failedAt (the paper does not say
 * where; 0.5: the models failed it more often than not). evolveTasks then draws a share rho of
 * the next round's seeds from the failed tasks.
 */
export async function evolutionPool(store: Store, runId: string, failedAt = 0.5): Promise<EvolutionPool> {
  const all = await storedEpisodes(store, runId);
  const evaluated = all.filter((e) => !e.subject.startsWith('agent:'));
  const episodes = evaluated.length ? evaluated : all;
  const ratios: TaskFailureRatio[] = [];
  for (const r of failureRatios(episodes)) {
    const task = taskOfItem((await store.getItem(r.itemHash))!);
    ratios.push({ ...r, task, settings: task?.source.generator });
  }
  ratios.sort((a, b) => a.taskId.localeCompare(b.taskId));
  const withSettings = ratios.filter((r) => r.settings);
  return {
    failed: withSettings.filter((r) => r.ratio >= failedAt).map((r) => r.settings!),
    passed: withSettings.filter((r) => r.ratio < failedAt).map((r) => r.settings!),
    failedAt,
    ratios,
    judged: [...new Set(episodes.map((e) => e.subject))].sort(),
  };
}
