// An empty store taken back to schema 18, 17, 16 or 15, or its trial tables to schema 14 (before trial rows named their run,
// subject, suite and item by number): for tests that make a store look as if an older
// mindscope wrote it, dropping further what later migrations added.

/**
 * A store taken back to schema 18, for SQLite or PostgreSQL: PostgreSQL's item bodies, prompt
 * texts and transcripts each in its row again, its leases keyed by their five columns (SQLite's
 * schema 19 is its schema 18).
 */
export function backToSchema18(backend: 'sqlite' | 'postgres'): string[] {
  if (backend === 'sqlite') return [];
  return ['items', 'prompt_texts', 'transcripts']
    .flatMap((table) => [
      `ALTER TABLE ${table} DROP CONSTRAINT ${table}_body_or_block`,
      `UPDATE ${table} SET body = (b.body::json) ->> ${table}.place::int FROM text_blocks b WHERE b.id = ${table}.block`,
      `ALTER TABLE ${table} DROP COLUMN block, DROP COLUMN place`,
      `ALTER TABLE ${table} ALTER COLUMN body SET NOT NULL`,
    ])
    .concat(
      'DROP TABLE text_blocks',
      'DROP INDEX trial_leases_key',
      'ALTER TABLE trial_leases ADD PRIMARY KEY (run_id, subject_id, suite, item_id, replicate)',
    );
}

/**
 * A store taken back to schema 17, for SQLite or PostgreSQL: PostgreSQL's scores a table naming
 * their scorer and holding their detail again, in the order they were numbered, and its cache
 * keys and item hashes text (SQLite's schema 18 is its schema 17).
 */
export function backToSchema17(backend: 'sqlite' | 'postgres'): string[] {
  if (backend === 'sqlite') return [];
  return [
    ...backToSchema18(backend),
    `CREATE TABLE scores_v17 (trial_id BIGINT NOT NULL REFERENCES trial_rows(id), scorer TEXT NOT NULL,
       value DOUBLE PRECISION NOT NULL, detail TEXT NOT NULL, seq BIGSERIAL, PRIMARY KEY (trial_id, scorer))`,
    'INSERT INTO scores_v17 (trial_id, scorer, value, detail) SELECT trial_id, scorer, value, detail FROM scores ORDER BY trial_id, seq',
    'DROP VIEW scores',
    'DROP TABLE score_rows',
    'ALTER TABLE scores_v17 RENAME TO scores',
    `ALTER TABLE call_cache ALTER COLUMN key TYPE TEXT USING CASE WHEN octet_length(key) = 16 THEN encode(key, 'hex')
       ELSE convert_from(ltrim(key, '\\x00'::bytea), 'UTF8') END`,
    'DROP VIEW trials',
    `ALTER TABLE items ALTER COLUMN hash TYPE TEXT USING CASE WHEN octet_length(hash) = 32 THEN encode(hash, 'hex')
       ELSE convert_from(ltrim(hash, '\\x00'::bytea), 'UTF8') END`,
    `CREATE VIEW trials AS
      SELECT t.id AS id, r.name AS run_id, s.name AS subject_id, su.name AS suite, it.name AS item_id, t.replicate AS replicate,
        i.hash AS item_hash, t.status AS status, t.error AS error, t.attempts AS attempts, t.input_tokens AS input_tokens,
        t.output_tokens AS output_tokens, t.cost_usd AS cost_usd, t.latency_ms AS latency_ms, t.cached_calls AS cached_calls,
        t.total_calls AS total_calls, t.finished_at AS finished_at, t.truncated_calls AS truncated_calls,
        t.unpriced_calls AS unpriced_calls, t.batch_latency_ms AS batch_latency_ms, t.item_ref AS item_ref
      FROM trial_rows t LEFT JOIN names r ON r.id = t.run_key LEFT JOIN names s ON s.id = t.subject_key
        LEFT JOIN names su ON su.id = t.suite_key LEFT JOIN names it ON it.id = t.item_key LEFT JOIN items i ON i.id = t.item_ref`,
  ];
}

/**
 * A store taken back to schema 16 (before item hashes and trial values were kept compactly), for
 * SQLite or PostgreSQL, as far as migration 17 reads it: item hashes and finish times as text
 * again, latencies in milliseconds, scores a table naming their scorer. Statuses (which
 * migration 17 reads in either form), prompt texts and cache keys stay as they are.
 */
function backToSchema16(backend: 'sqlite' | 'postgres'): string[] {
  if (backend === 'postgres') return backToSchema17(backend);
  return [
    "UPDATE items SET hash = lower(hex(hash)) WHERE typeof(hash) = 'blob'",
    'DROP INDEX items_hash_key',
    'CREATE UNIQUE INDEX items_hash_v16 ON items(hash)',
    `UPDATE trial_rows SET latency_ms = CASE WHEN typeof(latency_ms) = 'integer' THEN latency_ms / 1000.0 ELSE latency_ms END,
       batch_latency_ms = CASE WHEN typeof(batch_latency_ms) = 'integer' THEN batch_latency_ms / 1000.0 ELSE batch_latency_ms END,
       finished_at = CASE WHEN typeof(finished_at) = 'integer'
         THEN strftime('%Y-%m-%dT%H:%M:%fZ', finished_at / 1000.0, 'unixepoch') ELSE finished_at END`,
    // Scores as a table again, the scorer by name.
    `CREATE TABLE scores_v16 (trial_id INTEGER NOT NULL REFERENCES trial_rows(id), scorer TEXT NOT NULL, value REAL NOT NULL,
       detail TEXT NOT NULL, rowid INTEGER NOT NULL, PRIMARY KEY (trial_id, scorer)) WITHOUT ROWID`,
    'INSERT INTO scores_v16 (trial_id, scorer, value, detail, rowid) SELECT trial_id, scorer, value, detail, rowid FROM scores',
    'DROP VIEW scores',
    'DROP TABLE score_rows',
    'DROP TABLE score_details',
    'ALTER TABLE scores_v16 RENAME TO scores',
  ];
}

/**
 * A store taken back to schema 15 (before values were kept compressed against dictionaries),
 * for SQLite or PostgreSQL: right for a store that has trained no dictionary yet (its rows are
 * then as schema 15 wrote them).
 */
export function backToSchema15(backend: 'sqlite' | 'postgres'): string[] {
  const common = [...backToSchema16(backend), 'DROP TABLE dictionaries', 'CREATE INDEX items_suite ON items(suite, item_id)'];
  if (backend === 'postgres') return common;
  // SQLite's scores as a rowid table again, in the order they were numbered.
  return [
    ...common,
    `CREATE TABLE scores_v15 (trial_id INTEGER NOT NULL REFERENCES trial_rows(id), scorer TEXT NOT NULL, value REAL NOT NULL,
       detail TEXT NOT NULL, PRIMARY KEY (trial_id, scorer))`,
    'INSERT INTO scores_v15 (trial_id, scorer, value, detail) SELECT trial_id, scorer, value, detail FROM scores ORDER BY trial_id, rowid',
    'DROP TABLE scores',
    'ALTER TABLE scores_v15 RENAME TO scores',
  ];
}

/** The statements, one at a time, for SQLite or PostgreSQL. */
export function backToSchema14(backend: 'sqlite' | 'postgres'): string[] {
  const pg = backend === 'postgres';
  const id = pg ? 'BIGSERIAL' : 'INTEGER';
  const int64 = pg ? 'BIGINT' : 'INTEGER';
  const real = pg ? 'DOUBLE PRECISION' : 'REAL';
  return [
    ...backToSchema15(backend),
    'DROP VIEW trials',
    'DROP TABLE scores',
    'DROP TABLE transcripts',
    'DROP TABLE trial_rows',
    'DROP TABLE names',
    'DROP TABLE items',
    `CREATE TABLE items (hash TEXT PRIMARY KEY, suite TEXT NOT NULL, item_id TEXT NOT NULL, category TEXT NOT NULL, ability TEXT,
       answer TEXT NOT NULL, body TEXT NOT NULL)`,
    'CREATE INDEX items_suite ON items(suite, item_id)',
    `CREATE TABLE trials (id ${id} PRIMARY KEY, run_id TEXT NOT NULL REFERENCES runs(id), subject_id TEXT NOT NULL REFERENCES subjects(id),
       suite TEXT NOT NULL, item_id TEXT NOT NULL, replicate INTEGER NOT NULL, item_hash TEXT NOT NULL REFERENCES items(hash),
       status TEXT NOT NULL CHECK (status IN ('done', 'failed')), error TEXT, attempts INTEGER NOT NULL,
       input_tokens ${int64} NOT NULL DEFAULT 0, output_tokens ${int64} NOT NULL DEFAULT 0, cost_usd ${real} NOT NULL DEFAULT 0,
       latency_ms ${real} NOT NULL DEFAULT 0, cached_calls INTEGER NOT NULL DEFAULT 0, total_calls INTEGER NOT NULL DEFAULT 0,
       finished_at TEXT NOT NULL, truncated_calls INTEGER NOT NULL DEFAULT 0, unpriced_calls INTEGER NOT NULL DEFAULT 0,
       batch_latency_ms ${real} NOT NULL DEFAULT 0, UNIQUE (run_id, subject_id, suite, item_id, replicate))`,
    'CREATE INDEX trials_run_order ON trials(run_id, id)',
    `CREATE TABLE transcripts (trial_id ${int64} PRIMARY KEY REFERENCES trials(id), body TEXT NOT NULL, packed INTEGER NOT NULL DEFAULT 0)`,
    `CREATE TABLE scores (trial_id ${int64} NOT NULL REFERENCES trials(id), scorer TEXT NOT NULL, value ${real} NOT NULL,
       detail TEXT NOT NULL,${pg ? ' seq BIGSERIAL,' : ''} PRIMARY KEY (trial_id, scorer))`,
  ];
}
