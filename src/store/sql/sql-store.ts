// The store, written once in SQL for both backends (a SqlDriver each: SQLite, PostgreSQL).
//
// Finished trials and cache entries go through a group commit (group-commit.ts); each trial
// still goes in whole or not at all, and its promise resolves once committed. Reads see queued
// writes: the cache and trial statuses are looked up in the queue first, other reads flush
// first. A process killed before a commit loses those results, and only those: the trials are
// simply not done, and their leases expire so that another process (or the rerun) takes them.
//
// Several processes on one run: a trial is leased (trial_leases) before it runs; a result is
// recorded once: the later of two writes of a done trial is a no-op, and a failure never
// replaces a done trial.

import type { Item, Score, StoredTranscript, TrialKey, TrialOutcome } from '../../core/index.js';
// core's files, not its index: the index loads every record schema (zod), which `report` does without;
// the transcript schema is loaded when a transcript is read.
import { ConfigError, MindscopeError } from '../../core/errors.js';
import { storableText } from '../../core/storable-text.js';
import {
  trialKeyString,
  type AccuracyCountRow,
  type CachedEntry,
  type ClaimResult,
  type FailedTrialRow,
  type ImportSummary,
  type IrtResultRow,
  type PlanRow,
  type RateLimitState,
  type ResponseRow,
  type RunRecord,
  type StatusRow,
  type Store,
  type StoreRecord,
  type RunTrial,
  type RunTrialSummary,
  type SubjectRecord,
  type TrialStatus,
  type UsageRow,
} from '../store.js';
import { type SqlDriver, streamAfter } from './driver.js';
import { GroupCommit } from './group-commit.js';
import { unstorableKey, unstorableTrial } from './storable-trial.js';
import { SqlBatchLedger } from './batch-ledger-sql.js';
import type { BatchLedger } from '../batch-ledger.js';
import { blobLoader, insertBlobs } from './blob-rows.js';
import { itemHashIs, itemHashParam } from './item-keys.js';
import { pgBlockText } from './pg-text-blocks.js';
import { CommittedNames } from './committed-names.js';
import { TranscriptPacker } from './transcript-packing.js';
import { storeItems } from './item-bodies.js';
import { type ItemReader, itemReader } from './item-reader.js';
import { SqlCallCache } from './call-cache-sql.js';
import { insertCacheModels, insertCacheOrigins } from './cache-rows.js';
import { exportRecords, importRecords } from './transfer.js';
import { trialBatches, trialPages } from './trial-pages.js';
import { claimTrialLeases, releaseTrialLeases, renewTrialLeases, trialLeaseOwners } from './lease-sql.js';
import { runAccuracyCounts, runFailures, runResponses, runStatus, runUsage } from './run-queries-sql.js';
import { endpointRateLimits, reportEndpointRateLimit } from './rate-limits-sql.js';
import { pinRunRubric, putRunIrtResult, runIrtResults, runRubricPins } from './run-annotations-sql.js';
import { KEY_WHERE, keyParams } from './trial-key-sql.js';
import {
  blockTranscripts,
  doneTrialWrite,
  failedTrialWrite,
  insertNames,
  nameIds,
  type GroupWrites,
  scoreNames,
  upsertScore,
  type Write,
} from './trial-writes.js';
import { TrialBrowser } from './trial-browser.js';
import {
  appendProvenance,
  insertRun,
  insertSubject,
  runItemHashes,
  runProvenance,
  runRecord,
  runRecords,
  runSubjectRecords,
  upsertRunPlan,
} from './run-records-sql.js';
import { trialSummaryPages } from './trial-summaries.js';

/** A trial write's name in an error message, made only when there is one. */
const trialName = (what: string, k: TrialKey) => () => `${what} ${k.suite}/${k.itemId}#${k.replicate}`;

/** The Store written once in SQL over a driver (SQLite or PostgreSQL). */
export class SqlStore implements Store {
  readonly location: string;
  readonly backend: 'sqlite' | 'postgres';
  readonly #queuedStatus = new Map<string, TrialStatus>();
  readonly #commits: GroupCommit<Write>;
  readonly #batches: SqlBatchLedger;
  readonly #packer: TranscriptPacker;
  /** Names known committed in `names` (committed-names.ts): a write carries only the others. */
  readonly #names = new CommittedNames();
  readonly #loadBlobs: ReturnType<typeof blobLoader>;
  /** Settles once every putItems so far has: the group's commits wait for it. */
  #itemsSettled: Promise<void> = Promise.resolve();

  /** The call cache (its entries go through this store's group commit). */
  readonly #cache: SqlCallCache;

  constructor(
    protected readonly db: SqlDriver,
    options: { journalDir?: string } = {},
  ) {
    this.location = db.location;
    this.backend = db.backend;
    this.#batches = new SqlBatchLedger(db);
    this.#loadBlobs = blobLoader(db);
    this.#packer = new TranscriptPacker(db.codec);
    this.#commits = new GroupCommit<Write>(async (writes) => {
      let groupNames: Map<string, number> | undefined;
      await this.#itemsSettled;
      // The store's dictionaries known, and any this process has gathered enough rows for stored, before rows use them.
      await db.codec.ready(db);
      await db.codec.train(db);
      await db.transaction(async (tx) => {
        // The group's names and blobs first, each in one order for every process: concurrent
        // transactions inserting the same ones then wait for each other instead of deadlocking.
        const names = writes.flatMap((w) => w.names ?? []);
        if (names.length) await insertNames(tx, names);
        let group: GroupWrites | undefined;
        if (db.backend === 'sqlite') {
          const fresh = new Map<string, number>();
          if (names.length) for (const [name, id] of await nameIds(tx, names)) fresh.set(name, id);
          groupNames = fresh;
          const top = await tx.get<{ id: number | null }>('SELECT MAX(id) AS id FROM trial_rows');
          group = {
            nameId: this.#names.groupIds(fresh),
            trialIdsAbove: Number(top?.id ?? 0),
            details: new Set(),
          };
        }
        const blobs = new Map<string, string>();
        for (const w of writes) if (w.blobs) for (const [h, body] of w.blobs) blobs.set(h, body);
        if (blobs.size) await insertBlobs(tx, db.codec, [...blobs]);
        // Then the cache's models, likewise.
        const models = new Map<string, [string, string]>();
        for (const w of writes) if (w.model) models.set(w.model.join('\u0000'), w.model);
        if (models.size) await insertCacheModels(tx, [...models.values()]);
        const origins = writes.flatMap((w) => (w.origin === undefined ? [] : [w.origin]));
        if (origins.length) await insertCacheOrigins(tx, origins);
        await blockTranscripts(tx, db.codec, writes);
        // SQLite's writes run at once (no promise to wait for, nor a turn of the queue each).
        for (const w of writes) {
          const pending = w(tx, group);
          if (pending) await pending;
        }
      });
      // Committed: the names' numbers read in the group hold from now on.
      if (groupNames) this.#names.learn(groupNames);
    }, this.location);
    this.#cache = new SqlCallCache(db, this.#commits, options.journalDir);
  }

  /** The schema version (number of migrations applied). */
  schemaVersion(): Promise<number> {
    return this.db.schemaVersion();
  }

  async getRun(id: string): Promise<RunRecord | undefined> {
    return runRecord(this.db, id);
  }

  async listRuns(): Promise<RunRecord[]> {
    return runRecords(this.db);
  }

  async createRun(run: RunRecord): Promise<void> {
    await this.flush();
    await insertRun(this.db, run);
  }

  async recordProvenance(runId: string, provenance: Record<string, unknown>): Promise<void> {
    await this.flush();
    await appendProvenance(this.db, runId, provenance);
  }

  async provenance(runId: string): Promise<Array<Record<string, unknown>>> {
    await this.flush();
    return runProvenance(this.db, runId);
  }

  async trialItemHashes(runId: string): Promise<Array<{ suite: string; itemId: string; itemHash: string }>> {
    await this.flush();
    return runItemHashes(this.db, runId);
  }

  async discardItemTrials(runId: string, items: Array<{ suite: string; itemId: string }>): Promise<number> {
    await this.flush();
    return this.db.transaction(async (tx) => {
      let n = 0;
      const ids = 'SELECT id FROM trials WHERE run_id = ? AND suite = ? AND item_id = ?';
      for (const { suite, itemId } of items) {
        const key = [runId, suite, itemId];
        await tx.run(`DELETE FROM score_rows WHERE trial_id IN (${ids})`, key);
        await tx.run(`DELETE FROM transcripts WHERE trial_id IN (${ids})`, key);
        n += await tx.run(`DELETE FROM trial_rows WHERE id IN (${ids})`, key);
      }
      return n;
    });
  }

  async setPlan(runId: string, rows: PlanRow[]): Promise<void> {
    await this.flush();
    await upsertRunPlan(this.db, runId, rows);
  }

  async upsertSubject(s: SubjectRecord): Promise<void> {
    await this.flush();
    await insertSubject(this.db, s);
  }

  async runSubjects(runId: string): Promise<SubjectRecord[]> {
    await this.flush();
    return runSubjectRecords(this.db, runId);
  }

  putItems(items: Array<{ hash: string; item: Item; json?: string }>): Promise<void> {
    // Not after a flush, as most writes here: the caller may go on while the items are stored.
    const stored = storeItems(this.db, items);
    // The group's commits, flush and close wait for these items (stored or not): a trial is
    // never committed before the item it was run on.
    const before = this.#itemsSettled;
    this.#itemsSettled = Promise.allSettled([before, stored]).then(() => {});
    return stored;
  }

  async getItem(hash: string): Promise<Item | undefined> {
    // No flush (a worker reads one a trial): items are never queued, only waited for while stored.
    await this.#itemsSettled;
    const body = this.db.backend === 'postgres' ? `${pgBlockText('items')} AS body` : 'body';
    const row = await this.db.get<{ body: string | Uint8Array }>(`SELECT ${body} FROM items WHERE ${itemHashIs(this.db.backend)}`, [
      itemHashParam(this.db.backend, hash),
    ]);
    return row ? (JSON.parse(this.db.codec.decode(row.body)) as Item) : undefined;
  }

  itemReader(): ItemReader {
    const read = itemReader(this.db);
    return async (hash) => {
      await this.#itemsSettled;
      return read(hash);
    };
  }

  async trialStatus(k: TrialKey): Promise<TrialStatus | undefined> {
    // No flush: a queued status is read from the queue.
    const queued = this.#queuedStatus.get(trialKeyString(k));
    if (queued) return queued;
    return (await this.db.get<{ status: TrialStatus }>(`SELECT status FROM trials WHERE ${KEY_WHERE}`, keyParams(k)))?.status;
  }

  async trialCount(runId: string): Promise<number> {
    await this.flush();
    return (await this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM trials WHERE run_id = ?', [runId]))!.n;
  }

  async doneTrials(runId: string): Promise<Set<string>> {
    await this.flush();
    const done = new Set<string>();
    for await (const r of this.db.iterate<Omit<TrialKey, 'runId'>>(
      `SELECT subject_id AS "subjectId", suite, item_id AS "itemId", replicate FROM trials WHERE run_id = ? AND status = 'done'`,
      [runId],
    )) {
      done.add(trialKeyString({ runId, ...r }));
    }
    return done;
  }

  claimTrials(keys: TrialKey[], owner: string, ttlMs: number): Promise<ClaimResult[]> {
    return claimTrialLeases(this.db, keys, owner, ttlMs, (id) => this.#queuedStatus.get(id) === 'done');
  }

  renewLeases(owner: string, ttlMs: number): Promise<number> {
    return renewTrialLeases(this.db, owner, ttlMs);
  }

  async releaseLeases(owner: string, keys?: TrialKey[]): Promise<void> {
    await this.flush();
    await releaseTrialLeases(this.db, owner, keys);
  }

  leaseOwners(runId: string): Promise<string[]> {
    return trialLeaseOwners(this.db, runId);
  }

  recordDone(k: TrialKey, itemHash: string, outcome: TrialOutcome, attempts: number): Promise<void> {
    if (typeof outcome.score.value !== 'number' || !Number.isFinite(outcome.score.value)) {
      return Promise.reject(
        new MindscopeError(`trial ${k.suite}/${k.itemId}: score ${String(outcome.score.value)} is not a finite number`),
      );
    }
    const refused = unstorableTrial(k, [outcome.score.scorer], outcome.latencyMs, outcome.batchLatencyMs);
    if (refused) return Promise.reject(new MindscopeError(`trial ${k.suite}/${k.itemId}#${k.replicate}: ${refused}`));
    const packed = this.#packer.pack(outcome.transcript);
    const write = doneTrialWrite(this.db.backend, k, itemHash, outcome, attempts, packed.body, this.db.codec);
    const id = trialKeyString(k);
    this.#queuedStatus.set(id, 'done');
    const blobs = packed.blobs;
    if (blobs.length) write.blobs = blobs;
    this.#names.nameTrial(
      write,
      k,
      this.db.backend === 'sqlite'
        ? outcome.score.scorer
        : scoreNames(this.db.backend, [outcome.score.scorer], [JSON.stringify(outcome.score.detail)]),
    );
    return this.#commits.add(trialName('trial', k), write, (committed) => {
      if (this.#queuedStatus.get(id) === 'done') this.#queuedStatus.delete(id);
      if (!committed) return;
      this.#names.committed(write);
      // Only blobs committed may be left out of later transcripts' writes.
      if (blobs.length) this.#packer.markStored(blobs);
    });
  }

  recordFailed(k: TrialKey, itemHash: string, error: string, attempts: number, finishedAt?: string): Promise<void> {
    const refused = unstorableKey(k);
    if (refused) return Promise.reject(new MindscopeError(`trial ${k.suite}/${k.itemId}#${k.replicate}: ${refused}`));
    const id = trialKeyString(k);
    if (this.#queuedStatus.get(id) !== 'done') this.#queuedStatus.set(id, 'failed');
    const write = failedTrialWrite(this.db.backend, k, itemHash, storableText(error), attempts, finishedAt);
    this.#names.nameTrial(write, k);
    return this.#commits.add(trialName('failed trial', k), write, (committed) => {
      if (this.#queuedStatus.get(id) === 'failed') this.#queuedStatus.delete(id);
      if (committed) this.#names.committed(write);
    });
  }

  async getCached(key: string, provider?: string, model?: string): Promise<unknown> {
    return (await this.#cache.entry(key, provider, model))?.value;
  }

  getCachedEntry(key: string, provider?: string, model?: string): Promise<CachedEntry | undefined> {
    return this.#cache.entry(key, provider, model);
  }

  putCached(key: string, provider: string, model: string, response: unknown, origin?: string): Promise<void> {
    return this.#cache.put(key, provider, model, response, origin);
  }

  recoverReplies(): Promise<number> {
    return this.#cache.recover();
  }

  reportRateLimit(endpoint: string, pauseMs: number): Promise<RateLimitState> {
    return reportEndpointRateLimit(this.db, endpoint, pauseMs);
  }

  rateLimits(): Promise<RateLimitState[]> {
    return endpointRateLimits(this.db);
  }

  async recordScore(k: TrialKey, score: Score): Promise<void> {
    const refused = unstorableKey(k, [score.scorer]);
    if (refused) throw new MindscopeError(`trial ${k.suite}/${k.itemId}#${k.replicate}: ${refused}`);
    await this.flush();
    const row = await this.db.get<{ id: number }>(`SELECT id FROM trials WHERE ${KEY_WHERE}`, keyParams(k));
    if (!row) throw new ConfigError(`no trial ${k.suite}/${k.itemId} #${k.replicate} of ${k.subjectId} in run ${k.runId}`);
    await this.db.codec.ready(this.db);
    await insertNames(this.db, scoreNames(this.db.backend, [score.scorer]));
    const statements = upsertScore(this.db.backend, [
      row.id,
      score.scorer,
      score.value,
      this.db.codec.encode('score', JSON.stringify(score.detail ?? {})),
    ]);
    await this.db.transaction(async (tx) => {
      for (const q of statements) await tx.run(q.sql, q.params);
    });
  }

  async scoreOf(k: TrialKey, scorer: string): Promise<Score | undefined> {
    await this.flush();
    const row = await this.db.get<{ value: number; detail: string | Uint8Array }>(
      `SELECT sc.value AS value, sc.detail AS detail FROM trials t JOIN scores sc ON sc.trial_id = t.id
       WHERE t.run_id = ? AND t.subject_id = ? AND t.suite = ? AND t.item_id = ? AND t.replicate = ? AND sc.scorer = ?`,
      [...keyParams(k), scorer],
    );
    return row ? { scorer, value: row.value, detail: JSON.parse(this.db.codec.decode(row.detail)) } : undefined;
  }

  async pinRubric(runId: string, rubric: string, sha256: string): Promise<void> {
    await this.flush();
    await pinRunRubric(this.db, runId, rubric, sha256);
  }

  async pinnedRubrics(runId: string): Promise<Array<{ rubric: string; sha256: string }>> {
    await this.flush();
    return runRubricPins(this.db, runId);
  }

  async putIrtResult(row: IrtResultRow): Promise<void> {
    await this.flush();
    await putRunIrtResult(this.db, row);
  }

  async irtResults(runId: string): Promise<IrtResultRow[]> {
    await this.flush();
    return runIrtResults(this.db, runId);
  }

  /** Commit queued writes now (they are also committed within GROUP_COMMIT_MS). */
  /** Commit what is queued; items being stored (putItems) are stored first. */
  async flush(): Promise<void> {
    await this.#itemsSettled;
    return this.#commits.flush();
  }

  async status(runId: string): Promise<StatusRow[]> {
    await this.flush();
    return runStatus(this.db, runId);
  }

  async usage(runId: string): Promise<UsageRow[]> {
    await this.flush();
    return runUsage(this.db, runId);
  }

  async failures(runId: string, limit = 20): Promise<FailedTrialRow[]> {
    await this.flush();
    return runFailures(this.db, runId, limit);
  }

  async accuracyCounts(runId: string): Promise<AccuracyCountRow[]> {
    await this.flush();
    return runAccuracyCounts(this.db, runId);
  }

  async *responses(runId: string, scorer?: string): AsyncIterable<ResponseRow> {
    await this.flush();
    yield* runResponses(this.db, runId, scorer);
  }

  async transcript(k: TrialKey): Promise<{ transcript: StoredTranscript; score: Score } | undefined> {
    await this.flush();
    // The protocol's own score is the trial's first; judges' scores come later (scoreOf reads them).
    const row = await this.db.get<{
      body: string | Uint8Array;
      packed: number;
      scorer: string;
      value: number;
      detail: string | Uint8Array;
    }>(
      `SELECT ${this.db.backend === 'postgres' ? pgBlockText('tr') : 'tr.body'} AS body, tr.packed AS packed, sc.scorer AS scorer, sc.value AS value, sc.detail AS detail FROM trials t
       JOIN transcripts tr ON tr.trial_id = t.id JOIN scores sc ON sc.trial_id = t.id
       WHERE t.run_id = ? AND t.subject_id = ? AND t.suite = ? AND t.item_id = ? AND t.replicate = ?
       ORDER BY sc.${this.db.dialect.insertionOrder} LIMIT 1`,
      keyParams(k),
    );
    if (!row) return undefined;
    const [body] = await this.#packer.unpack([row], this.#loadBlobs);
    const { StoredTranscriptSchema } = await import('../../core/records/transcript.js');
    const parsed = StoredTranscriptSchema.safeParse(JSON.parse(body!));
    if (!parsed.success) {
      throw new MindscopeError(
        `${this.location}: the transcript of ${k.suite}/${k.itemId}#${k.replicate} does not parse: ${parsed.error.issues[0]?.message}`,
      );
    }
    return {
      transcript: parsed.data,
      score: { scorer: row.scorer, value: row.value, detail: JSON.parse(this.db.codec.decode(row.detail)) },
    };
  }

  /** Page-by-page queries over a run's trials (filters, search, counts), for the viewer. */
  browser(): TrialBrowser {
    return new TrialBrowser(this.db);
  }

  runTrials(runId: string, options: { batchSize?: number } = {}): AsyncIterable<RunTrial> {
    return streamAfter(
      () => this.flush(),
      () => trialPages(this.db, runId, options.batchSize),
    );
  }

  runTrialBatches(runId: string, options: { batchSize?: number } = {}): AsyncIterable<RunTrial[]> {
    return streamAfter(
      () => this.flush(),
      () => trialBatches(this.db, runId, options.batchSize),
    );
  }

  runTrialSummaries(runId: string, options: { batchSize?: number } = {}): AsyncIterable<RunTrialSummary> {
    return streamAfter(
      () => this.flush(),
      () => trialSummaryPages(this.db, runId, options.batchSize),
    );
  }

  async *exportRecords(): AsyncIterable<StoreRecord> {
    await this.flush();
    yield* exportRecords(this.db);
  }

  async importRecords(records: AsyncIterable<StoreRecord>): Promise<ImportSummary> {
    await this.flush();
    // Entries come in without putCached: nothing known of the cache holds during or after.
    this.#cache.forgetAbsences();
    try {
      return await importRecords(this.db, records);
    } finally {
      this.#cache.forgetAbsences();
    }
  }

  openBatch: BatchLedger['openBatch'] = (batch, keys) => this.#batches.openBatch(batch, keys);
  updateBatch: BatchLedger['updateBatch'] = (id, change) => this.#batches.updateBatch(id, change);
  runBatches: BatchLedger['runBatches'] = (runId) => this.#batches.runBatches(runId);
  batchRequests: BatchLedger['batchRequests'] = (runId) => this.#batches.batchRequests(runId);
  settleBatchRequests: BatchLedger['settleBatchRequests'] = (batchId, rows) => this.#batches.settleBatchRequests(batchId, rows);
  dropStaleBatches: BatchLedger['dropStaleBatches'] = (runId, olderThanMs) => this.#batches.dropStaleBatches(runId, olderThanMs);

  async close(): Promise<void> {
    try {
      // Items still being stored (a run that stopped early) are stored first.
      await this.flush();
    } finally {
      this.#cache.close();
      await this.db.close();
    }
  }
}
