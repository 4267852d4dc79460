// Everything `embodied results` and the report show for a run's episodes: the metrics per
// subject, and failure modes with counts and example turns.

import type { EmbodiedTask } from '../../worlds/index.js';
import type { Store } from '../../store/index.js';
import { episodeMetrics, type SubjectEpisodeMetrics } from './episode-metrics.js';
import { storedEpisodes, taskOfItem, type StoredEpisode } from './episode-results.js';
import { classifyFailure, FAILURE_MODES, type FailureFinding, type FailureMode } from './failure-modes.js';

export interface EpisodeSummary {
  metrics: SubjectEpisodeMetrics[];
  failures: Array<{
    subject: string;
    failed: number;
    counts: Record<FailureMode, number>;
    examples: Array<{ taskId: string; replicate: number } & FailureFinding>;
  }>;
  episodes: StoredEpisode[];
}

/** A run's embodied metrics per subject and its failure-mode counts with examples. */
export async function summarizeEpisodes(store: Store, runId: string, k = 3): Promise<EpisodeSummary> {
  const episodes = await storedEpisodes(store, runId);
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
  return { metrics: episodeMetrics(episodes, k), failures, episodes };
}

/**
 * Difficulty evolution: generator settings to bias new tasks towards what subjects failed.
 * Reference agents (`agent:...`) are left out of the judgement when any other subject ran; a
 * task counts as failed when some evaluated subject failed it. Callers draw a share
 * `failureRatio` of new tasks from the failed settings (0.8 standard, 0.9 hard, as the paper).
 */
export async function evolutionPool(
  store: Store,
  runId: string,
): Promise<{ failed: Array<Record<string, unknown>>; passed: Array<Record<string, unknown>> }> {
  const all = await storedEpisodes(store, runId);
  const evaluated = all.filter((e) => !e.subject.startsWith('agent:'));
  const episodes = evaluated.length ? evaluated : all;
  const byTask = new Map<string, { settings?: Record<string, unknown>; failed: boolean }>();
  for (const e of episodes) {
    const task = taskOfItem((await store.getItem(e.itemHash))!);
    const settings = task?.source.generator;
    const entry = byTask.get(e.itemHash) ?? { settings, failed: false };
    entry.failed ||= !e.functional;
    byTask.set(e.itemHash, entry);
  }
  const withSettings = [...byTask.values()].filter((x) => x.settings);
  return {
    failed: withSettings.filter((x) => x.failed).map((x) => x.settings!),
    passed: withSettings.filter((x) => !x.failed).map((x) => x.settings!),
  };
}
