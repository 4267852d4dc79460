// A stored run at a glance, as `mindscope runs` lists it and the viewer's Runs page shows it:
// its name, suites, each subject's accuracy, whether it is complete, partial or failed, its cost.

import { accuracyTable, accuracyTableFromCounts, cellOf, countsSuffice, type AccuracyTable } from '../analysis/index.js';
import { collect, PROTOCOL_SCORES, type RunRecord, type StatusRow, type Store } from '../store/index.js';

/**
 * complete: every planned trial done; failed: some subject has finished trials and none of them
 * gave a usable answer (each failed, or had its reply cut off by the output-token limit);
 * partial: anything else (trials pending or failed, to be run again).
 */
export type RunState = 'complete' | 'partial' | 'failed';

export interface SubjectOverview {
  spec: string;
  /** Accuracy over its scored trials (the mean of item means); null when none is scored. */
  accuracy: number | null;
  /** Items scored. */
  items: number;
  planned: number;
  done: number;
  failed: number;
  /** Done trials whose reply was cut off by the output-token limit. */
  truncated: number;
}

export interface RunOverview {
  id: string;
  name: string | null;
  createdAt: string;
  suites: string[];
  subjects: SubjectOverview[];
  trials: { planned: number; done: number; failed: number; pending: number };
  state: RunState;
  /** US dollars over the done trials; null when a call's price is unknown. */
  costUsd: number | null;
}

/** The subjects (specs) whose finished trials all failed or were cut off: none gave a usable answer. */
export function unusableSubjects(status: readonly StatusRow[]): string[] {
  const bySpec = new Map<string, { usable: number; lost: number }>();
  for (const r of status) {
    const s = bySpec.get(r.spec) ?? { usable: 0, lost: 0 };
    s.usable += r.done - r.truncated;
    s.lost += r.failed + r.truncated;
    bySpec.set(r.spec, s);
  }
  return [...bySpec].filter(([, s]) => s.usable === 0 && s.lost > 0).map(([spec]) => spec);
}

/** Accuracy over suites: from counts summed in the store where they suffice, else from one read of the responses. */
async function accuracyBySuite(store: Store, runId: string, doneTrials: number): Promise<AccuracyTable> {
  const counts = await store.accuracyCounts(runId);
  if (countsSuffice(counts, doneTrials)) return accuracyTableFromCounts(counts, 'suite');
  return accuracyTable(await collect(store.responses(runId, PROTOCOL_SCORES)), 'suite');
}

/** One run at a glance. */
export async function runOverview(store: Store, run: RunRecord): Promise<RunOverview> {
  const status = await store.status(run.id);
  const sum = (rows: readonly StatusRow[], k: 'planned' | 'done' | 'failed' | 'pending' | 'truncated') =>
    rows.reduce((n, r) => n + Number(r[k]), 0);
  const trials = {
    planned: sum(status, 'planned'),
    done: sum(status, 'done'),
    failed: sum(status, 'failed'),
    pending: sum(status, 'pending'),
  };
  const table = await accuracyBySuite(store, run.id, trials.done);
  const specs = [...new Set(status.map((r) => r.spec))];
  const subjects = specs.map((spec) => {
    const rows = status.filter((r) => r.spec === spec);
    const all = cellOf(table, spec, 'all');
    return {
      spec,
      accuracy: all ? all.accuracy : null,
      items: all?.items ?? 0,
      planned: sum(rows, 'planned'),
      done: sum(rows, 'done'),
      failed: sum(rows, 'failed'),
      truncated: sum(rows, 'truncated'),
    };
  });
  const usage = await store.usage(run.id);
  const state: RunState = unusableSubjects(status).length
    ? 'failed'
    : trials.planned > 0 && trials.done === trials.planned
      ? 'complete'
      : 'partial';
  return {
    id: run.id,
    name: run.name ?? null,
    createdAt: run.createdAt,
    suites: [...new Set(status.map((r) => r.suite))].sort(),
    subjects,
    trials,
    state,
    costUsd: usage.some((u) => u.costUsd === null) ? null : usage.reduce((n, u) => n + (u.costUsd ?? 0), 0),
  };
}

/** Every run of the store at a glance, newest first. */
export async function runOverviews(store: Store): Promise<RunOverview[]> {
  const out: RunOverview[] = [];
  for (const run of (await store.listRuns()).reverse()) out.push(await runOverview(store, run));
  return out;
}
