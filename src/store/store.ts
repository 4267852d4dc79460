// The Store: where runs, subjects, items, trials, transcripts, scores and the model-call cache
// live. A trial is written in one transaction with its transcript and score, so it is either
// done or absent: never half-written. Writes may be queued for a group commit; reads see them.
// Every method is asynchronous, so that a networked database (PostgreSQL) fits behind it as
// well as the embedded SQLite file. Several processes may work on one run in one store: a
// trial is leased before it runs, and its result is recorded once (a done trial stays done).

import type { Item, Score, StoredTranscript, TrialKey, TrialOutcome } from '../core/index.js';
import type { BatchLedger, BatchRecord, BatchRequestRow } from './batch-ledger.js';

export type { BatchLedger, BatchRecord, BatchRequestRow, BatchState } from './batch-ledger.js';

export interface RunRecord {
  id: string;
  createdAt: string;
  /** The run's identity: its specification with files as content hashes (no secrets); compared on resumption. */
  config: Record<string, unknown>;
  /** The run specification itself (files by path), from which a worker rebuilds the run's tasks. */
  spec?: Record<string, unknown>;
  /** A name for people (run --name), shown beside the id; not part of the run's identity. */
  name?: string;
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
  /** Mean latency of the trials whose calls were all made interactively (batch-answered trials left out). */
  latencyMsMean: number;
  /** Mean batch wait (submission to collection) of the trials answered through batches; null when none was. */
  batchLatencyMsMean: number | null;
}

/**
 * Scored rows of a run summed per subject, suite, category and source label: what an accuracy
 * table needs when every item has one scored row per subject (no replicates, one scorer), read
 * without a pass over the run's trials in JavaScript.
 */
export interface AccuracyCountRow {
  spec: string;
  suite: string;
  category: string;
  ability: string | null;
  /** Scored rows (trials times scores). */
  rows: number;
  /** Sum of the scores' values. */
  correct: number;
  parseFailures: number;
  /** Rows whose value is neither 0 nor 1 (judge means, partial credit). */
  nonBinary: number;
  maxReplicate: number;
  /** The group's bytewise-first item id (the order in which `responses` meets the groups). */
  firstItemId: string;
}

/** `responses(runId, PROTOCOL_SCORES)`: each trial's protocol score, not the judges' scores added to it later. */
export const PROTOCOL_SCORES = '(protocol)';

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

/** What claiming a trial found: now leased to the claimer, done already, or leased to another live process. */
export type ClaimResult = 'claimed' | 'done' | 'held';

/** The rate-limit state of one provider endpoint shared by every process on a store. */
export interface RateLimitState {
  endpoint: string;
  /** Counts rate-limit episodes; a process that sees it grow halves its limit once. */
  generation: number;
  /** How much longer calls to the endpoint are paused (0 when not paused). */
  pausedForMs: number;
}

/** One row of a store's content, as `exportRecords` yields and `importRecords` takes (db copy, merge). */
/** A cached call result and where it came from. */
export interface CachedEntry {
  value: unknown;
  /** The run (or step, e.g. `score RUN`) whose call paid for it; null for entries cached before origins were kept. */
  origin: string | null;
}

export type StoreRecord =
  | { kind: 'run'; run: RunRecord }
  | { kind: 'subject'; subject: SubjectRecord }
  | { kind: 'plan'; runId: string; row: PlanRow }
  | { kind: 'item'; hash: string; body: string }
  | { kind: 'trial'; trial: StoredTrial }
  /** `origin`: the run (or step) whose call paid for the reply; absent for replies cached before origins were kept. */
  | { kind: 'cache'; key: string; provider: string; model: string; response: string; createdAt: string; origin?: string }
  | { kind: 'rubric'; runId: string; rubric: string; sha256: string }
  | { kind: 'irt'; row: IrtResultRow }
  | { kind: 'batch'; batch: BatchRecord; updatedAtMs: number }
  | { kind: 'batchRequest'; runId: string; row: BatchRequestRow };

/** What an IRT run (run --tiny / --adaptive) found for one subject and suite: the bank, the items and the estimates (JSON). */
export interface IrtResultRow {
  runId: string;
  subjectId: string;
  suite: string;
  mode: 'tiny' | 'adaptive';
  bankId: string;
  result: Record<string, unknown>;
}

/** A stored trial with its transcript (whole, as JSON text, prompts put back) and scores (JSON text), for copying between stores. */
export interface StoredTrial extends TrialKey {
  itemHash: string;
  status: TrialStatus;
  error: string | null;
  attempts: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
  /** The wait of the trial's batch-answered calls (0: none); absent in records of older exports. */
  batchLatencyMs?: number;
  cachedCalls: number;
  totalCalls: number;
  truncatedCalls: number;
  unpricedCalls: number;
  finishedAt: string;
  transcript: string | null;
  scores: Array<{ scorer: string; value: number; detail: string }>;
}

/** A stored trial without its transcript, as `runTrialSummaries` reads it: usage and score values only. */
export interface RunTrialSummary
  extends Pick<
    StoredTrial,
    'subjectId' | 'suite' | 'itemId' | 'replicate' | 'status' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'unpricedCalls' | 'finishedAt'
  > {
  /** The trial's scores in the order they were recorded (the protocol's first). */
  scores: Array<{ scorer: string; value: number }>;
}

/** A stored trial as `runTrials` reads it: its transcript parsed (what JSON.parse of StoredTrial's text gives), null when it has none. */
export interface RunTrial extends Omit<StoredTrial, 'transcript'> {
  transcript: unknown;
}

/** What an import found: rows added, and trials left as they were because the target had them already. */
export interface ImportSummary {
  runs: number;
  items: number;
  trials: number;
  duplicateTrials: number;
  cacheEntries: number;
  /** Batch-ledger batches added, or advanced to a further state (submitting < submitted < fetched or failed). */
  batches: number;
  /** Batch-ledger calls added, or advanced to a further status (pending < error < done). */
  batchRequests: number;
}

/** A trial key as one string: the identity of a trial across processes (job keys, maps). */
export function trialKeyString(k: TrialKey): string {
  return JSON.stringify([k.runId, k.subjectId, k.suite, k.itemId, k.replicate]);
}

/** The store; it also keeps the ledger of provider batches (batch-ledger.ts). */
export interface Store extends BatchLedger {
  /** The file path, or the database URL without its password. */
  readonly location: string;
  readonly backend: 'sqlite' | 'postgres';
  getRun(id: string): Promise<RunRecord | undefined>;
  listRuns(): Promise<RunRecord[]>;
  /**
   * Create a run; a run with this id created meanwhile by another process is left as it is,
   * except that a `name` given replaces the stored one (when the identities agree).
   */
  createRun(run: RunRecord): Promise<void>;
  /** Record how a run was produced (versions, platform, data and template hashes) unless it equals the last record; never part of its identity. */
  recordProvenance(runId: string, provenance: Record<string, unknown>): Promise<void>;
  /** The provenance records of a run, oldest first. */
  provenance(runId: string): Promise<Array<Record<string, unknown>>>;
  /** The item content hash each stored trial of a run was made with, one row per item and hash. */
  trialItemHashes(runId: string): Promise<Array<{ suite: string; itemId: string; itemHash: string }>>;
  /** Delete every trial (with transcripts and scores) of these items in a run, so that they run again; returns the trials deleted. */
  discardItemTrials(runId: string, items: Array<{ suite: string; itemId: string }>): Promise<number>;
  setPlan(runId: string, rows: PlanRow[]): Promise<void>;
  upsertSubject(subject: SubjectRecord): Promise<void>;
  /** The subjects a run plans (spec and the generation settings they run with). */
  runSubjects(runId: string): Promise<SubjectRecord[]>;
  /**
   * Store items by content hash (idempotent); `json`, when given, is the item's JSON text (the
   * text its hash was made from). Trials recorded after this call are committed after these
   * items, so a caller may record trials before the promise resolves.
   */
  putItems(items: Array<{ hash: string; item: Item; json?: string }>): Promise<void>;
  /** A stored item by its content hash. */
  getItem(hash: string): Promise<Item | undefined>;
  /**
   * getItem for a pass over a run's trials: a reader that reads the items stored after the one
   * asked for along with it (a run stores its items in the order its trials first need them), so
   * that a pass reads many items a statement. Optional: readers of a store without it call getItem.
   */
  itemReader?(): (hash: string) => Promise<Item | undefined>;
  trialStatus(key: TrialKey): Promise<TrialStatus | undefined>;
  /** Number of trials (done or failed) a run has stored. */
  trialCount(runId: string): Promise<number>;
  /** The keys (trialKeyString) of a run's done trials. */
  doneTrials(runId: string): Promise<Set<string>>;
  /**
   * Lease trials to `owner` for `ttlMs` before running them: each is claimed (free, expired, or
   * the owner's already), done, or held by another owner whose lease has not expired.
   */
  claimTrials(keys: TrialKey[], owner: string, ttlMs: number): Promise<ClaimResult[]>;
  /** Extend every lease the owner holds (a heartbeat); returns how many it holds. */
  renewLeases(owner: string, ttlMs: number): Promise<number>;
  /** Give back the owner's leases on these trials, or every lease it holds. */
  releaseLeases(owner: string, keys?: TrialKey[]): Promise<void>;
  /** The owners holding leases on a run's trials (expired or not). */
  leaseOwners(runId: string): Promise<string[]>;
  /**
   * Record a finished trial with its transcript and score, all or nothing; resolves once
   * committed (writes are grouped). A trial recorded done already is left as it is.
   */
  recordDone(key: TrialKey, itemHash: string, outcome: TrialOutcome, attempts: number): Promise<void>;
  /**
   * Record a trial that failed after its retries; never replaces a done trial. Resolves once
   * committed. `finishedAt` (ISO 8601): when it failed, for a trial taken from elsewhere; now when absent.
   */
  recordFailed(key: TrialKey, itemHash: string, error: string, attempts: number, finishedAt?: string): Promise<void>;
  /**
   * A cached model-call result (a ChatResponse or a log-likelihood result), by content key;
   * `provider` and `model` (the call's, as putCached takes them) let a store skip the lookup
   * when it knows the model has no entries.
   */
  getCached(key: string, provider?: string, model?: string): Promise<unknown>;
  /** `getCached` with where the entry came from: the run (or step) that paid for it; null when unknown. */
  getCachedEntry(key: string, provider?: string, model?: string): Promise<CachedEntry | undefined>;
  /**
   * Cache a call's result, with the run (or step) that paid for it; resolves once committed.
   * The reply is journaled at once (a file of this process), so that a process killed before
   * the commit loses nothing: `recoverReplies` takes dead processes' journals into the cache.
   */
  putCached(key: string, provider: string, model: string, value: unknown, origin?: string): Promise<void>;
  /**
   * Store the replies that processes of this machine which no longer run journaled but never
   * committed; returns how many were new. Done before a store's first cache lookup, and again
   * by whoever takes over a dead process's work.
   */
  recoverReplies(): Promise<number>;
  /** A process was rate-limited by an endpoint: pause it for every process for `pauseMs`. */
  reportRateLimit(endpoint: string, pauseMs: number): Promise<RateLimitState>;
  /** The shared rate-limit state of every endpoint that has been rate-limited. */
  rateLimits(): Promise<RateLimitState[]>;
  status(runId: string): Promise<StatusRow[]>;
  usage(runId: string): Promise<UsageRow[]>;
  failures(runId: string, limit?: number): Promise<FailedTrialRow[]>;
  /** Scored cells of a run, streamed (in subject, suite, item, replicate order). */
  /**
   * The run's scored rows, in a fixed order: every score of every done trial, or one scorer's
   * (`scorer`), or each trial's own protocol score only (PROTOCOL_SCORES: its first score; judge
   * and plugin scores are added later).
   */
  responses(runId: string, scorer?: string): AsyncIterable<ResponseRow>;
  /** The run's scored rows summed per subject, suite, category and source label. */
  accuracyCounts(runId: string): Promise<AccuracyCountRow[]>;
  /** A finished trial's transcript (its calls checked against their schema) and its protocol's score; read its record with readRecord. */
  transcript(key: TrialKey): Promise<{ transcript: StoredTranscript; score: Score } | undefined>;
  /** Add (or replace) a trial's score under another scorer, e.g. a judge panel's. */
  recordScore(key: TrialKey, score: Score): Promise<void>;
  /** A trial's score by one scorer, if it has one. */
  scoreOf(key: TrialKey, scorer: string): Promise<Score | undefined>;
  /** Pin a rubric's hash to a run; throws ConfigError when the run pinned another hash under that name. */
  pinRubric(runId: string, rubric: string, sha256: string): Promise<void>;
  /** The rubrics a run was scored with (name and SHA-256), in the order they were pinned. */
  pinnedRubrics(runId: string): Promise<Array<{ rubric: string; sha256: string }>>;
  /** Store (or replace) the IRT estimate of one subject and suite of a run. */
  putIrtResult(row: IrtResultRow): Promise<void>;
  /** The IRT estimates of a run, by subject and suite. */
  irtResults(runId: string): Promise<IrtResultRow[]>;
  /**
   * A run's trials (done and failed) with their transcripts and scores, in the order they were
   * stored, read `batchSize` rows a query (500 unless given): memory stays bounded by a batch.
   * Trials that sent the same prompt share one frozen list of its messages: copy a list before
   * changing it.
   */
  runTrials(runId: string, options?: { batchSize?: number }): AsyncIterable<RunTrial>;
  /**
   * runTrials' trials a few at a time: arrays of consecutive trials, in the same order, for
   * readers of many trials (a promise a batch, not one a trial). Optional: readers of a store
   * without it read runTrials.
   */
  runTrialBatches?(runId: string, options?: { batchSize?: number }): AsyncIterable<RunTrial[]>;
  /**
   * A run's trials as `runTrials` orders them, without transcripts or score details (a cheap
   * pass over the run), read `batchSize` rows a query (1,000 unless given).
   */
  runTrialSummaries(runId: string, options?: { batchSize?: number }): AsyncIterable<RunTrialSummary>;
  /** Everything the store holds, row by row (db copy, merge). */
  exportRecords(): AsyncIterable<StoreRecord>;
  /**
   * Add exported rows: a run already here must have the same identity (else ConfigError);
   * a trial already done here is kept (duplicates resolve by trial key); a done trial replaces a failed one.
   */
  importRecords(records: AsyncIterable<StoreRecord>): Promise<ImportSummary>;
  /** Commit queued writes now (they are also committed within a few milliseconds); rejects naming writes that failed. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Read a stream of rows into an array. */
export async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
}
