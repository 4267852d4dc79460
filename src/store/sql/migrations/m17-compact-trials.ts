import { type Migration, perBackend } from './dialect.js';

/** An ISO time that new Date(ms).toISOString() gives back exactly, as milliseconds since the epoch; any other text as it is. */
const FINISHED_MS = `CASE WHEN finished_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'
      AND strftime('%Y-%m-%dT%H:%M:%fZ', CAST(round(unixepoch(finished_at, 'subsec') * 1000) AS INTEGER) / 1000.0, 'unixepoch') = finished_at
    THEN CAST(round(unixepoch(finished_at, 'subsec') * 1000) AS INTEGER) ELSE finished_at END`;

/** A trial's finished_at as ISO text, whether kept in milliseconds or as text. */
const FINISHED_TEXT = `CASE WHEN typeof(t.finished_at) = 'integer'
      THEN strftime('%Y-%m-%dT%H:%M:%fZ', t.finished_at / 1000.0, 'unixepoch') ELSE t.finished_at END`;

/** A latency column (ms) in microseconds where that is exact, else the double as it is. */
const MICROSECONDS = (c: string) => `CASE WHEN abs(${c}) < 9e12 AND CAST(round(${c} * 1000) AS INTEGER) / 1000.0 = ${c}
      THEN CAST(round(${c} * 1000) AS INTEGER) ELSE ${c} END`;

/** A trial_rows latency column (ms), kept in microseconds or as a double. */
const LATENCY_MS = (c: string) => `CASE WHEN typeof(${c}) = 'integer' THEN ${c} / 1000.0 ELSE ${c} END`;

/** The view "trials": the columns that differ between the backends given. */
interface ViewColumns {
  itemHash: string;
  status: string;
  latencyMs: string;
  batchLatencyMs: string;
  finishedAt: string;
}

export const TRIALS_VIEW = ({ itemHash, status, latencyMs, batchLatencyMs, finishedAt }: ViewColumns) => `
  CREATE VIEW trials AS
    SELECT t.id AS id, r.name AS run_id, s.name AS subject_id, su.name AS suite, it.name AS item_id, t.replicate AS replicate,
      ${itemHash} AS item_hash, ${status} AS status, t.error AS error, t.attempts AS attempts, t.input_tokens AS input_tokens,
      t.output_tokens AS output_tokens, t.cost_usd AS cost_usd, ${latencyMs} AS latency_ms, t.cached_calls AS cached_calls,
      t.total_calls AS total_calls, ${finishedAt} AS finished_at, t.truncated_calls AS truncated_calls,
      t.unpriced_calls AS unpriced_calls, ${batchLatencyMs} AS batch_latency_ms, t.item_ref AS item_ref
    FROM trial_rows t LEFT JOIN names r ON r.id = t.run_key LEFT JOIN names s ON s.id = t.subject_key
      LEFT JOIN names su ON su.id = t.suite_key LEFT JOIN names it ON it.id = t.item_key LEFT JOIN items i ON i.id = t.item_ref;
`;

const PROMPT_TEXTS = (int64: string, id64: string, bytes: string) => `
  CREATE TABLE IF NOT EXISTS prompt_texts (
    id ${int64} PRIMARY KEY,
    body TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS transcript_blocks (
    id ${id64} PRIMARY KEY,
    body ${bytes} NOT NULL
  );
`;

/** SQLite: the tables rebuilt for their columns' types, each copied whole or the migration stops. */
const SQLITE_REBUILD = `${PROMPT_TEXTS('INTEGER', 'INTEGER', 'BLOB')}
  CREATE TABLE items_v17 (
    id INTEGER PRIMARY KEY,
    hash BLOB NOT NULL,
    suite TEXT NOT NULL,
    item_id TEXT NOT NULL,
    category TEXT NOT NULL,
    ability TEXT,
    answer TEXT NOT NULL,
    body TEXT NOT NULL
  );
  INSERT INTO items_v17 (id, hash, suite, item_id, category, ability, answer, body)
    SELECT id, CASE WHEN length(hash) = 64 AND hash NOT GLOB '*[^0-9a-f]*' THEN unhex(hash) ELSE hash END,
      suite, item_id, category, ability, answer, body
    FROM items ORDER BY id;
  CREATE UNIQUE INDEX items_hash_key ON items_v17(CASE WHEN typeof(hash) = 'blob' THEN substr(hash, 1, 8) ELSE hash END);
  CREATE TABLE trial_rows_v17 (
    id INTEGER PRIMARY KEY,
    run_key INTEGER NOT NULL REFERENCES names(id),
    subject_key INTEGER NOT NULL REFERENCES names(id),
    suite_key INTEGER NOT NULL REFERENCES names(id),
    item_key INTEGER NOT NULL REFERENCES names(id),
    replicate INTEGER NOT NULL,
    item_ref INTEGER NOT NULL REFERENCES items_v17(id),
    status INTEGER NOT NULL CHECK (status IN (0, 1)),
    error TEXT,
    attempts INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL NOT NULL DEFAULT 0,
    latency_ms INTEGER NOT NULL DEFAULT 0,
    cached_calls INTEGER NOT NULL DEFAULT 0,
    total_calls INTEGER NOT NULL DEFAULT 0,
    finished_at INTEGER NOT NULL,
    truncated_calls INTEGER NOT NULL DEFAULT 0,
    unpriced_calls INTEGER NOT NULL DEFAULT 0,
    batch_latency_ms INTEGER NOT NULL DEFAULT 0,
    UNIQUE (run_key, subject_key, suite_key, item_key, replicate)
  );
  INSERT INTO trial_rows_v17 (id, run_key, subject_key, suite_key, item_key, replicate, item_ref, status, error, attempts,
      input_tokens, output_tokens, cost_usd, latency_ms, cached_calls, total_calls, finished_at, truncated_calls,
      unpriced_calls, batch_latency_ms)
    SELECT id, run_key, subject_key, suite_key, item_key, replicate, item_ref, CASE WHEN status IN ('done', 1) THEN 1 ELSE 0 END, error,
      attempts, input_tokens, output_tokens, cost_usd, ${MICROSECONDS('latency_ms')}, cached_calls, total_calls, ${FINISHED_MS},
      truncated_calls, unpriced_calls, ${MICROSECONDS('batch_latency_ms')}
    FROM trial_rows ORDER BY id;
  CREATE TEMPORARY TABLE migration_check (copied INTEGER NOT NULL CHECK (copied = 1));
  INSERT INTO migration_check (copied)
    SELECT CASE WHEN (SELECT COUNT(*) FROM trial_rows_v17) = (SELECT COUNT(*) FROM trial_rows) THEN 1 ELSE 0 END;
  DROP TABLE migration_check;
  CREATE TABLE transcripts_v17 (
    trial_id INTEGER PRIMARY KEY REFERENCES trial_rows_v17(id),
    body TEXT NOT NULL,
    packed INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO transcripts_v17 (trial_id, body, packed) SELECT trial_id, body, packed FROM transcripts ORDER BY trial_id;
  INSERT INTO names (name) SELECT DISTINCT scorer FROM scores ORDER BY scorer ON CONFLICT (name) DO NOTHING;
  CREATE TABLE score_details (
    id INTEGER PRIMARY KEY,
    body BLOB NOT NULL UNIQUE
  );
  CREATE TABLE score_rows (
    trial_id INTEGER NOT NULL REFERENCES trial_rows_v17(id),
    scorer_key INTEGER NOT NULL REFERENCES names(id),
    value REAL NOT NULL,
    detail BLOB NOT NULL,
    rowid INTEGER NOT NULL,
    PRIMARY KEY (trial_id, scorer_key)
  ) WITHOUT ROWID;
  INSERT INTO score_rows (trial_id, scorer_key, value, detail, rowid)
    SELECT s.trial_id, n.id, s.value, s.detail, s.rowid FROM scores s JOIN names n ON n.name = s.scorer ORDER BY s.trial_id, n.id;
  CREATE TEMPORARY TABLE migration_check (copied INTEGER NOT NULL CHECK (copied = 1));
  INSERT INTO migration_check (copied)
    SELECT CASE WHEN (SELECT COUNT(*) FROM score_rows) = (SELECT COUNT(*) FROM scores) THEN 1 ELSE 0 END;
  DROP TABLE migration_check;
  DROP VIEW trials;
  DROP TABLE scores;
  DROP TABLE transcripts;
  DROP TABLE trial_rows;
  DROP TABLE items;
  ALTER TABLE items_v17 RENAME TO items;
  ALTER TABLE trial_rows_v17 RENAME TO trial_rows;
  ALTER TABLE transcripts_v17 RENAME TO transcripts;
  CREATE VIEW scores AS
    SELECT s.trial_id AS trial_id, n.name AS scorer, s.value AS value,
      CASE WHEN typeof(s.detail) = 'integer' THEN (SELECT d.body FROM score_details d WHERE d.id = s.detail) ELSE s.detail END AS detail,
      s.rowid AS rowid
    FROM score_rows s JOIN names n ON n.id = s.scorer_key;
  CREATE INDEX trials_run_order ON trial_rows(run_key, id);
  CREATE TABLE call_cache_v17 (
    key BLOB PRIMARY KEY,
    model_id INTEGER NOT NULL REFERENCES cache_models(id),
    response TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    origin_id INTEGER REFERENCES cache_origins(id)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO call_cache_v17 (key, model_id, response, created_at, origin_id)
    SELECT CASE WHEN typeof(key) = 'blob' AND length(key) = 32 THEN substr(key, 1, 16)
        WHEN length(key) = 64 AND key NOT GLOB '*[^0-9a-f]*' THEN unhex(substr(key, 1, 32)) ELSE key END,
      model_id, response, created_at, origin_id
    FROM call_cache ORDER BY key;
  DROP TABLE call_cache;
  ALTER TABLE call_cache_v17 RENAME TO call_cache;
  ${TRIALS_VIEW({
    itemHash: "CASE WHEN typeof(i.hash) = 'blob' THEN lower(hex(i.hash)) ELSE i.hash END",
    status: "CASE t.status WHEN 1 THEN 'done' ELSE 'failed' END",
    latencyMs: LATENCY_MS('t.latency_ms'),
    batchLatencyMs: LATENCY_MS('t.batch_latency_ms'),
    finishedAt: FINISHED_TEXT,
  })}`;

/**
 * 17: smaller rows for every trial and item. Prompt blobs are written to prompt_texts, keyed by
 * a 63-bit integer taken from their hash (sql/blob-rows.ts): the table is its own index, where
 * prompt_blobs kept every hash twice (row and unique index); blobs written before stay in
 * prompt_blobs, where the transcripts written before find them. SQLite keeps the transcripts
 * written together in blocks (transcript_blocks, sql/text-codec.ts), each transcript row holding
 * its place in one; rows written before keep their form. (A store that has either table already
 * keeps it and its rows.) A cache entry's key is its request hash's first 128 bits
 * (sql/cache-rows.ts). SQLite keeps an item's SHA-256 hex hash as its 32 bytes, indexed
 * (uniquely) by its first 8 (sql/item-keys.ts; another hash stays text, indexed whole), a
 * trial's status as 1 (done) or 0 (failed), its latencies in microseconds where that is exact
 * (a double otherwise) and its finished_at as milliseconds since the epoch where that gives the
 * same ISO text back (any other text stays as it was; sql/trial-values.ts): items, trial_rows
 * and call_cache are rebuilt, transcripts and scores with them (their references); a score's
 * scorer is kept by number in names (the table score_rows, written through sql/trial-writes.ts),
 * a short detail once in score_details (the row holding its number; details written before stay
 * in their rows), and the view "scores" gives both as the table of that name did. The view
 * "trials" gives every value as it was written, and the trial's item by number (item_ref) for
 * joins with items. PostgreSQL adds the tables and the view's column and cuts its cache keys
 * (hex text); its item hashes, statuses, latencies and times stay as they were.
 */
export const COMPACT_TRIALS: Migration = perBackend({
  sqlite: SQLITE_REBUILD,
  postgres: `${PROMPT_TEXTS('BIGINT', 'BIGSERIAL', 'BYTEA')}
  UPDATE call_cache SET key = substr(key, 1, 32) WHERE key ~ '^[0-9a-f]{64}$';
  DROP VIEW trials;
  ${TRIALS_VIEW({
    itemHash: 'i.hash',
    status: 't.status',
    latencyMs: 't.latency_ms',
    batchLatencyMs: 't.batch_latency_ms',
    finishedAt: 't.finished_at',
  })}`,
});
