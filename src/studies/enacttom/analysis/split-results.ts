// The EnactToM paper's Table 2 from a stored run: for each subject and scope (cooperative, mixed,
// overall), the standard and hard splits side by side, each with functional task success and
// literal probe success as Avg (with its binomial SE and a 95% interval over tasks), Pass@k and
// Pass^k (episode-metrics.ts). A task's split is what the pool wrote into its generator settings
// (`embodied pool`), or what a pool manifest says of its id; episodes of tasks without a split are
// counted and left out. The best overall Pass^k of each split and metric family (functional,
// literal) is marked, as the paper colours it, when it is above zero.

import type { Store } from '../../../store/index.js';
import type { EmbodiedTask } from '../world/index.js';
import { episodeMetrics, type RateSummary } from './episode-metrics.js';
import { storedEpisodes, taskOfItem, type StoredEpisode } from './episode-results.js';

export const TABLE2_SCOPES = ['cooperative', 'mixed', 'overall'] as const;

export interface SplitCell {
  tasks: number;
  runs: number;
  functional: RateSummary;
  literal: RateSummary;
}

export interface SplitRow {
  subject: string;
  scope: (typeof TABLE2_SCOPES)[number];
  /** Per split; absent where the subject has no episode of that split and scope. */
  splits: Record<string, SplitCell | undefined>;
}

export interface SplitResults {
  runId: string;
  k: number;
  splits: string[];
  rows: SplitRow[];
  /** Per split: the subjects with the best overall functional and literal Pass^k (empty when the best is 0 or none). */
  best: Record<string, { functional: string[]; literal: string[] }>;
  /** Episodes whose task has no split. */
  unassigned: number;
}

/** The split of a stored task: from its generator settings, else from `manifest` (task id -> split). */
function splitOf(task: EmbodiedTask | undefined, taskId: string, manifest?: Map<string, string>): string | undefined {
  const own = task?.source.generator?.split;
  return typeof own === 'string' ? own : manifest?.get(taskId);
}

/** Table 2 of a run: subjects by scope, the splits side by side (standard first, then hard, then any other). */
export async function splitResults(store: Store, runId: string, k = 3, manifest?: Map<string, string>): Promise<SplitResults> {
  const episodes = await storedEpisodes(store, runId);
  const tasks = new Map<string, EmbodiedTask | undefined>();
  for (const e of episodes) if (!tasks.has(e.itemHash)) tasks.set(e.itemHash, taskOfItem((await store.getItem(e.itemHash))!));
  const bySplit = new Map<string, StoredEpisode[]>();
  let unassigned = 0;
  for (const e of episodes) {
    const split = splitOf(tasks.get(e.itemHash), e.taskId, manifest);
    if (!split) {
      unassigned++;
      continue;
    }
    bySplit.set(split, [...(bySplit.get(split) ?? []), e]);
  }
  const rank = (s: string) => (s === 'standard' ? 0 : s === 'hard' ? 1 : 2);
  const splits = [...bySplit.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const metrics = new Map(splits.map((s) => [s, episodeMetrics(bySplit.get(s)!, k)]));
  const subjects = [...new Set(episodes.map((e) => e.subject))].sort();
  const rows: SplitRow[] = subjects.flatMap((subject) =>
    TABLE2_SCOPES.map((scope) => ({
      subject,
      scope,
      splits: Object.fromEntries(
        splits.map((split) => {
          const x = metrics
            .get(split)!
            .find((m) => m.subject === subject)
            ?.scopes.find((s) => s.scope === scope);
          return [split, x ? { tasks: x.tasks, runs: x.runs, functional: x.functional, literal: x.literal } : undefined];
        }),
      ),
    })),
  );
  const best: SplitResults['best'] = {};
  for (const split of splits) {
    const overall = rows.filter((r) => r.scope === 'overall' && r.splits[split]);
    const top = (family: 'functional' | 'literal') => {
      const v = (r: SplitRow) => r.splits[split]![family].passHatK ?? 0;
      const max = Math.max(0, ...overall.map(v));
      return max > 0 ? overall.filter((r) => v(r) === max).map((r) => r.subject) : [];
    };
    best[split] = { functional: top('functional'), literal: top('literal') };
  }
  return { runId, k, splits, rows, best, unassigned };
}
