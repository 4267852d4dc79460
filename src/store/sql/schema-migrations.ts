// The schema of both backends, one list of migrations: each is written once and gives each
// backend its SQL, the types that differ named through a Dialect. Migration N is the same tables
// in both backends, applied in order from the stored schema version (SQLite: PRAGMA
// user_version; PostgreSQL: the mindscope_schema table). Bodies are JSON text in both, so that
// copying between the backends is lossless. Never edit a released migration (existing stores
// have run it; tests/store-schema.test.ts holds the schema it makes): add the next one.

/** What a migration says differently in each backend. */
interface Dialect {
  readonly backend: 'sqlite' | 'postgres';
  /** A 64-bit integer (SQLite's INTEGER holds 64 bits). */
  readonly int64: string;
  /** A double. */
  readonly real: string;
  /** A 64-bit key numbered by the database (SQLite: the rowid). */
  readonly id64: string;
  /** A 32-bit key numbered by the database (SQLite: the rowid). */
  readonly id32: string;
  /** PostgreSQL's insertion-order column where SQLite has its rowid: a column line, or nothing. */
  readonly seq: string;
  /** After a table keyed by its primary key alone: SQLite stores it as its own index. */
  readonly withoutRowid: string;
}

const SQLITE: Dialect = {
  backend: 'sqlite',
  int64: 'INTEGER',
  real: 'REAL',
  id64: 'INTEGER',
  id32: 'INTEGER',
  seq: '',
  withoutRowid: ' WITHOUT ROWID',
};

const POSTGRES: Dialect = {
  backend: 'postgres',
  int64: 'BIGINT',
  real: 'DOUBLE PRECISION',
  id64: 'BIGSERIAL',
  id32: 'SERIAL',
  seq: '\n    seq BIGSERIAL,',
  withoutRowid: '',
};

type Migration = (d: Dialect) => string;

/** A migration done differently in each backend. */
const perBackend =
  (bodies: Record<Dialect['backend'], string>): Migration =>
  (d) =>
    bodies[d.backend];

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

const SCHEMA_MIGRATIONS: readonly Migration[] = [
  // 1: the first schema.
  (d) => `
  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    config TEXT NOT NULL
  );
  CREATE TABLE subjects (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    settings TEXT NOT NULL
  );
  CREATE TABLE run_plan (
    run_id TEXT NOT NULL REFERENCES runs(id),
    subject_id TEXT NOT NULL REFERENCES subjects(id),
    suite TEXT NOT NULL,
    planned INTEGER NOT NULL,
    PRIMARY KEY (run_id, subject_id, suite)
  );
  CREATE TABLE items (
    hash TEXT PRIMARY KEY,
    suite TEXT NOT NULL,
    item_id TEXT NOT NULL,
    category TEXT NOT NULL,
    ability TEXT,
    answer TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX items_suite ON items(suite, item_id);
  CREATE TABLE trials (
    id ${d.id64} PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs(id),
    subject_id TEXT NOT NULL REFERENCES subjects(id),
    suite TEXT NOT NULL,
    item_id TEXT NOT NULL,
    replicate INTEGER NOT NULL,
    item_hash TEXT NOT NULL REFERENCES items(hash),
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
    error TEXT,
    attempts INTEGER NOT NULL,
    input_tokens ${d.int64} NOT NULL DEFAULT 0,
    output_tokens ${d.int64} NOT NULL DEFAULT 0,
    cost_usd ${d.real} NOT NULL DEFAULT 0,
    latency_ms ${d.real} NOT NULL DEFAULT 0,
    cached_calls INTEGER NOT NULL DEFAULT 0,
    total_calls INTEGER NOT NULL DEFAULT 0,
    finished_at TEXT NOT NULL,
    UNIQUE (run_id, subject_id, suite, item_id, replicate)
  );
  CREATE TABLE transcripts (
    trial_id ${d.int64} PRIMARY KEY REFERENCES trials(id),
    body TEXT NOT NULL
  );
  CREATE TABLE scores (
    trial_id ${d.int64} NOT NULL REFERENCES trials(id),
    scorer TEXT NOT NULL,
    value ${d.real} NOT NULL,
    detail TEXT NOT NULL,${d.seq}
    PRIMARY KEY (trial_id, scorer)
  );
  CREATE TABLE call_cache (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    response TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  // 2: rubrics pinned to a run (a run scored with one rubric refuses another of the same name).
  (d) => `
  CREATE TABLE rubric_pins (
    run_id TEXT NOT NULL REFERENCES runs(id),
    rubric TEXT NOT NULL,
    sha256 TEXT NOT NULL,${d.seq}
    PRIMARY KEY (run_id, rubric)
  );
  `,
  // 3: replies cut off by the token limit, and calls of unknown price, counted per trial.
  () => `
  ALTER TABLE trials ADD COLUMN truncated_calls INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE trials ADD COLUMN unpriced_calls INTEGER NOT NULL DEFAULT 0;
  `,
  // 4: several processes on one run: trial leases, the rate limits they share, and the run's
  // specification (from which a worker rebuilds the run's tasks).
  (d) => `
  ALTER TABLE runs ADD COLUMN spec TEXT;
  CREATE TABLE trial_leases (
    run_id TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    suite TEXT NOT NULL,
    item_id TEXT NOT NULL,
    replicate INTEGER NOT NULL,
    owner TEXT NOT NULL,
    expires_at ${d.int64} NOT NULL,
    PRIMARY KEY (run_id, subject_id, suite, item_id, replicate)
  );
  CREATE INDEX trial_leases_owner ON trial_leases(owner);
  CREATE TABLE rate_limits (
    endpoint TEXT PRIMARY KEY,
    generation INTEGER NOT NULL,
    paused_until ${d.int64} NOT NULL
  );
  `,
  // 5: IRT runs (run --tiny / --adaptive): per subject and suite, the bank, the items chosen
  // and the estimates, so that reports show them without the bank file.
  () => `
  CREATE TABLE irt_results (
    run_id TEXT NOT NULL REFERENCES runs(id),
    subject_id TEXT NOT NULL,
    suite TEXT NOT NULL,
    mode TEXT NOT NULL,
    bank_id TEXT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (run_id, subject_id, suite)
  );
  `,
  // 6: provenance of a run, one row per invocation that differed from the one before (mindscope
  // version, git commit, Node, platform, data and template hashes): never part of the run's identity.
  (d) => `
  CREATE TABLE run_provenance (${d.seq}
    run_id TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    provenance TEXT NOT NULL
  );
  CREATE INDEX run_provenance_run ON run_provenance(run_id);
  `,
  // 7: provider batch APIs (--batch): each submitted batch with the provider's id, and each call
  // it carries (by call-cache key), so a killed or second process polls instead of resubmitting.
  (d) => `
  CREATE TABLE batches (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL,
    spec TEXT NOT NULL,
    round INTEGER NOT NULL,
    remote_id TEXT,
    state TEXT NOT NULL,
    requests INTEGER NOT NULL,
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at ${d.int64} NOT NULL
  );
  CREATE INDEX batches_run ON batches(run_id);
  CREATE TABLE batch_requests (
    run_id TEXT NOT NULL,
    key TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    status TEXT NOT NULL,
    cost_usd ${d.real},
    error TEXT,
    PRIMARY KEY (run_id, key)
  );
  CREATE INDEX batch_requests_batch ON batch_requests(batch_id);
  `,
  // 8: prompts stored once: content-addressed blobs (paragraphs, message lists, large detail
  // fields) that packed transcripts reference; rows written before stay as they were (packed = 0).
  (d) => `
  CREATE TABLE prompt_blobs (
    hash TEXT PRIMARY KEY,
    body TEXT NOT NULL
  )${d.withoutRowid};
  ALTER TABLE transcripts ADD COLUMN packed INTEGER NOT NULL DEFAULT 0;
  `,
  // 9: the viewer pages through a run's trials in insertion order (ORDER BY id LIMIT n) without sorting them all.
  () => `
  CREATE INDEX IF NOT EXISTS trials_run_order ON trials(run_id, id);
  `,
  // 10: prompt blobs in a rowid table (appended in order) with a unique index on the hash: keyed
  // by the hash itself (WITHOUT ROWID), every new blob landed on a random page of the whole
  // table, and each commit rewrote hundreds of pages to the WAL; now only the small index is
  // touched at random. PostgreSQL's tables are heaps with the key in a separate index already.
  perBackend({
    sqlite: `
  CREATE TABLE prompt_blobs_v10 (
    hash TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL
  );
  INSERT INTO prompt_blobs_v10 (hash, body) SELECT hash, body FROM prompt_blobs ORDER BY hash;
  DROP TABLE prompt_blobs;
  ALTER TABLE prompt_blobs_v10 RENAME TO prompt_blobs;
  `,
    postgres: `
  SELECT 1;
  `,
  }),
  // 11: the wait of a trial's batch-answered calls (--batch: submission to collection), kept
  // apart from latency_ms (the interactive calls') so that neither is mixed into the other.
  (d) => `
  ALTER TABLE trials ADD COLUMN batch_latency_ms ${d.real} NOT NULL DEFAULT 0;
  `,
  // 12: smaller call-cache rows (sql/cache-rows.ts): the provider and model spec named once
  // (cache_models), created_at in milliseconds. SQLite alone keeps a hex key's bytes, in a table
  // that is its own index (WITHOUT ROWID: no second copy of every key); rows copied over keep
  // their text (a key that is not hex, an ISO created_at, a JSON response), and readers take
  // both. PostgreSQL's keys stay text, its table altered in place.
  perBackend({
    sqlite: `
  CREATE TABLE cache_models (
    id INTEGER PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    UNIQUE (provider, model)
  );
  INSERT INTO cache_models (provider, model) SELECT DISTINCT provider, model FROM call_cache ORDER BY provider, model;
  CREATE TABLE call_cache_v12 (
    key BLOB PRIMARY KEY,
    model_id INTEGER NOT NULL REFERENCES cache_models(id),
    response TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO call_cache_v12 (key, model_id, response, created_at)
    SELECT CASE WHEN length(c.key) = 64 AND c.key NOT GLOB '*[^0-9a-f]*' THEN unhex(c.key) ELSE c.key END, m.id, c.response, c.created_at
    FROM call_cache c JOIN cache_models m ON m.provider = c.provider AND m.model = c.model;
  DROP TABLE call_cache;
  ALTER TABLE call_cache_v12 RENAME TO call_cache;
  `,
    postgres: `
  CREATE TABLE cache_models (
    id SERIAL PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    UNIQUE (provider, model)
  );
  INSERT INTO cache_models (provider, model) SELECT DISTINCT provider, model FROM call_cache ORDER BY provider, model;
  ALTER TABLE call_cache ADD COLUMN model_id INTEGER REFERENCES cache_models(id);
  UPDATE call_cache c SET model_id = m.id FROM cache_models m WHERE m.provider = c.provider AND m.model = c.model;
  ALTER TABLE call_cache ALTER COLUMN model_id SET NOT NULL;
  ALTER TABLE call_cache DROP COLUMN provider;
  ALTER TABLE call_cache DROP COLUMN model;
  ALTER TABLE call_cache ALTER COLUMN created_at TYPE BIGINT
    USING round(extract(epoch from created_at::timestamptz) * 1000)::bigint;
  `,
  }),
  // 13: where a cached reply came from (the run, or the step, that paid for it), so that a run
  // can say how many of its calls another run answered: each origin named once (cache_origins),
  // as the models are. Rows written before have none.
  (d) => `
  CREATE TABLE cache_origins (
    id ${d.id32} PRIMARY KEY,
    origin TEXT NOT NULL UNIQUE
  );
  ALTER TABLE call_cache ADD COLUMN origin_id INTEGER REFERENCES cache_origins(id);
  `,
  // 14: a run's name (run --name), shown beside its id; never part of its identity.
  () => `
  ALTER TABLE runs ADD COLUMN name TEXT;
  `,
  // 15: trial rows name their run, subject, suite and item by number (names: each text stored
  // once) and their item by the items row's number, instead of repeating the text in every row
  // and in its unique index; the view "trials" gives the rows as they were, for every reader.
  // SQLite rebuilds items (a key of its own), trials, transcripts and scores (their references);
  // PostgreSQL alters them in place. A trial that would not be copied stops the migration.
  perBackend({
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
  }),
];

/** SQLite's migrations, applied from PRAGMA user_version. */
export const MIGRATIONS: readonly string[] = SCHEMA_MIGRATIONS.map((m) => m(SQLITE));

/** PostgreSQL's migrations, applied from the version in mindscope_schema. */
export const PG_MIGRATIONS: readonly string[] = SCHEMA_MIGRATIONS.map((m) => m(POSTGRES));
