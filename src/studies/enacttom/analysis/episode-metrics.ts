// Metrics of embodied episodes, as the EnactToM paper reports them: per subject and scope
// (overall, cooperative, mixed, each K-depth), functional and literal Avg (mean per-run success
// with its binomial standard error over the fixed attempts, and beside it a 95% interval that
// counts tasks, since a task's runs are not independent), Pass@k (some run of a task
// succeeds) and Pass^k (all k runs succeed), over tasks with at least k runs; a literal run
// succeeds when every probe is answered right. The act-versus-report gap is literal Avg minus
// functional Avg, per task and on average. Probes ask what a partner thinks; those whose right
// answer is not what the world shows (the partner's belief false or missing) get their own
// accuracy: an agent that reports the world instead of its partner's mind scores 0 on them.

import { clusteredWilsonInterval, passAtK, passHatK } from '../../../stats/index.js';

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

export interface RateSummary {
  avg: number;
  /** The paper's binomial standard error over the runs (runs of one task taken as independent). */
  se: number;
  /**
   * A 95% interval that counts tasks, not runs: the runs of one task are not independent, so
   * this is the design-effect Wilson interval with tasks as clusters (one run per task: Wilson).
   */
  lower: number;
  upper: number;
  passAtK: number | null;
  passHatK: number | null;
}

export interface ScopeMetrics {
  scope: string;
  tasks: number;
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

function rates(trials: EpisodeTrial[], pick: (t: EpisodeTrial) => boolean, k: number): RateSummary {
  const n = trials.length;
  const avg = n ? trials.filter(pick).length / n : Number.NaN;
  const byTask = new Map<string, EpisodeTrial[]>();
  for (const t of trials) byTask.set(t.taskId, [...(byTask.get(t.taskId) ?? []), t]);
  const full = [...byTask.values()]
    .filter((runs) => runs.length >= k)
    .map((runs) => runs.sort((a, b) => a.replicate - b.replicate).slice(0, k));
  const at = full.map((runs) => passAtK(k, runs.filter(pick).length, k));
  const hat = full.map((runs) => passHatK(k, runs.filter(pick).length, k));
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  const interval = clusteredWilsonInterval(
    [...byTask.values()].map((runs) => ({ sum: runs.filter(pick).length, trials: runs.length })),
    { weighting: 'trial' },
  );
  return {
    avg,
    se: n ? Math.sqrt((avg * (1 - avg)) / n) : Number.NaN,
    lower: interval.lower,
    upper: interval.upper,
    passAtK: mean(at),
    passHatK: mean(hat),
  };
}

/** Functional and literal success, probe accuracy and the act-report gap of one subject's episodes, by scope. */
export function episodeMetrics(trials: EpisodeTrial[], k = 3): SubjectEpisodeMetrics[] {
  const subjects = [...new Set(trials.map((t) => t.subject))].sort();
  return subjects.map((subject) => {
    const mine = trials.filter((t) => t.subject === subject);
    const depths = [...new Set(mine.map((t) => t.kDepth))].sort((a, b) => a - b);
    const scopes: Array<[string, EpisodeTrial[]]> = [
      ['overall', mine],
      ['cooperative', mine.filter((t) => t.category === 'cooperative')],
      ['mixed', mine.filter((t) => t.category === 'mixed')],
      ...depths.map((d): [string, EpisodeTrial[]] => [`depth ${d}`, mine.filter((t) => t.kDepth === d)]),
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
        .filter(([, ts]) => ts.length > 0)
        .map(([scope, ts]) => {
          const functional = rates(ts, (t) => t.functional, k);
          // Tasks without K goals have no probes: they take no part in literal rates.
          const literal = rates(
            ts.filter((t) => t.probesTotal > 0),
            (t) => t.literal,
            k,
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
