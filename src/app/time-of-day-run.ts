// A stored run by time of day: its trials (the protocol's score, or another scorer's), grouped by
// the slots of its repeat schedule when it was queued with one, else by the hour they finished in.

import { MindscopeError } from '../core/index.js';
import { groupByTimeOfDay, type TimedTrial, type TimeOfDayResult } from '../analysis/index.js';
import type { Store } from '../store/index.js';
import { runSchedule } from './enqueue.js';
import { runTrialRows } from './trial-rows.js';

/** A run's results by time of day (`scorer`: a judge or re-scorer's name; default the protocol's score). */
export async function timeOfDayAnalysis(
  store: Store,
  runId: string,
  opts: { scorer?: string } = {},
): Promise<TimeOfDayResult & { schedule: Awaited<ReturnType<typeof runSchedule>> | null }> {
  const trials: TimedTrial[] = [];
  for await (const r of runTrialRows(store, runId)) {
    const score = opts.scorer === undefined ? r.score : (r.judgeScores[opts.scorer] ?? null);
    trials.push({ subject: r.subject, replicate: r.replicate, score, finishedAt: r.finishedAt });
  }
  if (trials.length === 0) throw new MindscopeError(`run ${runId} has no trials`);
  if (opts.scorer !== undefined && trials.every((t) => t.score === null))
    throw new MindscopeError(`run ${runId} has no trial scored by "${opts.scorer}"`);
  const schedule = (await runSchedule(store, runId)) ?? null;
  return { ...groupByTimeOfDay(trials, schedule?.slots), schedule };
}
