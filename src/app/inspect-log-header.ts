// The header of an Inspect eval log (everything before its samples: eval, plan, results, stats),
// tallied from a run's trials as their samples are written, and put before them once the last is.
// The tally keeps per-item sums, never the trials.

import type { RunRecord } from '../store/index.js';
import type { TrialRow } from './trial-rows.js';
import type { InspectModelUsage } from './inspect-log-schema.js';

/** The Inspect log format version written (EvalLog.version). */
export const INSPECT_LOG_VERSION = 2;

/** The model name Inspect shows: the subject spec with its provider separated by "/" as Inspect writes it. */
export function inspectModelName(spec: string): string {
  return spec.replace(':', '/');
}

/** One log's tally: one subject on one suite. */
export interface LogTally {
  subject: string;
  subjectId: string;
  suite: string;
  protocol: string | null;
  total: number;
  completed: number;
  replicates: number;
  /** Per scorer, per item: the sum and count of its values (Inspect reduces epochs by their mean). */
  sums: Map<string, Map<string, { sum: number; n: number }>>;
  itemIds: Set<string>;
  inputTokens: number;
  outputTokens: number;
  /** Null once a done trial has no price (the cost is known only while every sample's is). */
  costUsd: number | null;
  /** Summed over the done trials that report them (from their transcripts: the samples' pass adds them); null: none did. */
  reasoningTokens: number | null;
  completedAt: string;
}

export function newTally(subject: string, subjectId: string, suite: string): LogTally {
  return {
    subject,
    subjectId,
    suite,
    protocol: null,
    total: 0,
    completed: 0,
    replicates: 0,
    sums: new Map(),
    itemIds: new Set(),
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    reasoningTokens: null,
    completedAt: '',
  };
}

/** What the tally reads of a trial (a trial row's fields: an unpriced trial's cost is null). */
export type TalliedTrial = Pick<
  TrialRow,
  'itemId' | 'replicate' | 'finishedAt' | 'status' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'scorer' | 'score' | 'judgeScores'
>;

/** Add one trial (in the order the run stored them: the sums are of floating-point values). */
export function tallyTrial(g: LogTally, t: TalliedTrial): void {
  g.total++;
  g.itemIds.add(t.itemId);
  g.replicates = Math.max(g.replicates, t.replicate + 1);
  if (t.finishedAt > g.completedAt) g.completedAt = t.finishedAt;
  if (t.status !== 'done') return;
  g.completed++;
  g.protocol ??= t.scorer;
  g.inputTokens += t.inputTokens;
  g.outputTokens += t.outputTokens;
  g.costUsd = g.costUsd !== null && t.costUsd !== null ? g.costUsd + t.costUsd : null;
  if (t.scorer !== null && t.score !== null) addScore(g, t.scorer, t.itemId, t.score);
  // Later scores by scorer name, as a sample's scores hold them (a name scored twice: its last value).
  for (const scorer in t.judgeScores) addScore(g, scorer, t.itemId, t.judgeScores[scorer]!);
}

function addScore(g: LogTally, scorer: string, itemId: string, value: number): void {
  let byItem = g.sums.get(scorer);
  if (!byItem) g.sums.set(scorer, (byItem = new Map()));
  const c = byItem.get(itemId);
  if (c) {
    c.sum += value;
    c.n++;
  } else byItem.set(itemId, { sum: value, n: 1 });
}

function metric(name: string, value: number) {
  return { name, value, params: {} };
}

function resultScores(g: LogTally) {
  return [...g.sums].map(([scorer, byItem]) => {
    const values = [...byItem.values()].map((c) => c.sum / c.n);
    const n = values.length;
    const mean = n ? values.reduce((a, b) => a + b, 0) / n : 0;
    const sd = n > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1)) : 0;
    const metricName = scorer === g.protocol ? 'accuracy' : 'mean';
    return {
      name: scorer,
      scorer,
      ...(g.replicates > 1 ? { reducer: 'mean' } : {}),
      scored_samples: n,
      unscored_samples: g.itemIds.size - n,
      params: {},
      metrics: { [metricName]: metric(metricName, mean), stderr: metric('stderr', n ? sd / Math.sqrt(n) : 0) },
    };
  });
}

/** Token counts and cost as Inspect's model usage: a trial's (its sample) or a log's tally (its stats). */
export function inspectUsage(g: {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number | null;
  costUsd: number | null;
}): InspectModelUsage {
  return {
    input_tokens: g.inputTokens,
    output_tokens: g.outputTokens,
    total_tokens: g.inputTokens + g.outputTokens,
    ...(g.reasoningTokens !== null ? { reasoning_tokens: g.reasoningTokens } : {}),
    ...(g.costUsd !== null ? { total_cost: g.costUsd } : {}),
  };
}

/**
 * A subject's generation settings as Inspect's GenerateConfig: those of a subject imported from
 * an Inspect log as the log gave them (its names), a mindscope subject's under Inspect's names.
 */
function generateConfig(s: Record<string, unknown>): Record<string, unknown> {
  if (s.source === 'inspect') {
    const { source: _source, model: _model, ...config } = s;
    return config;
  }
  return {
    ...(typeof s.temperature === 'number' ? { temperature: s.temperature } : {}),
    ...(typeof s.maxTokens === 'number' ? { max_tokens: s.maxTokens } : {}),
    ...(typeof s.topP === 'number' ? { top_p: s.topP } : {}),
    ...(typeof s.seed === 'number' ? { seed: s.seed } : {}),
  };
}

/** A log's JSON text up to its samples: the header object opened for a last `samples` field, `"samples":[` included. */
export function logHead(g: LogTally, run: RunRecord, settings: Record<string, unknown>, started: boolean): string {
  const model = inspectModelName(g.subject);
  const header = {
    version: INSPECT_LOG_VERSION,
    status: started ? 'started' : 'success',
    eval: {
      eval_id: `${run.id}-${g.subjectId}-${g.suite}`,
      run_id: run.id,
      created: run.createdAt,
      task: `mindscope/${g.suite}`,
      task_id: g.suite,
      task_version: 0,
      dataset: { name: g.suite, samples: g.itemIds.size, sample_ids: [...g.itemIds] },
      model,
      model_generate_config: generateConfig(settings),
      config: { epochs: g.replicates, epochs_reducer: ['mean'], fail_on_error: false },
      packages: { mindscope: '0.1.0' },
      metadata: { mindscope: { run_id: run.id, subject: g.subject, subject_id: g.subjectId, suite: g.suite } },
    },
    plan: { name: 'plan', steps: [{ solver: `mindscope/${g.protocol ?? 'protocol'}`, params: {} }], config: {} },
    results: { total_samples: g.total, completed_samples: g.completed, scores: resultScores(g) },
    stats: { started_at: run.createdAt, completed_at: g.completedAt, model_usage: { [model]: inspectUsage(g) } },
  };
  const head = JSON.stringify(header);
  return `${head.slice(0, -1)},"samples":[`;
}
