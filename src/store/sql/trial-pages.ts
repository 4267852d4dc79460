// A run's trials (or every trial of a store) streamed with their transcripts and scores, in the
// order they were stored: what exports, the viewer and store copies read. trial_rows is read
// directly (not the view "trials", which joins names and items for every row): a run's rows
// name few subjects, suites and items, each looked up once (trial-names.ts).

import type { RunTrial, StoredTrial } from '../store.js';
import { type SqlDriver, untaggedValue } from './driver.js';
import { blobLoader, keyRef, REF_CHARS, refKey } from './blob-rows.js';
import { PgBlockCache, pgTaggedBlockText } from './pg-text-blocks.js';
import { TranscriptPacker } from './transcript-packing.js';
import { runKeyOf, TrialNames } from './trial-names.js';
import { type RangeScore, TrialScores } from './trial-scores.js';
import { finishedAtText, latencyMs, statusOf } from './trial-values.js';

const PAGE = 500;
/**
 * Transcripts unpacked at a time: what a reader of a page has done with is garbage before the
 * young generation's next collection, whatever the page's size. Few: what a collection finds
 * alive is copied (and the second time moved to the old generation), and V8 doubles the young
 * generation once 16 MB have survived its collections in all (a pass's peak memory grew by 32
 * MB the earlier that came); 25 at a time costs no more CPU than 100.
 */
const UNPACK = 25;

/** The columns trialPages reads of trial_rows (names and the item by number) and transcripts, in order; rows come as arrays. */
const trialColumns = (db: SqlDriver) => `t.id, t.run_key, t.subject_key, t.suite_key, t.item_key, t.item_ref, t.replicate,
  t.status, t.error, t.attempts, t.input_tokens, t.output_tokens, t.cost_usd,
  ${latencyMs(db.backend, 't.latency_ms')}, ${latencyMs(db.backend, 't.batch_latency_ms')}, t.cached_calls, t.total_calls,
  t.truncated_calls, t.unpriced_calls, t.finished_at, ${db.backend === 'postgres' ? pgTaggedBlockText('tr') : db.dialect.tagged('tr.body')}, tr.packed`;
const ID = 0;
const RUN = 1;
const SUBJECT = 2;
const SUITE = 3;
const ITEM = 4;
const ITEM_REF = 5;
const REPLICATE = 6;
const STATUS = 7;
const ERROR = 8;
const ATTEMPTS = 9;
const INPUT_TOKENS = 10;
const OUTPUT_TOKENS = 11;
const COST_USD = 12;
const LATENCY_MS = 13;
const BATCH_LATENCY_MS = 14;
const CACHED_CALLS = 15;
const TOTAL_CALLS = 16;
const TRUNCATED_CALLS = 17;
const UNPRICED_CALLS = 18;
const FINISHED_AT = 19;
const BODY = 20;
const PACKED = 21;
const NAME_COLUMNS = [RUN, SUBJECT, SUITE, ITEM];

/** Milliseconds after 9999-12-31T23:59:59.999Z: ISO text of another form (six-digit years). */
const FOUR_DIGIT_YEARS_MS = 253_402_300_800_000;
/** '.000Z' to '.999Z': the end of an ISO time by its milliseconds. */
const MS_ENDS = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(3, '0')}Z`);

/**
 * finishedAtText for a pass's rows: a run's trials finish many to a second, so the ISO text of
 * each second is made once and its milliseconds appended.
 */
function finishTimes(): (stored: string | number) => string {
  let second = Number.NaN;
  let prefix = '';
  return (stored) => {
    if (typeof stored !== 'number' || !(stored >= 0 && stored < FOUR_DIGIT_YEARS_MS) || !Number.isInteger(stored))
      return finishedAtText(stored);
    const s = Math.floor(stored / 1000);
    if (s !== second) {
      second = s;
      // 'YYYY-MM-DDTHH:MM:SS.' of the second.
      prefix = new Date(s * 1000).toISOString().slice(0, 20);
    }
    return prefix + MS_ENDS[stored - s * 1000]!;
  };
}

/** The numbers of hashes a blob read asks for: a read of fewer asks again for its last (the same few statements serve every read). */
const BLOB_READS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

/**
 * Reads prompt blobs by reference for TranscriptPacker.unpackValues: those of prompt_texts
 * (blob-rows.ts) read tagged (Dialect.tagged) in statements of a few fixed sizes, each compiled
 * once; those a transcript written before schema 17 names, from prompt_blobs (blobLoader).
 */
function blobReader(db: SqlDriver): (refs: string[]) => Promise<Array<{ hash: string; body: string }>> {
  const largest = BLOB_READS[BLOB_READS.length - 1]!;
  const pg = db.backend === 'postgres';
  const sql = new Map(
    BLOB_READS.map((n) => [
      n,
      `SELECT CAST(id AS TEXT), ${pg ? pgTaggedBlockText('p') : db.dialect.tagged('body')} FROM prompt_texts p WHERE id IN (${Array(n).fill('?').join(', ')})`,
    ]),
  );
  const older = blobLoader(db);
  // PostgreSQL: texts kept in blocks read a block at a time (pg-text-blocks.ts).
  const blocks = pg ? new PgBlockCache(db) : undefined;
  return async (refs) => {
    // Each key asked for and its reference (a row read back is named by the reference asked for, not made again from its key).
    const refOf = new Map<string, string>();
    for (const r of refs) if (r.length === REF_CHARS) refOf.set(refKey(r), r);
    const current = [...refOf.keys()];
    const before = refs.filter((r) => r.length !== REF_CHARS);
    const out = before.length ? await older(before) : [];
    for (let i = 0; i < current.length; i += largest) {
      const part = current.slice(i, i + largest);
      const n = BLOB_READS.find((size) => size >= part.length)!;
      while (part.length < n) part.push(part[part.length - 1]!);
      // In the order of their stored values: a block's members (one prefix of tag, block id) one
      // after another, so that each block is inflated once (the codec remembers the last one).
      const rows = (await db.rows(sql.get(n)!, part)) as Array<[unknown, string]>;
      rows.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      if (blocks) {
        const texts = await blocks.texts(rows.map((r) => r[1]));
        rows.forEach(([key], j) => {
          const k = String(key);
          out.push({ hash: refOf.get(k) ?? keyRef(k), body: texts[j]! });
        });
        continue;
      }
      for (const [key, body] of rows) {
        const k = String(key);
        out.push({ hash: refOf.get(k) ?? keyRef(k), body: db.codec.decode(untaggedValue(body)!) });
      }
    }
    return out;
  };
}

/**
 * A page's rows as trials, a few at a time, each with its scores (the page's range, in trial
 * order). Kept out of the generators that read pages: what runs for every row is compiled (and
 * optimised) as small functions of its own, not as part of a generator's state machine.
 */
class PageTrials {
  /** The next of the page's scores. */
  #s = 0;

  constructor(
    private readonly page: unknown[][],
    private readonly scores: readonly RangeScore[],
    private readonly names: TrialNames,
    private readonly finishedAt: (stored: string | number) => string,
  ) {}

  /** The stored transcripts of rows `from` to `to` (those that have one), for TranscriptPacker.unpackValues. */
  stored(from: number, to: number): Array<{ body: string | Uint8Array; packed: number }> {
    const stored: Array<{ body: string | Uint8Array; packed: number }> = [];
    for (let i = from; i < to; i++) {
      const t = this.page[i]!;
      if (t[BODY] !== null) stored.push({ body: untaggedValue(t[BODY])!, packed: Number(t[PACKED] ?? 0) });
    }
    return stored;
  }

  /** Rows `from` to `to` as trials; `whole` holds their transcripts, in order, of the rows that have one. */
  trials(from: number, to: number, whole: unknown[]): RunTrial[] {
    const { page, scores } = this;
    let w = 0;
    const batch: RunTrial[] = [];
    for (let i = from; i < to; i++) {
      const t = page[i]!;
      // Each row is let go once read (what a reader has done with is garbage at once).
      (page as Array<unknown[] | undefined>)[i] = undefined;
      const id = Number(t[ID]);
      let s = this.#s;
      while (s < scores.length && scores[s]!.trialId < id) s++;
      const own: StoredTrial['scores'] = [];
      for (; s < scores.length && scores[s]!.trialId === id; s++) {
        const sc = scores[s]!;
        own.push({ scorer: sc.scorer, value: sc.value, detail: sc.detail });
      }
      this.#s = s;
      let transcript: unknown = null;
      if (t[BODY] !== null) {
        transcript = whole[w];
        whole[w++] = undefined;
      }
      batch.push(this.#trial(t, transcript, own));
    }
    return batch;
  }

  #trial(t: unknown[], transcript: unknown, scores: StoredTrial['scores']): RunTrial {
    const names = this.names;
    return {
      runId: names.name(t[RUN]),
      subjectId: names.name(t[SUBJECT]),
      suite: names.name(t[SUITE]),
      itemId: names.name(t[ITEM]),
      replicate: t[REPLICATE] as number,
      itemHash: names.itemHash(t[ITEM_REF]),
      status: statusOf(t[STATUS]),
      error: t[ERROR] as string | null,
      attempts: t[ATTEMPTS] as number,
      inputTokens: t[INPUT_TOKENS] as number,
      outputTokens: t[OUTPUT_TOKENS] as number,
      costUsd: t[COST_USD] as number,
      latencyMs: t[LATENCY_MS] as number,
      batchLatencyMs: t[BATCH_LATENCY_MS] as number,
      cachedCalls: t[CACHED_CALLS] as number,
      totalCalls: t[TOTAL_CALLS] as number,
      truncatedCalls: t[TRUNCATED_CALLS] as number,
      unpricedCalls: t[UNPRICED_CALLS] as number,
      finishedAt: this.finishedAt(t[FINISHED_AT] as string | number),
      transcript,
      scores,
    };
  }
}

/**
 * Trials with their transcripts (parsed, whole) and scores, in the order they were stored, read
 * in keyset pages of `batchSize` (by trial id: no OFFSET, no cursor held between pages): every
 * trial of the store, or one run's. One trial at a time: trialBatches' trials.
 */
export async function* trialPages(db: SqlDriver, runId?: string, batchSize = PAGE): AsyncIterable<RunTrial> {
  for await (const batch of trialBatches(db, runId, batchSize)) {
    for (let i = 0; i < batch.length; i++) {
      const t = batch[i]!;
      // Each trial is let go once yielded (what a reader has done with is garbage at once).
      (batch as Array<RunTrial | undefined>)[i] = undefined;
      yield t;
    }
  }
}

/**
 * trialPages' trials a few at a time (those unpacked together, UNPACK at most), in order: a
 * reader of many trials then waits for a promise a batch, not one a trial.
 */
export async function* trialBatches(db: SqlDriver, runId?: string, batchSize = PAGE): AsyncIterable<RunTrial[]> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size ${batchSize}: a positive integer`);
  const packer = new TranscriptPacker(db.codec);
  const loadBlobs = blobReader(db);
  const finishedAt = finishTimes();
  let runKey: number | undefined;
  if (runId !== undefined) {
    runKey = await runKeyOf(db, runId);
    if (runKey === undefined) return;
  }
  const names = new TrialNames(db);
  const scoreRows = new TrialScores(db, names, true);
  const run = runKey === undefined ? '' : 't.run_key = ? AND ';
  const columns = trialColumns(db);
  const blocks = db.backend === 'postgres' ? new PgBlockCache(db) : undefined;
  // The pass reads the run once (its pages are not kept in memory): see SqlDriver.beginPass.
  const endPass = db.beginPass();
  try {
    for (let after = 0; ; ) {
      const page = await db.rows(
        `SELECT ${columns} FROM trial_rows t LEFT JOIN transcripts tr ON tr.trial_id = t.id
         WHERE ${run}t.id > ? ORDER BY t.id LIMIT ?`,
        runKey === undefined ? [after, batchSize] : [runKey, after, batchSize],
      );
      if (page.length === 0) break;
      if (blocks) {
        // PostgreSQL: transcripts kept in blocks read a block at a time, each then tagged as text.
        const texts = await blocks.texts(page.map((t) => t[BODY]));
        page.forEach((t, i) => {
          t[BODY] = texts[i] === null ? null : `t${texts[i]}`;
        });
      }
      names.startPage();
      await names.resolve(page, NAME_COLUMNS, ITEM_REF);
      const first = Number(page[0]![ID]);
      const last = Number(page[page.length - 1]![ID]);
      // The scores of the page's id range, in trial order: those of other runs' trials in the range are passed over.
      const scores = await scoreRows.range(first, last);
      const trials = new PageTrials(page, scores, names, finishedAt);
      for (let from = 0; from < page.length; from += UNPACK) {
        const to = Math.min(page.length, from + UNPACK);
        const stored = trials.stored(from, to);
        yield trials.trials(from, to, stored.length ? await packer.unpackValues(stored, loadBlobs) : []);
      }
      if (page.length < batchSize) break;
      after = last;
    }
  } finally {
    endPass();
  }
}
