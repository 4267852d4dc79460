// Metrics of embodied episodes, as the EnactToM paper reports them: per subject and scope
// (overall, cooperative, mixed, each K-depth), functional and literal Avg (mean per-run success
// with its binomial standard error over the runs made, and beside it a 95% interval that counts
// tasks, since a task's runs are not independent), Pass@k (some run of a task succeeds) and
// Pass^k (all k runs succeed) over k planned attempts per task, a missing attempt (failed or
// never run) counted as a non-pass, with the estimate over the attempts made beside them
// (pass-over-planned.ts); a literal run succeeds when every probe is answered right. The
// act-versus-report gap is literal Avg minus functional Avg, per task and on average. Probes ask
// what a partner thinks; those whose right answer is not what the world shows (the partner's
// belief false or missing) get their own accuracy: an agent that reports the world instead of
// its partner's mind scores 0 on them.

import { clusteredWilsonInterval } from '../../../stats/index.js';
import { passOverPlanned, type PassSummary } from './pass-over-planned.js';

export interface EpisodeTrial {
  subject: string;
  taskId: string;
  replicate: number;
  category: string;
  kDepth: number;
  functional: boolean;
  literal: boolean;
  probesCorrect: number;
  probesTotal: number;
  /** Probes whose right answer is not the world's, and how many of them were answered right. */
  divergentCorrect?: number;
  divergentTotal?: number;
  /** Stored with the earlier self-fact probes: no literal outcome (probesTotal 0). */
  legacyProbes?: boolean;
}

export interface RateSummary extends PassSummary {
  /** Mean success over the runs made. */
  avg: number;
  /** The paper's binomial standard error over the runs (runs of one task taken as independent). */
  se: number;
  /**
   * A 95% interval that counts tasks, not runs: the runs of one task are not independent, so
   * this is the design-effect Wilson interval with tasks as clusters (one run per task: Wilson).
   */
  lower: number;
  upper: number;
}

/** A task planned for a subject, as the run's stored item gives it. */
export interface PlannedTask {
  taskId: string;
  category: string;
  kDepth: number;
  /** Its episodes have literal probes (it takes part in the literal rates). */
  probed: boolean;
}

/** What a subject was planned to run: its tasks (k attempts each), and the failed trials among them. */
export interface SubjectPlan {
  tasks: PlannedTask[];
  /** Tasks planned that no trial of the run reached: all their attempts missing (counted in the overall scope). */
  unstarted: number;
  /** Failed trials, as `taskId#replicate`. */
  failed: Set<string>;
}

export interface ScopeMetrics {
  scope: string;
  /** Tasks with a run made (the planned ones: functional.attempts.tasks). */
  tasks: number;
  /** Runs made. */
  runs: number;
  functional: RateSummary;
  literal: RateSummary;
  /** Share of probes answered right over all runs. */
  probeAccuracy: number | null;
  /** Share answered right of the probes whose right answer is not what the world shows. */
  divergentAccuracy: number | null;
  /** Probes whose right answer is not what the world shows. */
  divergentProbes: number;
  /** Runs stored with the earlier self-fact probes, left out of the literal rates. */
  legacyRuns: number;
  /** Literal Avg minus functional Avg. */
  gap: number;
}

export interface SubjectEpisodeMetrics {
  subject: string;
  k: number;
  scopes: ScopeMetrics[];
  /** Tasks where the subject reports better than it acts (literal > functional rate). */
  actReportGapTasks: number;
}

function rates(
  trials: EpisodeTrial[],
  pick: (t: EpisodeTrial) => boolean,
  k: number,
  planned: string[],
  plan: Pick<SubjectPlan, 'unstarted' | 'failed'>,
): RateSummary {
  const n = trials.length;
  const avg = n ? trials.filter(pick).length / n : Number.NaN;
  const byTask = new Map<string, EpisodeTrial[]>();
  for (const t of trials) byTask.set(t.taskId, [...(byTask.get(t.taskId) ?? []), t]);
  const interval = clusteredWilsonInterval(
    [...byTask.values()].map((runs) => ({ sum: runs.filter(pick).length, trials: runs.length })),
    { weighting: 'trial' },
  );
  const pass = passOverPlanned(
    [...new Set([...planned, ...byTask.keys()])].map((taskId) => ({
      taskId,
      attempts: (byTask.get(taskId) ?? []).map((t) => ({ replicate: t.replicate, pass: pick(t) })),
    })),
    k,
    { unstarted: plan.unstarted, failed: (taskId, r) => plan.failed.has(`${taskId}#${r}`) },
  );
  return { avg, se: n ? Math.sqrt((avg * (1 - avg)) / n) : Number.NaN, lower: interval.lower, upper: interval.upper, ...pass };
}

/** The plan a subject's stored episodes imply by themselves: the tasks they ran, nothing failed or unstarted. */
function planOfTrials(trials: EpisodeTrial[]): SubjectPlan {
  const tasks = new Map<string, PlannedTask>();
  for (const t of trials) {
    const known = tasks.get(t.taskId);
    tasks.set(t.taskId, {
      taskId: t.taskId,
      category: t.category,
      kDepth: t.kDepth,
      probed: (known?.probed ?? false) || t.probesTotal > 0,
    });
  }
  return { tasks: [...tasks.values()], unstarted: 0, failed: new Set() };
}

/**
 * Functional and literal success, probe accuracy and the act-report gap of each subject's
 * episodes, by scope. `plans` (from the store: episode-attempts.ts) give each subject's planned
 * tasks, those no trial reached and the failed trials, so that Pass@k and Pass^k count every
 * planned attempt; without it, the tasks are those the episodes ran.
 */
export function episodeMetrics(trials: EpisodeTrial[], k = 3, plans?: ReadonlyMap<string, SubjectPlan>): SubjectEpisodeMetrics[] {
  const subjects = [...new Set([...trials.map((t) => t.subject), ...(plans?.keys() ?? [])])].sort();
  return subjects.map((subject) => {
    const mine = trials.filter((t) => t.subject === subject);
    const own = planOfTrials(mine);
    const given = plans?.get(subject);
    const plan: SubjectPlan = given
      ? { ...given, tasks: [...given.tasks, ...own.tasks.filter((t) => !given.tasks.some((g) => g.taskId === t.taskId))] }
      : own;
    const depths = [...new Set(plan.tasks.map((t) => t.kDepth))].sort((a, b) => a - b);
    const scopes: Array<[string, (t: { category: string; kDepth: number }) => boolean, number]> = [
      ['overall', () => true, plan.unstarted],
      ['cooperative', (t) => t.category === 'cooperative', 0],
      ['mixed', (t) => t.category === 'mixed', 0],
      ...depths.map((d): [string, (t: { kDepth: number }) => boolean, number] => [`depth ${d}`, (t) => t.kDepth === d, 0]),
    ];
    const byTask = new Map<string, EpisodeTrial[]>();
    for (const t of mine) byTask.set(t.taskId, [...(byTask.get(t.taskId) ?? []), t]);
    const gapTasks = [...byTask.values()].filter(
      (runs) => runs.filter((r) => r.literal).length > runs.filter((r) => r.functional).length,
    ).length;
    return {
      subject,
      k,
      actReportGapTasks: gapTasks,
      scopes: scopes
        .map(([scope, inScope, unstarted]) => ({ scope, unstarted, tasks: plan.tasks.filter(inScope), ts: mine.filter(inScope) }))
        .filter((x) => x.tasks.length + x.unstarted > 0)
        .map(({ scope, unstarted, tasks, ts }) => {
          const rest = { unstarted, failed: plan.failed };
          const functional = rates(
            ts,
            (t) => t.functional,
            k,
            tasks.map((t) => t.taskId),
            rest,
          );
          // Tasks without K goals have no probes: they take no part in literal rates.
          const literal = rates(
            ts.filter((t) => t.probesTotal > 0),
            (t) => t.literal,
            k,
            tasks.filter((t) => t.probed).map((t) => t.taskId),
            rest,
          );
          const probes = ts.reduce((s, t) => s + t.probesTotal, 0);
          const divergent = ts.reduce((s, t) => s + (t.divergentTotal ?? 0), 0);
          return {
            scope,
            tasks: new Set(ts.map((t) => t.taskId)).size,
            runs: ts.length,
            functional,
            literal,
            probeAccuracy: probes ? ts.reduce((s, t) => s + t.probesCorrect, 0) / probes : null,
            divergentAccuracy: divergent ? ts.reduce((s, t) => s + (t.divergentCorrect ?? 0), 0) / divergent : null,
            divergentProbes: divergent,
            legacyRuns: ts.filter((t) => t.legacyProbes).length,
            gap: literal.avg - functional.avg,
          };
        }),
    };
  });
}
