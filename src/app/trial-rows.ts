// One row per trial of a run, with everything a reader of transcripts needs: the messages sent,
// the reply, reasoning, the parsed and gold answers, every score (the protocol's and each
// judge's) and the trial's usage. Rows are streamed from the store page by page, and items are
// read once each (only the few fields a row needs are kept), so a run of any size is exported
// in bounded memory.

import { z } from 'zod';
import {
  type ChatMessage,
  type ContextTruncation,
  INSPECT_RECORDS,
  type Item,
  JudgeDetailSchema,
  MindscopeError,
  protocolOf,
  readRecord,
  readScoreDetail,
  type StoredTranscript,
} from '../core/index.js';
import type { RunTrial, Store } from '../store/index.js';
import type { ProtocolModule } from '../protocols/index.js';
import { defaultProtocols } from './default-protocols.js';
import { conversationPrompts } from './inspect-messages.js';
import { readStoredTranscript } from './stored-transcript-check.js';
import { trialAnswer, type TrialAnswer } from './trial-answer.js';

/** One judge's reading of a trial (a panel member), as its score detail stores it. */
export interface TrialJudgeRow {
  scorer: string;
  rubric: string;
  rubricSha256: string;
  judge: string;
  /** StoryTurn panels judge each open turn; null for single-response panels. */
  turn: number | null;
  values: Record<string, number> | null;
  error: string | null;
}

export interface TrialRow {
  runId: string;
  subject: string;
  subjectId: string;
  suite: string;
  itemId: string;
  itemHash: string;
  category: string;
  originalLabel: string;
  replicate: number;
  status: 'done' | 'failed';
  error: string | null;
  protocol: string | null;
  /** The messages of each chat call, in call order (one list for a single-call protocol). */
  messages: ChatMessage[][];
  reply: string | null;
  reasoning: string | null;
  reasoningTokens: number | null;
  parsedAnswer: string | null;
  gold: string | null;
  /** The protocol's score (the trial's first), null for a failed trial. */
  scorer: string | null;
  score: number | null;
  parseFailed: boolean | null;
  /** Every later score (judge panels, re-scorers) by scorer name. */
  judgeScores: Record<string, number>;
  judges: TrialJudgeRow[];
  inputTokens: number;
  outputTokens: number;
  /** US dollars; null when a call's price is unknown. */
  costUsd: number | null;
  latencyMs: number;
  /** The batch-answered calls' wait, submission to collection (0: none), kept apart from latencyMs. */
  batchLatencyMs: number;
  calls: number;
  cachedCalls: number;
  truncatedCalls: number;
  /** What left truncation to the context window cut from each call's prompt (calls that were cut; empty: none). */
  contextTruncation: ContextTruncation[];
  attempts: number;
  finishedAt: string;
  /** The parsed transcript the row was read from (not an exported column); null for a failed trial. */
  transcript: StoredTranscript | null;
}

interface ItemFields {
  category: string;
  originalLabel: string;
  answer: string;
}

const ParseFailedSchema = z.object({ parseFailed: z.boolean() });

/** parseFailed of short score details' texts, by the text: an MCQ's score details repeat (a few texts for a run). */
const parseFailedOf = new Map<string, boolean | null>();
const REMEMBERED_DETAIL_CHARS = 256;

function parseFailed(detail: string, where: () => string): boolean | null {
  let v = parseFailedOf.get(detail);
  if (v === undefined) {
    v = readScoreDetail(ParseFailedSchema, parseJson(detail, where))?.parseFailed ?? null;
    if (detail.length <= REMEMBERED_DETAIL_CHARS) {
      if (parseFailedOf.size >= 10_000) parseFailedOf.clear();
      parseFailedOf.set(detail, v);
    }
  }
  return v;
}

function judgeRows(scorer: string, detail: unknown): TrialJudgeRow[] {
  const d = readScoreDetail(JudgeDetailSchema, detail);
  if (!d) return [];
  const rubric = { scorer, rubric: d.rubric.name, rubricSha256: d.rubric.sha256 };
  const panel = (judges: Array<{ judge: string; values: Record<string, number> | null; error?: string }>, turn: number | null) =>
    judges.map((j) => ({ ...rubric, judge: j.judge, turn, values: j.values, error: j.error ?? null }));
  if ('judges' in d) return panel(d.judges, null);
  return d.turns.flatMap((t) => (t.panel ? panel(t.panel.judges, t.turn) : []));
}

function parseJson(text: string, where: () => string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new MindscopeError(`${where()}: stored JSON does not parse: ${(err as Error).message}`);
  }
}

/**
 * The message lists of a transcript's chat calls, in call order; those of a trial imported from an
 * Inspect log (its conversation kept whole) as each reply's conversation before it.
 */
function chatMessages(tr: StoredTranscript, where: () => string): ChatMessage[][] {
  const out: ChatMessage[][] = [];
  for (const c of tr.calls) if (c.kind === 'chat' && c.messages) out.push(c.messages);
  if (out.length > 0 || tr.calls.length > 0) return out;
  const imported = readRecord(INSPECT_RECORDS, tr, where);
  return imported ? conversationPrompts(imported.messages, imported.generated) : out;
}

/** What truncation to the context window cut from each call's prompt (calls that were cut). */
function contextTruncations(tr: StoredTranscript | null): ContextTruncation[] {
  const out: ContextTruncation[] = [];
  if (tr) for (const c of tr.calls) if (c.response?.contextTruncation) out.push(c.response.contextTruncation);
  return out;
}

/** A stored trial as a row; `spec` is its subject's spec, `item` the fields read from its item. */
function toRow(
  t: RunTrial,
  spec: string,
  item: ItemFields,
  protocols: readonly ProtocolModule[],
  records: ReadonlyArray<ProtocolModule['records']>,
): TrialRow {
  // The trial's name, made only for an error.
  const where = () => `trial ${t.suite}/${t.itemId}#${t.replicate} of ${spec} in run ${t.runId}`;
  let messages: ChatMessage[][] = [];
  let answer: TrialAnswer | undefined;
  let protocol: string | null = null;
  let transcript: StoredTranscript | null = null;
  if (t.transcript !== null) {
    const parsed = readStoredTranscript(t.transcript);
    if (!parsed.success) throw new MindscopeError(`${where()}: the transcript does not parse: ${parsed.error.issues[0]?.message ?? ''}`);
    const tr = parsed.data;
    transcript = tr;
    protocol = protocolOf(tr, records);
    messages = chatMessages(tr, where);
    answer = trialAnswer(tr, where, protocols);
  }
  const scores = t.scores;
  const first = scores[0];
  const later = scores.length > 1 ? scores.slice(1) : [];
  const judgeScores: Record<string, number> = later.length ? Object.fromEntries(later.map((s) => [s.scorer, s.value])) : {};
  const judges = later.length ? later.flatMap((s) => judgeRows(s.scorer, parseJson(s.detail, where))) : [];
  return {
    runId: t.runId,
    subject: spec,
    subjectId: t.subjectId,
    suite: t.suite,
    itemId: t.itemId,
    itemHash: t.itemHash,
    category: item.category,
    originalLabel: item.originalLabel,
    replicate: t.replicate,
    status: t.status,
    error: t.error,
    protocol,
    messages,
    reply: answer ? answer.reply : null,
    reasoning: answer ? answer.reasoning : null,
    reasoningTokens: answer ? answer.reasoningTokens : null,
    parsedAnswer: answer ? answer.parsed : null,
    gold: (answer ? answer.gold : null) ?? (t.status === 'done' ? item.answer : null),
    scorer: first?.scorer ?? null,
    score: first?.value ?? null,
    parseFailed: first ? parseFailed(first.detail, where) : null,
    judgeScores,
    judges,
    inputTokens: t.inputTokens,
    outputTokens: t.outputTokens,
    costUsd: t.unpricedCalls > 0 ? null : t.costUsd,
    latencyMs: t.latencyMs,
    batchLatencyMs: t.batchLatencyMs ?? 0,
    calls: t.totalCalls,
    cachedCalls: t.cachedCalls,
    truncatedCalls: t.truncatedCalls,
    contextTruncation: contextTruncations(transcript),
    attempts: t.attempts,
    finishedAt: t.finishedAt,
    transcript,
  };
}

/**
 * Trials read a page: small enough that what a page holds is gone before the young generation's
 * next collection (larger pages survive it, and the heap grows with the number of trials read).
 */
const ROWS_PER_READ = 100;

/** Trials a batch when the store reads them one at a time (runTrials). */
const ROWS_PER_BATCH = 25;

/** A store's trials of a run in batches: its own (runTrialBatches), else runTrials' gathered. */
async function* trialBatches(store: Store, runId: string, batchSize: number): AsyncIterable<RunTrial[]> {
  if (store.runTrialBatches) {
    yield* store.runTrialBatches(runId, { batchSize });
    return;
  }
  let batch: RunTrial[] = [];
  for await (const t of store.runTrials(runId, { batchSize })) {
    batch.push(t);
    if (batch.length >= ROWS_PER_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/**
 * runTrialRows' rows a few at a time (arrays of consecutive rows, in order): for writers of a
 * whole run, which then wait for a promise a batch, not one a row.
 */
export async function* runTrialRowBatches(
  store: Store,
  runId: string,
  protocols: readonly ProtocolModule[] = defaultProtocols(),
  batchSize?: number,
): AsyncIterable<TrialRow[]> {
  const specs = new Map<string, string>();
  // The subjects (a few rows: they come before everything else a store exports).
  for await (const r of store.exportRecords()) {
    if (r.kind === 'subject') specs.set(r.subject.id, r.subject.spec);
    else if (r.kind !== 'run') break;
  }
  const items = new Map<string, ItemFields>();
  const records = protocols.map((p) => p.records);
  // The store's reader for a pass where it has one (it reads the next items along), else getItem.
  const readItem = store.itemReader?.() ?? ((hash: string) => store.getItem(hash));
  for await (const trials of trialBatches(store, runId, batchSize ?? ROWS_PER_READ)) {
    for (const t of trials) if (!items.has(t.itemHash)) items.set(t.itemHash, await itemFields(readItem, t.itemHash));
    yield rowsOf(trials, specs, items, protocols, records);
  }
}

/** The fields a row takes from its item (empty where the store no longer has it). */
async function itemFields(readItem: (hash: string) => Promise<Item | undefined>, hash: string): Promise<ItemFields> {
  const full = await readItem(hash);
  return {
    category: full?.category ?? '',
    originalLabel: String(full?.meta.originalLabel ?? full?.ability ?? ''),
    answer: full?.answer ?? '',
  };
}

/** A batch of trials as rows (a function of its own, not part of the generator: see trial-pages.ts). */
function rowsOf(
  trials: RunTrial[],
  specs: ReadonlyMap<string, string>,
  items: ReadonlyMap<string, ItemFields>,
  protocols: readonly ProtocolModule[],
  records: ReadonlyArray<ProtocolModule['records']>,
): TrialRow[] {
  const rows: TrialRow[] = [];
  for (let i = 0; i < trials.length; i++) {
    const t = trials[i]!;
    // Each trial is let go once it is a row.
    (trials as Array<RunTrial | undefined>)[i] = undefined;
    rows.push(toRow(t, specs.get(t.subjectId) ?? t.subjectId, items.get(t.itemHash)!, protocols, records));
  }
  return rows;
}

/**
 * The trials of a run (done and failed), one row each, streamed in the order they were stored,
 * `batchSize` trials a read (ROWS_PER_READ unless given).
 * A stored record that does not parse is a MindscopeError naming the trial.
 */
export async function* runTrialRows(
  store: Store,
  runId: string,
  protocols: readonly ProtocolModule[] = defaultProtocols(),
  batchSize?: number,
): AsyncIterable<TrialRow> {
  for await (const rows of runTrialRowBatches(store, runId, protocols, batchSize)) {
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      (rows as Array<TrialRow | undefined>)[i] = undefined;
      yield r;
    }
  }
}
