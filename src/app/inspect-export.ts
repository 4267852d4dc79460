// `mindscope export inspect`: a run as Inspect AI eval logs, one `.json` log per subject x suite
// (Inspect's unit: one model on one task), so `inspect view` and Inspect's log tooling open it.
// Each trial is a sample (id: the item id; epoch: replicate + 1), with the conversation, the
// output, the protocol's score as C/I (or its value when it is not 0/1) and every judge score.
// Results follow Inspect's metrics: per-sample scores reduced over epochs by their mean, then
// accuracy (the mean) and stderr (sample SD / sqrt(n)).
//
// Samples stream from the store into one spool file per log; each log is then written header
// first and its samples copied after, so memory holds per-item sums, never the transcripts.

import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, MCQ_RECORDS, readRecord, makeDirectory } from '../core/index.js';
import type { Store } from '../store/index.js';
import { callsToInspect } from './inspect-messages.js';
import type { InspectModelUsage, InspectSample } from './inspect-log-schema.js';
import { TextFileWriter } from './text-file-writer.js';
import { runTrialRows, type TrialRow } from './trial-rows.js';

/** The Inspect log format version written (EvalLog.version). */
export const INSPECT_LOG_VERSION = 2;

/** The model name Inspect shows: the subject spec with its provider separated by "/" as Inspect writes it. */
export function inspectModelName(spec: string): string {
  return spec.replace(':', '/');
}

/** A score value as Inspect's accuracy reads it: C / I for a 0/1 score, else the number. */
function inspectValue(v: number): string | number {
  return v === 1 ? 'C' : v === 0 ? 'I' : v;
}

function usageOf(r: TrialRow): InspectModelUsage {
  return {
    input_tokens: r.inputTokens,
    output_tokens: r.outputTokens,
    total_tokens: r.inputTokens + r.outputTokens,
    ...(r.reasoningTokens !== null ? { reasoning_tokens: r.reasoningTokens } : {}),
    ...(r.costUsd !== null ? { total_cost: r.costUsd } : {}),
  };
}

function addUsage(a: InspectModelUsage, b: InspectModelUsage): InspectModelUsage {
  const out: InspectModelUsage = {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
  if (a.reasoning_tokens != null || b.reasoning_tokens != null)
    out.reasoning_tokens = (a.reasoning_tokens ?? 0) + (b.reasoning_tokens ?? 0);
  // The cost is known only while every sample's is.
  if (a.total_cost != null && b.total_cost != null) out.total_cost = a.total_cost + b.total_cost;
  return out;
}

/** One trial as an Inspect sample. */
export function trialToSample(r: TrialRow): InspectSample {
  const model = inspectModelName(r.subject);
  const { input, messages } = callsToInspect(r.transcript?.calls ?? [], model);
  const usage = usageOf(r);
  const lastCall = r.transcript?.calls.at(-1)?.response;
  // Multiple-choice trials carry the options in the order presented (the target is their letter).
  const mcq = r.transcript
    ? readRecord(MCQ_RECORDS, r.transcript, `trial ${r.suite}/${r.itemId}#${r.replicate} of ${r.subject}`)
    : undefined;
  const scores: NonNullable<InspectSample['scores']> = {};
  if (r.scorer !== null && r.score !== null) {
    scores[r.scorer] = {
      value: inspectValue(r.score),
      answer: r.parsedAnswer,
      ...(r.parseFailed ? { explanation: 'the reply could not be read as an answer' } : {}),
      metadata: { gold: r.gold, parse_failed: r.parseFailed },
    };
  }
  for (const [scorer, value] of Object.entries(r.judgeScores)) {
    scores[scorer] = { value, metadata: { judges: r.judges.filter((j) => j.scorer === scorer) } };
  }
  return {
    id: r.itemId,
    epoch: r.replicate + 1,
    input: input.length ? input : `(item ${r.itemId}: no call was recorded${r.error ? `; the trial failed: ${r.error}` : ''})`,
    ...(mcq ? { choices: mcq.presented.map((o) => o.text) } : {}),
    target: r.gold ?? '',
    messages,
    output: {
      model,
      choices:
        r.reply !== null
          ? [
              {
                message: { role: 'assistant', content: r.reply, source: 'generate', model },
                stop_reason: lastCall?.truncated ? 'max_tokens' : 'stop',
              },
            ]
          : [],
      completion: r.reply ?? '',
      usage,
      time: r.latencyMs / 1000,
    },
    scores,
    metadata: {
      suite: r.suite,
      category: r.category,
      original_label: r.originalLabel,
      item_hash: r.itemHash,
      replicate: r.replicate,
      protocol: r.protocol,
      parse_failed: r.parseFailed,
      cached_calls: r.cachedCalls,
      calls: r.calls,
      // `time` is the interactive calls' latency; a batch's wait (submission to collection) is told apart.
      ...(r.batchLatencyMs > 0 ? { batch_latency_ms: r.batchLatencyMs } : {}),
    },
    model_usage: { [model]: usage },
    completed_at: r.finishedAt,
    total_time: r.latencyMs / 1000,
    ...(r.status === 'failed' ? { error: { message: r.error ?? 'failed', traceback: '', traceback_ansi: '' } } : {}),
  };
}

interface LogGroup {
  file: string;
  spool: string;
  subject: string;
  subjectId: string;
  suite: string;
  protocol: string | null;
  firstSample: boolean;
  buffer: string[];
  bufferedChars: number;
  total: number;
  completed: number;
  replicates: number;
  /** Per scorer, per item: the sum and count of its values (Inspect reduces epochs by their mean). */
  sums: Map<string, Map<string, { sum: number; n: number }>>;
  itemIds: Set<string>;
  usage: InspectModelUsage;
  completedAt: string;
}

/**
 * Samples a log keeps as text before they go to its spool: little, since text held longer
 * outlives the young generation's collections and the heap grows with the run.
 */
const SPOOL_CHARS = 1 << 16;
/** The spool is copied into its log this many bytes a read. */
const COPY_BYTES = 1 << 20;

function spoolFlush(g: LogGroup): void {
  if (g.buffer.length === 0) return;
  const out = new TextFileWriter(g.spool, true);
  try {
    for (const text of g.buffer) out.write(text);
  } finally {
    out.close();
  }
  g.buffer = [];
  g.bufferedChars = 0;
}

function metric(name: string, value: number) {
  return { name, value, params: {} };
}

function resultScores(g: LogGroup) {
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

function safeName(s: string): string {
  return s
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

export interface InspectExportResult {
  files: Array<{ path: string; subject: string; suite: string; samples: number }>;
}

/** Write a run as Inspect eval logs into DIR (one `.json` per subject x suite); returns the files written. */
export async function exportInspectLogs(store: Store, runId: string, dir: string): Promise<InspectExportResult> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError(`no run "${runId}" in ${store.location}`);
  makeDirectory(dir);
  const settings = new Map((await store.runSubjects(runId)).map((s) => [s.id, s.settings]));
  const pending = new Set((await store.status(runId)).filter((s) => s.pending > 0).map((s) => `${s.subjectId}\u0000${s.suite}`));
  const stamp = run.createdAt
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-')
    .replace('Z', '+00-00');
  const groups = new Map<string, LogGroup>();
  try {
    for await (const r of runTrialRows(store, runId)) {
      const key = `${r.subjectId}\u0000${r.suite}`;
      let g = groups.get(key);
      if (!g) {
        const file = join(dir, `${stamp}_${safeName(r.suite)}_${safeName(r.subject)}_${r.subjectId}.json`);
        g = {
          file,
          spool: `${file}.samples.tmp`,
          subject: r.subject,
          subjectId: r.subjectId,
          suite: r.suite,
          protocol: null,
          firstSample: true,
          buffer: [],
          bufferedChars: 0,
          total: 0,
          completed: 0,
          replicates: 0,
          sums: new Map(),
          itemIds: new Set(),
          usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0, total_cost: 0 },
          completedAt: '',
        };
        rmSync(g.spool, { force: true });
        groups.set(key, g);
      }
      const sample = trialToSample(r);
      const text = `${g.firstSample ? '' : ','}${JSON.stringify(sample)}`;
      g.firstSample = false;
      g.buffer.push(text);
      g.bufferedChars += text.length;
      if (g.bufferedChars > SPOOL_CHARS) spoolFlush(g);
      g.total++;
      g.itemIds.add(r.itemId);
      g.replicates = Math.max(g.replicates, r.replicate + 1);
      if (r.finishedAt > g.completedAt) g.completedAt = r.finishedAt;
      if (r.status !== 'done') continue;
      g.completed++;
      g.protocol ??= r.scorer;
      g.usage = addUsage(g.usage, usageOf(r));
      const values: Array<[string, number]> = [
        ...(r.scorer !== null && r.score !== null ? [[r.scorer, r.score] as [string, number]] : []),
        ...Object.entries(r.judgeScores),
      ];
      for (const [scorer, value] of values) {
        let byItem = g.sums.get(scorer);
        if (!byItem) g.sums.set(scorer, (byItem = new Map()));
        const c = byItem.get(r.itemId) ?? { sum: 0, n: 0 };
        c.sum += value;
        c.n++;
        byItem.set(r.itemId, c);
      }
    }
    const files: InspectExportResult['files'] = [];
    for (const g of groups.values()) {
      spoolFlush(g);
      const s = settings.get(g.subjectId) ?? {};
      const model = inspectModelName(g.subject);
      const header = {
        version: INSPECT_LOG_VERSION,
        status: pending.has(`${g.subjectId}\u0000${g.suite}`) ? 'started' : 'success',
        eval: {
          eval_id: `${runId}-${g.subjectId}-${g.suite}`,
          run_id: runId,
          created: run.createdAt,
          task: `mindscope/${g.suite}`,
          task_id: g.suite,
          task_version: 0,
          dataset: { name: g.suite, samples: g.itemIds.size, sample_ids: [...g.itemIds] },
          model,
          model_generate_config: {
            ...(typeof s.temperature === 'number' ? { temperature: s.temperature } : {}),
            ...(typeof s.maxTokens === 'number' ? { max_tokens: s.maxTokens } : {}),
            ...(typeof s.topP === 'number' ? { top_p: s.topP } : {}),
            ...(typeof s.seed === 'number' ? { seed: s.seed } : {}),
          },
          config: { epochs: g.replicates, epochs_reducer: ['mean'], fail_on_error: false },
          packages: { mindscope: '0.1.0' },
          metadata: { mindscope: { run_id: runId, subject: g.subject, subject_id: g.subjectId, suite: g.suite } },
        },
        plan: { name: 'plan', steps: [{ solver: `mindscope/${g.protocol ?? 'protocol'}`, params: {} }], config: {} },
        results: { total_samples: g.total, completed_samples: g.completed, scores: resultScores(g) },
        stats: { started_at: run.createdAt, completed_at: g.completedAt, model_usage: { [model]: g.usage } },
      };
      const head = JSON.stringify(header);
      const fd = openSync(g.file, 'w');
      try {
        writeSync(fd, `${head.slice(0, -1)},"samples":[`);
        const src = openSync(g.spool, 'a+');
        try {
          const chunk = Buffer.alloc(COPY_BYTES);
          for (let pos = 0; ; ) {
            const n = readSync(src, chunk, 0, chunk.length, pos);
            if (n === 0) break;
            writeSync(fd, chunk.subarray(0, n));
            pos += n;
          }
        } finally {
          closeSync(src);
        }
        writeSync(fd, ']}');
      } finally {
        closeSync(fd);
      }
      files.push({ path: g.file, subject: g.subject, suite: g.suite, samples: g.total });
    }
    return { files };
  } finally {
    for (const g of groups.values()) rmSync(g.spool, { force: true });
  }
}
