// The JSON the viewer's API serves and its page reads (and a static export holds). Types only:
// the page imports them too, so that both sides agree.

import type { JudgeDetail, StoredTranscript } from '../core/index.js';
import type { PairedCell } from '../analysis/index.js';
import type { RunState } from '../app/index.js';
import type { RunActivity, StatusRow, TrialFacets, TrialListRow, UsageRow } from '../store/index.js';

/** One run as the Runs view shows it. */
export interface RunView {
  id: string;
  /** The name given with run --name, if any. */
  name: string | null;
  createdAt: string;
  /** complete, partial or failed (see RunState). */
  state: RunState;
  /** The mindscope version that last ran it (its provenance). */
  toolVersion: string | null;
  config: Record<string, unknown>;
  subjects: Array<{ id: string; spec: string; settings: Record<string, unknown> }>;
  suites: string[];
  status: StatusRow[];
  /** Each subject's accuracy over its scored trials (null: none scored) and the items scored. */
  accuracy: Array<{ spec: string; accuracy: number | null; items: number }>;
  usage: UsageRow[];
  activity: RunActivity;
  rubrics: Array<{ rubric: string; sha256: string }>;
  /** Reports (HTML files) the plugins' studies wrote beside the store, by kind (e.g. audit reports). */
  reports: Array<{ kind: string; title: string; hint: string | null; files: string[] }>;
}

/** A row of the Trials view: the trial, what it was asked, what the subject answered and the gold answer (each cut short). */
export interface TrialRowView extends TrialListRow {
  /** The first characters of the question (multiple choice), else of the first message sent. */
  input: string | null;
  /** The answer the protocol read from the reply, else the reply; null for a failed trial. */
  answer: string | null;
  gold: string | null;
}

/** A page of the Trials view; `next` and `prev` are the cursors of the pages beside it (`after`, `before`), null at either end. */
export interface TrialPage {
  total: number;
  rows: TrialRowView[];
  next: string | null;
  prev: string | null;
}

/** A score of a trial: the protocol's own, or a judge panel's with each judge's raw output. */
export interface ScoreView {
  scorer: string;
  value: number;
  detail: unknown;
  /** The judge panel's record, when this score is one (parsed with the judge record schema). */
  judge: JudgeDetail | null;
}

/**
 * A trial's record as the viewer shows it: its protocol's panel's view of it (the record parsed
 * with the protocol's schema, an episode replayed, ...), drawn in the page by the panel of that
 * protocol; or the record as stored, shown as JSON.
 */
export interface RecordView {
  /** The protocol that wrote the record ('unknown' when no schema recognises a record stored without one). */
  protocol: string;
  /** What the panel's `record` hook built (for mcq: the parsed record), or the record as stored. */
  data: unknown;
  /** The data is the record as stored: no panel built a view of it. */
  raw: boolean;
  /** A plugin panel's script that draws the data: its URL, relative to the page. */
  script?: string;
}

export interface TrialView {
  runId: string;
  subjectId: string;
  spec: string;
  suite: string;
  itemId: string;
  replicate: number;
  status: 'done' | 'failed';
  error: string | null;
  attempts: number;
  /** latencyMs: the interactive calls'; batchLatencyMs: the batch-answered calls' wait, submission to collection (0: none). */
  usage: { inputTokens: number; outputTokens: number; costUsd: number; latencyMs: number; batchLatencyMs: number };
  finishedAt: string;
  item: {
    category: string;
    ability: string | null;
    answer: string;
    originalLabel: string | null;
    /** Context, question and options of a multiple-choice item. */
    mcq: { context: string; question: string; options: string[] } | null;
  } | null;
  protocol: string;
  calls: StoredTranscript['calls'];
  record: RecordView | null;
  scores: ScoreView[];
}

export interface CompareView {
  subjects: string[];
  replicate: number;
  cells: PairedCell[];
  /** Per pair of the first two subjects chosen: items both right, both wrong, only A right, only B right. */
  items: Array<{ suite: string; itemId: string; category: string; values: Array<number | null> }>;
  counts: { bothRight: number; bothWrong: number; onlyA: number; onlyB: number; missing: number };
}

export interface ViewerInfo {
  /** The mindscope version serving (or exporting) the page. */
  version: string;
  location: string;
  backend: 'sqlite' | 'postgres';
  /** Changes when trials land: the page refreshes what it shows when it does. */
  stamp: string;
  static: boolean;
}

export type { TrialFacets, TrialListRow };
