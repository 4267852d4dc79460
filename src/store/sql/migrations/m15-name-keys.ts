import { perBackend, type Migration } from './dialect.js';

const TRIALS_VIEW = `
  CREATE VIEW trials AS
    SELECT t.id AS id, r.name AS run_id, s.name AS subject_id, su.name AS suite, it.name AS item_id, t.replicate AS replicate,
      i.hash AS item_hash, t.status AS status, t.error AS error, t.attempts AS attempts, t.input_tokens AS input_tokens,
      t.output_tokens AS output_tokens, t.cost_usd AS cost_usd, t.latency_ms AS latency_ms, t.cached_calls AS cached_calls,
      t.total_calls AS total_calls, t.finished_at AS finished_at, t.truncated_calls AS truncated_calls,
      t.unpriced_calls AS unpriced_calls, t.batch_latency_ms AS batch_latency_ms
    FROM trial_rows t LEFT JOIN names r ON r.id = t.run_key LEFT JOIN names s ON s.id = t.subject_key
      LEFT JOIN names su ON su.id = t.suite_key LEFT JOIN names it ON it.id = t.item_key LEFT JOIN items i ON i.id = t.item_ref;
`;

/** The names a trial row refers to by number, each once (migration 15). */
const FILL_NAMES = `
  INSERT INTO names (name)
    SELECT name FROM (SELECT run_id AS name FROM trials UNION SELECT subject_id FROM trials UNION SELECT suite FROM trials
      UNION SELECT item_id FROM trials) n ORDER BY name;
`;

/**
 * A migration that copied trial rows fails unless it copied every one: the CHECK refuses the
 * row, and the migration's transaction is rolled back with the store as it was.
 */
const CHECK_TRIALS_COPIED = `
  CREATE TEMPORARY TABLE migration_check (copied INTEGER NOT NULL CHECK (copied = 1));
  INSERT INTO migration_check (copied)
    SELECT CASE WHEN (SELECT COUNT(*) FROM trial_rows) = (SELECT COUNT(*) FROM trials) THEN 1 ELSE 0 END;
  DROP TABLE migration_check;
`;

/** 15: trial rows name their run, subject, suite and item by number (names: each text stored
 * once) and their item by the items row's number, instead of repeating the text in every row
 * and in its unique index; the view "trials" gives the rows as they were, for every reader.
 * SQLite rebuilds items (a key of its own), trials, transcripts and scores (their references);
 * PostgreSQL alters them in place. A trial that would not be copied stops the migration. */
export const NAME_KEYS: Migration = perBackend({
  sqlite: `
  CREATE TABLE names (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
  );
  ${FILL_NAMES}
  CREATE TABLE items_v15 (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    suite TEXT NOT NULL,
    item_id TEXT NOT NULL,
    category TEXT NOT NULL,
    ability TEXT,
    answer TEXT NOT NULL,
    body TEXT NOT NULL
  );
  INSERT INTO items_v15 (hash, suite, item_id, category, ability, answer, body)
    SELECT hash, suite, item_id, category, ability, answer, body FROM items ORDER BY rowid;
  CREATE TABLE trial_rows (
    id INTEGER PRIMARY KEY,
    run_key INTEGER NOT NULL REFERENCES names(id),
    subject_key INTEGER NOT NULL REFERENCES names(id),
    suite_key INTEGER NOT NULL REFERENCES names(id),
    item_key INTEGER NOT NULL REFERENCES names(id),
    replicate INTEGER NOT NULL,
    item_ref INTEGER NOT NULL REFERENCES items_v15(id),
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
    error TEXT,
    attempts INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL NOT NULL DEFAULT 0,
    latency_ms REAL NOT NULL DEFAULT 0,
    cached_calls INTEGER NOT NULL DEFAULT 0,
    total_calls INTEGER NOT NULL DEFAULT 0,
    finished_at TEXT NOT NULL,
    truncated_calls INTEGER NOT NULL DEFAULT 0,
    unpriced_calls INTEGER NOT NULL DEFAULT 0,
    batch_latency_ms REAL NOT NULL DEFAULT 0,
    UNIQUE (run_key, subject_key, suite_key, item_key, replicate)
  );
  INSERT INTO trial_rows (id, run_key, subject_key, suite_key, item_key, replicate, item_ref, status, error, attempts,
      input_tokens, output_tokens, cost_usd, latency_ms, cached_calls, total_calls, finished_at, truncated_calls,
      unpriced_calls, batch_latency_ms)
    SELECT t.id, r.id, s.id, su.id, it.id, t.replicate, i.id, t.status, t.error, t.attempts, t.input_tokens, t.output_tokens,
      t.cost_usd, t.latency_ms, t.cached_calls, t.total_calls, t.finished_at, t.truncated_calls, t.unpriced_calls, t.batch_latency_ms
    FROM trials t JOIN names r ON r.name = t.run_id JOIN names s ON s.name = t.subject_id JOIN names su ON su.name = t.suite
      JOIN names it ON it.name = t.item_id JOIN items_v15 i ON i.hash = t.item_hash
    ORDER BY t.id;
  ${CHECK_TRIALS_COPIED}
  CREATE TABLE transcripts_v15 (
    trial_id INTEGER PRIMARY KEY REFERENCES trial_rows(id),
    body TEXT NOT NULL,
    packed INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO transcripts_v15 (trial_id, body, packed) SELECT trial_id, body, packed FROM transcripts ORDER BY trial_id;
  CREATE TABLE scores_v15 (
    trial_id INTEGER NOT NULL REFERENCES trial_rows(id),
    scorer TEXT NOT NULL,
    value REAL NOT NULL,
    detail TEXT NOT NULL,
    PRIMARY KEY (trial_id, scorer)
  );
  INSERT INTO scores_v15 (trial_id, scorer, value, detail) SELECT trial_id, scorer, value, detail FROM scores ORDER BY rowid;
  DROP TABLE scores;
  DROP TABLE transcripts;
  DROP TABLE trials;
  DROP TABLE items;
  ALTER TABLE items_v15 RENAME TO items;
  ALTER TABLE transcripts_v15 RENAME TO transcripts;
  ALTER TABLE scores_v15 RENAME TO scores;
  CREATE INDEX items_suite ON items(suite, item_id);
  CREATE INDEX trials_run_order ON trial_rows(run_key, id);
  ${TRIALS_VIEW}
  `,
  postgres: `
  CREATE TABLE names (
    id SERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
  );
  ${FILL_NAMES}
  ALTER TABLE items ADD COLUMN id SERIAL UNIQUE;
  ALTER TABLE trials RENAME TO trial_rows;
  ALTER TABLE trial_rows ADD COLUMN run_key INTEGER REFERENCES names(id), ADD COLUMN subject_key INTEGER REFERENCES names(id),
    ADD COLUMN suite_key INTEGER REFERENCES names(id), ADD COLUMN item_key INTEGER REFERENCES names(id),
    ADD COLUMN item_ref INTEGER REFERENCES items(id);
  UPDATE trial_rows t SET run_key = r.id, subject_key = s.id, suite_key = su.id, item_key = it.id, item_ref = i.id
    FROM names r, names s, names su, names it, items i
    WHERE r.name = t.run_id AND s.name = t.subject_id AND su.name = t.suite AND it.name = t.item_id AND i.hash = t.item_hash;
  CREATE TEMPORARY TABLE migration_check (copied INTEGER NOT NULL CHECK (copied = 1));
  INSERT INTO migration_check (copied)
    SELECT CASE WHEN COUNT(*) = 0 THEN 1 ELSE 0 END FROM trial_rows
    WHERE run_key IS NULL OR subject_key IS NULL OR suite_key IS NULL OR item_key IS NULL OR item_ref IS NULL;
  DROP TABLE migration_check;
  ALTER TABLE trial_rows ALTER COLUMN run_key SET NOT NULL, ALTER COLUMN subject_key SET NOT NULL,
    ALTER COLUMN suite_key SET NOT NULL, ALTER COLUMN item_key SET NOT NULL, ALTER COLUMN item_ref SET NOT NULL;
  ALTER TABLE trial_rows DROP COLUMN run_id, DROP COLUMN subject_id, DROP COLUMN suite, DROP COLUMN item_id, DROP COLUMN item_hash;
  ALTER TABLE trial_rows ADD CONSTRAINT trial_rows_key UNIQUE (run_key, subject_key, suite_key, item_key, replicate);
  CREATE INDEX trials_run_order ON trial_rows(run_key, id);
  ${TRIALS_VIEW}
  `,
});
