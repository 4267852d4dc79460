// The writes that record a finished trial, as queued for the group commit: the trial row, its
// lease given back, its transcript and its protocol score, all in the group's transaction. A
// result is recorded once: the later of two writes of a done trial is a no-op, and a failure
// never replaces a done trial (the upsert only replaces a failed row).

// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';
import type { TrialKey, TrialOutcome } from '../../core/index.js';
import type { TrialStatus } from '../store.js';
import type { SqlExecutor, SyncSqlExecutor } from './driver.js';
import { type PgTextPlace, pgTextPlaces } from './pg-text-blocks.js';
import type { TextCodec } from './text-codec.js';
import { itemHashParam, itemIdByHash } from './item-keys.js';
import { KEY_WHERE, keyParams, leaseParams, leaseWhere } from './trial-key-sql.js';
import { finishedAtParam, finishedNow, latencyParam, statusParam, statusSql } from './trial-values.js';

/**
 * A queued write: statements run in the group's transaction, and what they need named first:
 * prompt blobs, the cache model (provider, spec) and origin, the names a trial row refers to.
 */
export type Write = ((tx: SqlExecutor, group?: GroupWrites) => Promise<void> | void) & {
  blobs?: Array<[string, string]>;
  /** A done trial's packed transcript (SQLite), and its value once the group has put it in a block. */
  transcript?: string;
  storedTranscript?: Buffer;
  /** PostgreSQL: where the group keeps the transcript (pg-text-blocks.ts): its row, or a block. */
  pgTranscript?: PgTextPlace;
  model?: [string, string];
  origin?: string;
  names?: string[];
};

/**
 * What a group commit's writes share (SQLite): the numbers of names known, so that a row gives
 * them as numbers rather than looking each up; the largest trial id before the group, above which
 * a trial row is new and so holds no scores yet; the short score details inserted already.
 */
export interface GroupWrites {
  nameId: (name: string) => number | undefined;
  trialIdsAbove: number;
  details: Set<string | Buffer>;
}

/** A trial key's names (run, subject, suite, item id): each is stored once, in names, and a trial row refers to it by number. */
export const keyNames = (k: TrialKey): string[] => [k.runId, k.subjectId, k.suite, k.itemId];

/** The number of a name in names, as a value in a statement. */
const NAME_ID = '(SELECT id FROM names WHERE name = ?)';

/**
 * The names a trial's scores refer to by number, to be in names before they are written: their
 * scorers, and in PostgreSQL their details short enough to be kept once (sharedDetail).
 */
export const scoreNames = (backend: 'sqlite' | 'postgres', scorers: Iterable<string>, details: Iterable<string> = []): string[] =>
  backend === 'sqlite' ? [...scorers] : [...scorers, ...[...details].filter(sharedDetail)];

/** PostgreSQL keeps a score's detail of at most this many characters once, in names (schema 18). */
const SHARED_DETAIL_CHARS = 128;

/** Whether PostgreSQL keeps a score's detail (text) once, in names, the row holding its number. */
const sharedDetail = (detail: string): boolean => detail.length <= SHARED_DETAIL_CHARS;

/**
 * A trial row's key and item (by number) as a VALUES list's first six entries: run, subject,
 * suite, item id, replicate, item hash (as itemHashParam gives it).
 */
export const trialKeyValues = (backend: 'sqlite' | 'postgres'): string =>
  `${NAME_ID}, ${NAME_ID}, ${NAME_ID}, ${NAME_ID}, ?, ${itemIdByHash(backend)}`;

/** The trial row columns trialKeyValues fills, and the row's unique key. */
export const TRIAL_KEY_COLUMNS = 'run_key, subject_key, suite_key, item_key, replicate, item_ref';
export const TRIAL_UNIQUE = 'run_key, subject_key, suite_key, item_key, replicate';

/** Name these in names, each once, in one order for every process (as insertCacheModels does). */
export async function insertNames(tx: SqlExecutor, names: Iterable<string>): Promise<void> {
  const sorted = [...new Set(names)].sort();
  for (let i = 0; i < sorted.length; i += 500) {
    const part = sorted.slice(i, i + 500);
    await tx.run(`INSERT INTO names (name) VALUES ${Array(part.length).fill('(?)').join(', ')} ON CONFLICT (name) DO NOTHING`, part);
  }
}

/** The numbers of names in names (SQLite), read in the transaction that inserted them. */
export async function nameIds(tx: SqlExecutor, names: Iterable<string>): Promise<Array<[string, number]>> {
  const unique = [...new Set(names)];
  const out: Array<[string, number]> = [];
  for (let i = 0; i < unique.length; i += 500) {
    const part = unique.slice(i, i + 500);
    const rows = await tx.all<{ id: number; name: string }>(
      `SELECT id, name FROM names WHERE name IN (${Array(part.length).fill('?').join(', ')})`,
      part,
    );
    for (const r of rows) out.push([r.name, Number(r.id)]);
  }
  return out;
}

/**
 * Insert or update a trial row, replacing an existing row only when it is a failure (a done
 * trial is kept as it is). The statement returns the row's id when it wrote it, nothing when it
 * kept the existing row. The trial's names must be in names (insertNames) first.
 */
const upsertTrial = (backend: 'sqlite' | 'postgres'): string => `INSERT INTO trial_rows (${TRIAL_KEY_COLUMNS}, status, error, attempts,
         input_tokens, output_tokens, cost_usd, latency_ms, batch_latency_ms, cached_calls, total_calls, truncated_calls, unpriced_calls,
         finished_at)
       VALUES (${trialKeyValues(backend)}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (${TRIAL_UNIQUE}) DO UPDATE SET item_ref = excluded.item_ref, status = excluded.status,
         error = excluded.error, attempts = trial_rows.attempts + excluded.attempts, input_tokens = excluded.input_tokens,
         output_tokens = excluded.output_tokens, cost_usd = excluded.cost_usd, latency_ms = excluded.latency_ms,
         batch_latency_ms = excluded.batch_latency_ms, cached_calls = excluded.cached_calls, total_calls = excluded.total_calls,
         truncated_calls = excluded.truncated_calls, unpriced_calls = excluded.unpriced_calls, finished_at = excluded.finished_at
       WHERE trial_rows.status = ${statusSql(backend, 'failed')}
       RETURNING id`;

/** upsertTrial's SQLite statement, and the same with the key's names given as their numbers. */
const UPSERT_TRIAL_SQLITE = upsertTrial('sqlite');
const UPSERT_TRIAL_BY_IDS = UPSERT_TRIAL_SQLITE.replace(trialKeyValues('sqlite'), `?, ?, ?, ?, ?, ${itemIdByHash('sqlite')}`);

/** Encoded details (bytes or characters) up to this long are kept once in score_details (SQLite). */
const SHARED_DETAIL_MAX = 32;

/**
 * The statements that insert or update a score: trial id, scorer, value, detail (encoded).
 * SQLite keeps the scorer by number (score_rows, schema 17: its name must be in names first, as
 * scoreNames gives them), a short detail once in score_details (an MCQ scorer's few outcomes),
 * the row holding its number, and numbers a trial's scores in the order they came (the column
 * rowid): the protocol's score first. PostgreSQL (schema 18) keeps the scorer by number too, a
 * short detail once in names (sharedDetail), numbering a trial's scores in seq. The view scores
 * gives every value as it was written.
 */
export function upsertScore(
  backend: 'sqlite' | 'postgres',
  row: [number, string, number, string | Buffer],
): Array<{ sql: string; params: unknown[] }> {
  if (backend === 'postgres') {
    const [trialId, scorer, value, text] = row as [number, string, number, string];
    const shared = sharedDetail(text);
    const upsert = {
      sql: `INSERT INTO score_rows (trial_id, scorer_key, value, detail_key, detail, seq)
        VALUES (?, ${NAME_ID}, ?, ${shared ? `${NAME_ID}, NULL` : 'NULL, ?'}, COALESCE((SELECT MAX(seq) FROM score_rows WHERE trial_id = ?), 0) + 1)
        ON CONFLICT (trial_id, scorer_key) DO UPDATE SET value = excluded.value, detail_key = excluded.detail_key, detail = excluded.detail`,
      params: [trialId, scorer, value, text, trialId],
    };
    if (!shared) return [upsert];
    return [{ sql: 'INSERT INTO names (name) VALUES (?) ON CONFLICT (name) DO NOTHING', params: [text] }, upsert];
  }
  const [trialId, scorer, value, detail] = row;
  const shared = detail.length <= SHARED_DETAIL_MAX;
  const upsert = {
    sql: `INSERT INTO score_rows (trial_id, scorer_key, value, detail, rowid)
      VALUES (?, ${NAME_ID}, ?, ${shared ? '(SELECT id FROM score_details WHERE body = ?)' : '?'},
        COALESCE((SELECT MAX(rowid) FROM score_rows WHERE trial_id = ?), 0) + 1)
      ON CONFLICT (trial_id, scorer_key) DO UPDATE SET value = excluded.value, detail = excluded.detail`,
    params: [trialId, scorer, value, detail, trialId],
  };
  if (!shared) return [upsert];
  return [{ sql: 'INSERT INTO score_details (body) VALUES (?) ON CONFLICT (body) DO NOTHING', params: [detail] }, upsert];
}

/** A trial's first score: it numbers 1 (a row new in this group holds no scores before it). */
const FIRST_SCORE = (shared: boolean) => `INSERT INTO score_rows (trial_id, scorer_key, value, detail, rowid)
  VALUES (?, ?, ?, ${shared ? '(SELECT id FROM score_details WHERE body = ?)' : '?'}, 1)
  ON CONFLICT (trial_id, scorer_key) DO UPDATE SET value = excluded.value, detail = excluded.detail`;
const FIRST_SHARED = FIRST_SCORE(true);
const FIRST_OWN = FIRST_SCORE(false);

/**
 * upsertScore's statements within a group commit (SQLite): the scorer by number where known, a
 * shared detail inserted once a group, and a trial row new in the group (its id above
 * group.trialIdsAbove: ids only grow, and a trial's scores go before it may be deleted) numbering
 * its first score 1 without looking for others. The same rows as upsertScore's.
 */
function groupScore(group: GroupWrites, row: [number, string, number, string | Buffer]): Array<{ sql: string; params: unknown[] }> {
  const [trialId, scorer, value, detail] = row;
  const scorerId = group.nameId(scorer);
  if (scorerId === undefined || trialId <= group.trialIdsAbove) return upsertScore('sqlite', row);
  const shared = detail.length <= SHARED_DETAIL_MAX;
  const upsert = { sql: shared ? FIRST_SHARED : FIRST_OWN, params: [trialId, scorerId, value, detail] };
  if (!shared || group.details.has(detail)) return [upsert];
  group.details.add(detail);
  return [{ sql: 'INSERT INTO score_details (body) VALUES (?) ON CONFLICT (body) DO NOTHING', params: [detail] }, upsert];
}

/** A time in milliseconds to the microsecond: what a clock measures; the rest of a double's digits are noise that costs bytes. */
const toMicroseconds = (ms: number): number => (Number.isFinite(ms) ? Math.round(ms * 1000) / 1000 : ms);

function trialParams(
  backend: 'sqlite' | 'postgres',
  k: TrialKey,
  itemHash: string,
  f: { status: TrialStatus; error: string | null; attempts: number; o?: TrialOutcome; finishedAt?: string },
): unknown[] {
  const o = f.o;
  const finishedAt = f.finishedAt ?? o?.finishedAt;
  return [
    ...keyParams(k),
    itemHashParam(backend, itemHash),
    statusParam(backend, f.status),
    f.error,
    f.attempts,
    o?.usage.inputTokens ?? 0,
    o?.usage.outputTokens ?? 0,
    o?.costUsd ?? 0,
    latencyParam(backend, toMicroseconds(o?.latencyMs ?? 0)),
    latencyParam(backend, toMicroseconds(o?.batchLatencyMs ?? 0)),
    o?.cachedCalls ?? 0,
    o?.totalCalls ?? 0,
    o?.truncatedCalls ?? 0,
    o?.unpricedCalls ?? 0,
    // The time given (a trial taken from elsewhere), else now.
    finishedAt === undefined ? finishedNow(backend) : finishedAtParam(backend, finishedAt),
  ];
}

/**
 * The write of a done trial with its packed transcript; everything is serialised now (the caller
 * may reuse its objects), and encoded by `codec` in the transaction (after its dictionaries).
 */
export function doneTrialWrite(
  backend: 'sqlite' | 'postgres',
  k: TrialKey,
  itemHash: string,
  outcome: TrialOutcome,
  attempts: number,
  transcript: string,
  codec: TextCodec,
): Write {
  const trial = trialParams(backend, k, itemHash, { status: 'done', error: null, attempts, o: outcome });
  const detail = JSON.stringify(outcome.score.detail);
  // The write keeps these, not the outcome: a write waits for its group's commit, and the
  // outcome's transcript (messages, replies) would live as long, through the young
  // generation's collections in between.
  const { scorer, value } = outcome.score;
  const score = [scorer, value, detail];
  // PostgreSQL: the detail by number when it is kept once (scoreNames named it first).
  const shared = sharedDetail(detail);
  if (backend === 'postgres') {
    // One statement, one round trip: the trial, its lease given back, its transcript and score.
    const pgWrite: Write = async (tx) => {
      await tx.run(
        `WITH t AS (${upsertTrial(backend)}),
           l AS (DELETE FROM trial_leases WHERE ${leaseWhere(backend)}),
           tr AS (INSERT INTO transcripts (trial_id, body, packed, block, place)
             SELECT id, CAST(? AS TEXT), 1, CAST(? AS INTEGER), CAST(? AS SMALLINT) FROM t
             ON CONFLICT (trial_id) DO UPDATE SET body = excluded.body, packed = excluded.packed, block = excluded.block, place = excluded.place)
         INSERT INTO score_rows (trial_id, scorer_key, value, detail_key, detail, seq)
           SELECT id, ${NAME_ID}, CAST(? AS DOUBLE PRECISION), ${shared ? `${NAME_ID}, NULL` : 'NULL, ?'},
             COALESCE((SELECT MAX(s.seq) FROM score_rows s WHERE s.trial_id = t.id), 0) + 1 FROM t
           ON CONFLICT (trial_id, scorer_key) DO UPDATE SET value = excluded.value, detail_key = excluded.detail_key, detail = excluded.detail`,
        [...trial, ...leaseParams(backend, k), ...(pgWrite.pgTranscript ?? [transcript, null, null]), ...score],
      );
    };
    pgWrite.transcript = transcript;
    return pgWrite;
  }
  // SQLite's statements run at once, one after another, with no await between them.
  const write: Write = (tx, group) => {
    const s = syncStatements(tx);
    const row = s.get<{ id: number }>(...trialUpsert(k, trial, group));
    s.run(DELETE_LEASE, keyParams(k));
    if (!row) return;
    s.run(
      'INSERT INTO transcripts (trial_id, body, packed) VALUES (?, ?, 1) ON CONFLICT (trial_id) DO UPDATE SET body = excluded.body, packed = excluded.packed',
      [row.id, write.storedTranscript ?? codec.encode('transcript', transcript)],
    );
    const score: [number, string, number, string | Buffer] = [row.id, scorer, value, codec.encode('score', detail)];
    for (const q of group ? groupScore(group, score) : upsertScore('sqlite', score)) s.run(q.sql, q.params);
  };
  if (codec.blocksTranscripts) write.transcript = transcript;
  return write;
}

/**
 * Transcripts a block holds at most (a reader of one inflates its whole block). Blocks of a few
 * dozen MCQ transcripts (about 1 KB deflated) would each fill a 2 KiB page alone, half of it
 * empty; a larger block spills into overflow pages, which SQLite fills.
 */
const BLOCK_MAX = 256;

/**
 * Transcripts a PostgreSQL block holds at most (pg-text-blocks.ts): 128 MCQ transcripts (some
 * 200 bytes each) compress to about an eighth, 16 to a fifth. Readers of many read a block once;
 * a reader of one (a trial's page) parses its block's JSON, some 25 KB.
 */
export const PG_TRANSCRIPT_BLOCK_MAX = 128;

/**
 * Put the done trials' transcripts of a group of writes in blocks (SQLite: text-codec.ts, each a
 * row of transcript_blocks; PostgreSQL: pg-text-blocks.ts), before the writes run, each write
 * given its transcript's place.
 */
export async function blockTranscripts(tx: SqlExecutor, codec: TextCodec, writes: readonly Write[]): Promise<void> {
  // Places in a block of an attempt rolled back are forgotten (the group is tried again one write at a time).
  for (const w of writes) {
    w.storedTranscript = undefined;
    w.pgTranscript = undefined;
  }
  const done = writes.filter((w) => w.transcript !== undefined);
  // A lone transcript is kept in its row, as before.
  if (done.length < 2) return;
  if (!codec.compress) {
    // PostgreSQL: blocks of JSON text that it compresses (pg-text-blocks.ts).
    const places = await pgTextPlaces(
      tx,
      done.map((w) => w.transcript!),
      PG_TRANSCRIPT_BLOCK_MAX,
    );
    done.forEach((w, j) => {
      w.pgTranscript = places[j];
    });
    return;
  }
  for (let i = 0; i < done.length; i += BLOCK_MAX) {
    const part = done.slice(i, i + BLOCK_MAX);
    const row = await tx.get<{ id: number }>('INSERT INTO transcript_blocks (body) VALUES (?) RETURNING id', [
      codec.blockOf(part.map((w) => w.transcript!)),
    ]);
    part.forEach((w, j) => {
      w.storedTranscript = codec.member(Number(row!.id), j);
    });
  }
}

const DELETE_LEASE = `DELETE FROM trial_leases WHERE ${KEY_WHERE}`;

/** A SQLite transaction's synchronous statements (SqlExecutor.sync); its writes are made for no other. */
function syncStatements(tx: SqlExecutor): SyncSqlExecutor {
  if (!tx.sync) throw new MindscopeError('a SQLite write needs a SQLite transaction');
  return tx.sync;
}

/** A trial row's upsert (SQLite): by its names' numbers where the group knows them all. */
function trialUpsert(k: TrialKey, params: unknown[], group: GroupWrites | undefined): [string, unknown[]] {
  if (!group) return [UPSERT_TRIAL_SQLITE, params];
  const run = group.nameId(k.runId);
  const subject = group.nameId(k.subjectId);
  const suite = group.nameId(k.suite);
  const item = group.nameId(k.itemId);
  if (run === undefined || subject === undefined || suite === undefined || item === undefined) return [UPSERT_TRIAL_SQLITE, params];
  // The key's four names given as their numbers, in place of the names (params' first four).
  const byIds = params.slice();
  byIds[0] = run;
  byIds[1] = subject;
  byIds[2] = suite;
  byIds[3] = item;
  return [UPSERT_TRIAL_BY_IDS, byIds];
}

/** The write of a failed trial: never replaces a done one. */
export function failedTrialWrite(
  backend: 'sqlite' | 'postgres',
  k: TrialKey,
  itemHash: string,
  error: string,
  attempts: number,
  finishedAt?: string,
): Write {
  const trial = trialParams(backend, k, itemHash, {
    status: 'failed',
    error,
    attempts,
    ...(finishedAt !== undefined ? { finishedAt } : {}),
  });
  if (backend === 'sqlite')
    return (tx, group) => {
      const s = syncStatements(tx);
      s.run(...trialUpsert(k, trial, group));
      s.run(DELETE_LEASE, keyParams(k));
    };
  return async (tx) => {
    await tx.run(upsertTrial(backend), trial);
    await tx.run(`DELETE FROM trial_leases WHERE ${leaseWhere(backend)}`, leaseParams(backend, k));
  };
}
