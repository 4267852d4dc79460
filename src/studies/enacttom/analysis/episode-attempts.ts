// What a run planned for each subject's episodes, read from the store: the tasks (each item of an
// episode suite that some trial of the run reached, with its category, K-depth and whether its
// episodes have probes), how many planned tasks of those suites no trial reached (the run's plan
// counts them: planned trials / --trials), and which trials failed. Pass@k and Pass^k count every planned
// attempt with it (episode-metrics.ts).

import { kDepth } from '../world/index.js';
import type { Store } from '../../../store/index.js';
import type { PlannedTask, SubjectPlan } from './episode-metrics.js';
import { taskOfItem, type StoredEpisode } from './episode-results.js';

/** More failed trials than any run has (the store lists the first N). */
const ALL_FAILURES = 1_000_000_000;

/** A run's plan for its episodes: each subject's planned tasks, and the trials per task the run planned. */
export interface EpisodeAttemptPlan {
  /** The run's --trials (attempts planned per task); null when the run does not say. */
  trials: number | null;
  /** By subject spec. */
  subjects: Map<string, SubjectPlan>;
}

/** The attempts a run planned for the subjects of its episodes (from its plan, its trials and its stored items). */
export async function episodeAttemptPlan(store: Store, runId: string, episodes: StoredEpisode[]): Promise<EpisodeAttemptPlan> {
  const run = await store.getRun(runId);
  const configured = Number(run?.config.trials);
  const trials = Number.isInteger(configured) && configured >= 1 ? configured : null;
  // Items some trial reached, by suite (the episode suites: items that carry an embodied task).
  const bySuite = new Map<string, PlannedTask[]>();
  const stored = new Map<string, StoredEpisode[]>();
  for (const e of episodes) stored.set(`${e.suite}/${e.taskId}`, [...(stored.get(`${e.suite}/${e.taskId}`) ?? []), e]);
  for (const row of await store.trialItemHashes(runId)) {
    const item = await store.getItem(row.itemHash);
    const task = item && taskOfItem(item);
    if (!task) continue;
    const runs = stored.get(`${row.suite}/${row.itemId}`) ?? [];
    const planned: PlannedTask = {
      taskId: row.itemId,
      category: task.category,
      kDepth: kDepth(task.goal),
      // Stored episodes say whether it has probes; with none stored, a K goal does.
      probed: runs.length ? runs.some((e) => e.probesTotal > 0) : kDepth(task.goal) > 0,
    };
    const list = bySuite.get(row.suite) ?? [];
    if (!list.some((t) => t.taskId === planned.taskId)) list.push(planned);
    bySuite.set(row.suite, list);
  }
  const episodeSuites = new Set(bySuite.keys());
  const status = (await store.status(runId)).filter((r) => episodeSuites.has(r.suite));
  const specOf = new Map(status.map((r) => [r.subjectId, r.spec]));
  const subjects = new Map<string, SubjectPlan>();
  for (const r of status) {
    const plan = subjects.get(r.spec) ?? { tasks: [], unstarted: 0, failed: new Set<string>() };
    const known = bySuite.get(r.suite) ?? [];
    for (const t of known) if (!plan.tasks.some((x) => x.taskId === t.taskId)) plan.tasks.push(t);
    if (trials) plan.unstarted += Math.max(0, Math.round(r.planned / trials) - known.length);
    subjects.set(r.spec, plan);
  }
  for (const f of await store.failures(runId, ALL_FAILURES)) {
    const spec = specOf.get(f.subjectId);
    if (spec && episodeSuites.has(f.suite)) subjects.get(spec)?.failed.add(`${f.itemId}#${f.replicate}`);
  }
  return { trials, subjects };
}
