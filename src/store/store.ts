// The Store: where runs, subjects, items, trials, transcripts, scores and the model-call cache
// live. A trial is written in one transaction with its transcript and score, so it is either
// done or absent: never half-written. Writes may be queued for a group commit; reads see them.

import type { Item, Score, StoredTranscript, TrialKey, TrialOutcome } from '../core/index.js';

export interface RunRecord {
  id: string;
  createdAt: string;
  /** The full configuration the run was started with (no secrets). */
  config: Record<string, unknown>;
}

export interface SubjectRecord {
  /** Opaque id (what judges see), derived from spec and settings. */
  id: string;
  spec: string;
  settings: Record<string, unknown>;
}

export type TrialStatus = 'done' | 'failed';

export interface PlanRow {
  subjectId: string;
  suite: string;
  planned: number;
}

export interface StatusRow {
  subjectId: string;
  spec: string;
  suite: string;
  planned: number;
  done: number;
  failed: number;
  pending: number;
  /** Done trials with a reply cut off by the output-token limit. */
  truncated: number;
}

export interface UsageRow {
  subjectId: string;
  spec: string;
  trials: number;
  inputTokens: number;
  outputTokens: number;
  /** US dollars; null when some call's price is unknown (the cost is then unknown, not $0). */
  costUsd: number | null;
  /** Calls made whose price is unknown. */
  unpricedCalls: number;
  cachedCalls: number;
  totalCalls: number;
  latencyMsMean: number;
}

/** One scored cell: the input of accuracy tables and response matrices. */
export interface ResponseRow {
  subjectId: string;
  spec: string;
  suite: string;
  itemId: string;
  itemHash: string;
  category: string;
  ability: string | null;
  replicate: number;
  value: number;
  parseFailed: boolean;
  meta: Record<string, unknown>;
}

export interface FailedTrialRow extends TrialKey {
  error: string;
  attempts: number;
}

export interface Store {
  readonly location: string;
  getRun(id: string): RunRecord | undefined;
  listRuns(): RunRecord[];
  createRun(run: RunRecord): void;
  setPlan(runId: string, rows: PlanRow[]): void;
  upsertSubject(subject: SubjectRecord): void;
  /** Store items by content hash (idempotent); returns the hash of each. */
  putItems(items: Array<{ hash: string; item: Item }>): void;
  /** A stored item by its content hash. */
  getItem(hash: string): Item | undefined;
  trialStatus(key: TrialKey): TrialStatus | undefined;
  /** Number of trials (done or failed) a run has stored. */
  trialCount(runId: string): number;
  recordDone(key: TrialKey, itemHash: string, outcome: TrialOutcome, attempts: number): void;
  recordFailed(key: TrialKey, itemHash: string, error: string, attempts: number): void;
  /** A cached model-call result (a ChatResponse or a log-likelihood result), by content key. */
  getCached(key: string): unknown;
  putCached(key: string, provider: string, model: string, value: unknown): void;
  status(runId: string): StatusRow[];
  usage(runId: string): UsageRow[];
  failures(runId: string, limit?: number): FailedTrialRow[];
  responses(runId: string, scorer?: string): Iterable<ResponseRow>;
  /** A finished trial's transcript (its calls checked against their schema) and its protocol's score; read its record with readRecord. */
  transcript(key: TrialKey): { transcript: StoredTranscript; score: Score } | undefined;
  /** Add (or replace) a trial's score under another scorer, e.g. a judge panel's. */
  recordScore(key: TrialKey, score: Score): void;
  /** A trial's score by one scorer, if it has one. */
  scoreOf(key: TrialKey, scorer: string): Score | undefined;
  /** Pin a rubric's hash to a run; throws ConfigError when the run pinned another hash under that name. */
  pinRubric(runId: string, rubric: string, sha256: string): void;
  /** The rubrics a run was scored with (name and SHA-256), in the order they were pinned. */
  pinnedRubrics(runId: string): Array<{ rubric: string; sha256: string }>;
  /** Commit queued writes now (they are also committed at the next tick of the event loop). */
  flush(): void;
  close(): void;
}
