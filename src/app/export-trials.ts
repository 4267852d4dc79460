// `mindscope export trials`: one row per trial (see trial-rows.ts) as JSON Lines or Parquet.
// Both are written as the rows stream out of the store: JSONL line by line (trial-json-line.ts,
// through one reused buffer), Parquet one row group per batch, so memory stays bounded by a batch.
// Columns are snake_case; in Parquet the nested ones (messages, judge_scores, judges, context_truncation) are JSON text.

import { ConfigError } from '../core/index.js';
import type { Store } from '../store/index.js';
import { TextFileWriter } from './text-file-writer.js';
import { TrialJsonLines } from './trial-json-line.js';
import { runTrialRowBatches, type TrialRow } from './trial-rows.js';

type ColumnType = 'STRING' | 'JSON' | 'INT32' | 'DOUBLE' | 'BOOLEAN';

/** The exported columns in order: name, Parquet type and the row field. */
const COLUMNS: Array<[string, ColumnType, (r: TrialRow) => unknown]> = [
  ['run_id', 'STRING', (r) => r.runId],
  ['subject', 'STRING', (r) => r.subject],
  ['subject_id', 'STRING', (r) => r.subjectId],
  ['suite', 'STRING', (r) => r.suite],
  ['item_id', 'STRING', (r) => r.itemId],
  ['item_hash', 'STRING', (r) => r.itemHash],
  ['category', 'STRING', (r) => r.category],
  ['original_label', 'STRING', (r) => r.originalLabel],
  ['replicate', 'INT32', (r) => r.replicate],
  ['status', 'STRING', (r) => r.status],
  ['error', 'STRING', (r) => r.error],
  ['protocol', 'STRING', (r) => r.protocol],
  ['messages', 'JSON', (r) => r.messages],
  ['reply', 'STRING', (r) => r.reply],
  ['reasoning', 'STRING', (r) => r.reasoning],
  ['reasoning_tokens', 'INT32', (r) => r.reasoningTokens],
  ['parsed_answer', 'STRING', (r) => r.parsedAnswer],
  ['gold', 'STRING', (r) => r.gold],
  ['scorer', 'STRING', (r) => r.scorer],
  ['score', 'DOUBLE', (r) => r.score],
  ['parse_failed', 'BOOLEAN', (r) => r.parseFailed],
  ['judge_scores', 'JSON', (r) => r.judgeScores],
  ['judges', 'JSON', (r) => r.judges],
  ['input_tokens', 'INT32', (r) => r.inputTokens],
  ['output_tokens', 'INT32', (r) => r.outputTokens],
  ['cost_usd', 'DOUBLE', (r) => r.costUsd],
  ['latency_ms', 'DOUBLE', (r) => r.latencyMs],
  ['batch_latency_ms', 'DOUBLE', (r) => r.batchLatencyMs],
  ['calls', 'INT32', (r) => r.calls],
  ['cached_calls', 'INT32', (r) => r.cachedCalls],
  ['truncated_calls', 'INT32', (r) => r.truncatedCalls],
  ['context_truncation', 'JSON', (r) => r.contextTruncation],
  ['attempts', 'INT32', (r) => r.attempts],
  ['finished_at', 'STRING', (r) => r.finishedAt],
];

/** The names of the exported columns, in file order (trialRecord's keys). */
export const TRIAL_COLUMNS: readonly string[] = COLUMNS.map(([name]) => name);

/** A trial row as the exported object (snake_case keys, nested values kept as values), keys in file order. */
export function trialRecord(r: TrialRow): Record<string, unknown> {
  return {
    run_id: r.runId,
    subject: r.subject,
    subject_id: r.subjectId,
    suite: r.suite,
    item_id: r.itemId,
    item_hash: r.itemHash,
    category: r.category,
    original_label: r.originalLabel,
    replicate: r.replicate,
    status: r.status,
    error: r.error,
    protocol: r.protocol,
    messages: r.messages,
    reply: r.reply,
    reasoning: r.reasoning,
    reasoning_tokens: r.reasoningTokens,
    parsed_answer: r.parsedAnswer,
    gold: r.gold,
    scorer: r.scorer,
    score: r.score,
    parse_failed: r.parseFailed,
    judge_scores: r.judgeScores,
    judges: r.judges,
    input_tokens: r.inputTokens,
    output_tokens: r.outputTokens,
    cost_usd: r.costUsd,
    latency_ms: r.latencyMs,
    batch_latency_ms: r.batchLatencyMs,
    calls: r.calls,
    cached_calls: r.cachedCalls,
    truncated_calls: r.truncatedCalls,
    context_truncation: r.contextTruncation,
    attempts: r.attempts,
    finished_at: r.finishedAt,
  };
}

const BATCH = 1000;

/** A batch of rows written as lines (a function of its own, out of the async loop); returns their number. */
function writeLines(out: TextFileWriter, lines: TrialJsonLines, rows: readonly TrialRow[]): number {
  for (const r of rows) lines.write(out, r, trialRecord);
  return rows.length;
}

async function writeJsonl(batches: AsyncIterable<TrialRow[]>, path: string): Promise<number> {
  const out = new TextFileWriter(path);
  const lines = new TrialJsonLines();
  let n = 0;
  try {
    for await (const rows of batches) n += writeLines(out, lines, rows);
  } finally {
    out.close();
  }
  return n;
}

function columnData(batch: TrialRow[]) {
  return COLUMNS.map(([name, type, get]) => ({
    name,
    type,
    data: batch.map((r) => {
      const v = get(r);
      return type === 'JSON' ? JSON.stringify(v) : (v ?? null);
    }),
  }));
}

async function writeParquet(batches: AsyncIterable<TrialRow[]>, path: string): Promise<number> {
  // Loaded for Parquet only: a JSONL export does without it.
  const { fileWriter, ParquetWriter, schemaFromColumnData } = await import('hyparquet-writer');
  const writer = new ParquetWriter({
    writer: fileWriter(path),
    // JSON columns hold text: STRING keeps the file readable by every Parquet reader.
    schema: schemaFromColumnData({
      columnData: COLUMNS.map(([name, type]) => ({ name, type: type === 'JSON' ? 'STRING' : type, data: [] })),
    }),
  });
  let batch: TrialRow[] = [];
  let n = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const data = columnData(batch).map((c) => ({ ...c, type: undefined }));
    await writer.write({ columnData: data, rowGroupSize: batch.length });
    n += batch.length;
    batch = [];
  };
  for await (const rows of batches) {
    for (const r of rows) {
      batch.push(r);
      if (batch.length >= BATCH) await flush();
    }
  }
  await flush();
  await writer.finish();
  return n;
}

/** Export every trial of a run to FILE.jsonl or FILE.parquet; returns the number of rows written. */
export async function exportTrials(store: Store, runId: string, path: string): Promise<{ rows: number }> {
  if (!(await store.getRun(runId))) throw new ConfigError(`no run "${runId}" in ${store.location}`);
  const rows = runTrialRowBatches(store, runId);
  if (path.endsWith('.jsonl')) return { rows: await writeJsonl(rows, path) };
  if (path.endsWith('.parquet')) return { rows: await writeParquet(rows, path) };
  throw new ConfigError(`${path}: the output must end in .jsonl or .parquet`);
}
