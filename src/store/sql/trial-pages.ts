// A run's trials (or every trial of a store) streamed with their transcripts and scores, in the
// order they were stored: what exports, the viewer and store copies read. trial_rows is read
// directly (not the view "trials", which joins names and items for every row): a run's rows
// name few subjects, suites and items, each looked up once (trial-names.ts).

import type { RunTrial, StoredTrial } from '../store.js';
import type { SqlDriver } from './driver.js';
import { blobLoader, TranscriptPacker } from './transcript-packing.js';
import { runKeyOf, TrialNames } from './trial-names.js';

const PAGE = 500;
/**
 * Transcripts unpacked at a time: what a reader of a page has done with is garbage before the
 * young generation's next collection, whatever the page's size.
 */
const UNPACK = 100;
/** Score details at most this long are decoded once per distinct stored value (a protocol's details repeat). */
const REMEMBERED_DETAIL_BYTES = 256;

/** A trial_rows row as trialPages reads it: names and the item by number. */
interface KeyedTrialRow {
  id: number;
  runKey: number;
  subjectKey: number;
  suiteKey: number;
  itemKey: number;
  itemRef: number;
  replicate: number;
  status: StoredTrial['status'];
  error: string | null;
  attempts: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
  batchLatencyMs: number;
  cachedCalls: number;
  totalCalls: number;
  truncatedCalls: number;
  unpricedCalls: number;
  finishedAt: string;
  transcript: string | Uint8Array | null;
  packed: number | null;
}

const TRIAL_COLUMNS = `t.id AS id, t.run_key AS "runKey", t.subject_key AS "subjectKey", t.suite_key AS "suiteKey", t.item_key AS "itemKey",
  t.item_ref AS "itemRef", t.replicate AS replicate, t.status AS status, t.error AS error, t.attempts AS attempts,
  t.input_tokens AS "inputTokens", t.output_tokens AS "outputTokens", t.cost_usd AS "costUsd", t.latency_ms AS "latencyMs",
  t.batch_latency_ms AS "batchLatencyMs", t.cached_calls AS "cachedCalls", t.total_calls AS "totalCalls",
  t.truncated_calls AS "truncatedCalls", t.unpriced_calls AS "unpricedCalls", t.finished_at AS "finishedAt",
  tr.body AS transcript, tr.packed AS packed`;

/** Decodes score details, remembering short ones by their stored bytes. */
function detailDecoder(db: SqlDriver): (stored: string | Uint8Array) => string {
  const known = new Map<string, string>();
  return (stored) => {
    if (typeof stored === 'string') return stored;
    if (stored.length > REMEMBERED_DETAIL_BYTES) return db.codec.decode(stored);
    const key = Buffer.from(stored.buffer, stored.byteOffset, stored.length).toString('latin1');
    let text = known.get(key);
    if (text === undefined) {
      text = db.codec.decode(stored);
      if (known.size >= 10_000) known.clear();
      known.set(key, text);
    }
    return text;
  };
}

/**
 * Trials with their transcripts (parsed, whole) and scores, in the order they were stored, read
 * in keyset pages of `batchSize` (by trial id: no OFFSET, no cursor held between pages): every
 * trial of the store, or one run's.
 */
export async function* trialPages(db: SqlDriver, runId?: string, batchSize = PAGE): AsyncIterable<RunTrial> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size ${batchSize}: a positive integer`);
  const packer = new TranscriptPacker(db.codec);
  const loadBlobs = blobLoader(db);
  const decodeDetail = detailDecoder(db);
  let runKey: number | undefined;
  if (runId !== undefined) {
    runKey = await runKeyOf(db, runId);
    if (runKey === undefined) return;
  }
  const names = new TrialNames(db);
  const run = runKey === undefined ? '' : 't.run_key = ? AND ';
  for (let after = 0; ; ) {
    const page = await db.all<KeyedTrialRow>(
      `SELECT ${TRIAL_COLUMNS} FROM trial_rows t LEFT JOIN transcripts tr ON tr.trial_id = t.id
       WHERE ${run}t.id > ? ORDER BY t.id LIMIT ?`,
      runKey === undefined ? [after, batchSize] : [runKey, after, batchSize],
    );
    if (page.length === 0) break;
    await names.resolve(page);
    const first = Number(page[0]!.id);
    const last = Number(page[page.length - 1]!.id);
    // The scores of the page's id range, in trial order: those of other runs' trials in the range are passed over.
    const scores = await db.all<{ trial_id: number; scorer: string; value: number; detail: string | Uint8Array }>(
      `SELECT trial_id, scorer, value, detail FROM scores WHERE trial_id >= ? AND trial_id <= ?
       ORDER BY trial_id, ${db.dialect.insertionOrder}`,
      [first, last],
    );
    let s = 0;
    for (let from = 0; from < page.length; from += UNPACK) {
      const to = Math.min(page.length, from + UNPACK);
      const stored: Array<{ body: string | Uint8Array; packed: number }> = [];
      for (let i = from; i < to; i++) {
        const t = page[i]!;
        if (t.transcript !== null) stored.push({ body: t.transcript, packed: t.packed ?? 0 });
      }
      const whole = stored.length ? await packer.unpackValues(stored, loadBlobs) : [];
      stored.length = 0;
      let w = 0;
      for (let i = from; i < to; i++) {
        const t = page[i]!;
        // Each row is let go once yielded (what a reader has done with is garbage at once).
        (page as Array<KeyedTrialRow | undefined>)[i] = undefined;
        const id = Number(t.id);
        while (s < scores.length && Number(scores[s]!.trial_id) < id) s++;
        const own: StoredTrial['scores'] = [];
        for (; s < scores.length && Number(scores[s]!.trial_id) === id; s++) {
          const sc = scores[s]!;
          own.push({ scorer: sc.scorer, value: sc.value, detail: decodeDetail(sc.detail) });
        }
        let transcript: unknown = null;
        if (t.transcript !== null) {
          transcript = whole[w];
          whole[w++] = undefined;
        }
        // Written out rather than spread from the row: a run's export makes one of these a trial.
        yield {
          runId: names.name(t.runKey),
          subjectId: names.name(t.subjectKey),
          suite: names.name(t.suiteKey),
          itemId: names.name(t.itemKey),
          replicate: t.replicate,
          itemHash: names.itemHash(t.itemRef),
          status: t.status,
          error: t.error,
          attempts: t.attempts,
          inputTokens: t.inputTokens,
          outputTokens: t.outputTokens,
          costUsd: t.costUsd,
          latencyMs: t.latencyMs,
          batchLatencyMs: t.batchLatencyMs,
          cachedCalls: t.cachedCalls,
          totalCalls: t.totalCalls,
          truncatedCalls: t.truncatedCalls,
          unpricedCalls: t.unpricedCalls,
          finishedAt: t.finishedAt,
          transcript,
          scores: own,
        };
      }
    }
    if (page.length < batchSize) break;
    after = last;
  }
}
