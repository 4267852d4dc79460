// The PostgreSQL schema, one migration per SQLite migration under the same number (see
// sqlite/migrations.ts): the same tables and keys, in PostgreSQL's types. Bodies are JSON text
// as in SQLite, so that copying between the backends is lossless. The version is kept in
// mindscope_schema. Never edit a released migration: add the next one.

export const PG_MIGRATIONS: string[] = [
  // 1: the first schema.
  `
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
    id BIGSERIAL PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs(id),
    subject_id TEXT NOT NULL REFERENCES subjects(id),
    suite TEXT NOT NULL,
    item_id TEXT NOT NULL,
    replicate INTEGER NOT NULL,
    item_hash TEXT NOT NULL REFERENCES items(hash),
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
    error TEXT,
    attempts INTEGER NOT NULL,
    input_tokens BIGINT NOT NULL DEFAULT 0,
    output_tokens BIGINT NOT NULL DEFAULT 0,
    cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0,
    latency_ms DOUBLE PRECISION NOT NULL DEFAULT 0,
    cached_calls INTEGER NOT NULL DEFAULT 0,
    total_calls INTEGER NOT NULL DEFAULT 0,
    finished_at TEXT NOT NULL,
    UNIQUE (run_id, subject_id, suite, item_id, replicate)
  );
  CREATE TABLE transcripts (
    trial_id BIGINT PRIMARY KEY REFERENCES trials(id),
    body TEXT NOT NULL
  );
  CREATE TABLE scores (
    trial_id BIGINT NOT NULL REFERENCES trials(id),
    scorer TEXT NOT NULL,
    value DOUBLE PRECISION NOT NULL,
    detail TEXT NOT NULL,
    seq BIGSERIAL,
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
  // 2: rubrics pinned to a run.
  `
  CREATE TABLE rubric_pins (
    run_id TEXT NOT NULL REFERENCES runs(id),
    rubric TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    seq BIGSERIAL,
    PRIMARY KEY (run_id, rubric)
  );
  `,
  // 3: replies cut off by the token limit, and calls of unknown price, counted per trial.
  `
  ALTER TABLE trials ADD COLUMN truncated_calls INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE trials ADD COLUMN unpriced_calls INTEGER NOT NULL DEFAULT 0;
  `,
  // 4: trial leases, shared rate limits, the run's specification.
  `
  ALTER TABLE runs ADD COLUMN spec TEXT;
  CREATE TABLE trial_leases (
    run_id TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    suite TEXT NOT NULL,
    item_id TEXT NOT NULL,
    replicate INTEGER NOT NULL,
    owner TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (run_id, subject_id, suite, item_id, replicate)
  );
  CREATE INDEX trial_leases_owner ON trial_leases(owner);
  CREATE TABLE rate_limits (
    endpoint TEXT PRIMARY KEY,
    generation INTEGER NOT NULL,
    paused_until BIGINT NOT NULL
  );
  `,
  // 5: IRT runs (run --tiny / --adaptive): per subject and suite, the bank, the items chosen
  // and the estimates, so that reports show them without the bank file.
  `
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
  `
  CREATE TABLE run_provenance (
    seq BIGSERIAL,
    run_id TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    provenance TEXT NOT NULL
  );
  CREATE INDEX run_provenance_run ON run_provenance(run_id);
  `,
  // 7: provider batch APIs (--batch): each submitted batch with the provider's id, and each call
  // it carries (by call-cache key), so a killed or second process polls instead of resubmitting.
  `
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
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX batches_run ON batches(run_id);
  CREATE TABLE batch_requests (
    run_id TEXT NOT NULL,
    key TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    status TEXT NOT NULL,
    cost_usd DOUBLE PRECISION,
    error TEXT,
    PRIMARY KEY (run_id, key)
  );
  CREATE INDEX batch_requests_batch ON batch_requests(batch_id);
  `,
  // 8: prompts stored once: content-addressed blobs (paragraphs, message lists, large detail
  // fields) that packed transcripts reference; rows written before stay as they were (packed = 0).
  `
  CREATE TABLE prompt_blobs (
    hash TEXT PRIMARY KEY,
    body TEXT NOT NULL
  );
  ALTER TABLE transcripts ADD COLUMN packed INTEGER NOT NULL DEFAULT 0;
  `,
  // 9: the viewer pages through a run's trials in insertion order (ORDER BY id LIMIT n) without sorting them all.
  `
  CREATE INDEX IF NOT EXISTS trials_run_order ON trials(run_id, id);
  `,
  // 10: SQLite rebuilt prompt_blobs as an appended table with a unique index on the hash;
  // PostgreSQL's tables are heaps with the key in a separate index already: nothing to do.
  `
  SELECT 1;
  `,
  // 11: the wait of a trial's batch-answered calls (--batch: submission to collection), kept
  // apart from latency_ms (the interactive calls') so that neither is mixed into the other.
  `
  ALTER TABLE trials ADD COLUMN batch_latency_ms DOUBLE PRECISION NOT NULL DEFAULT 0;
  `,
  // 12: smaller call-cache rows (sql/cache-rows.ts): the provider and model spec named once
  // (cache_models), created_at in milliseconds. Keys stay text (SQLite alone keeps a hex key's bytes).
  `
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
  // 13: where a cached reply came from (the run, or the step, that paid for it), so that a run
  // can say how many of its calls another run answered: each origin named once (cache_origins),
  // as the models are. Rows written before have none.
  `
  CREATE TABLE cache_origins (
    id SERIAL PRIMARY KEY,
    origin TEXT NOT NULL UNIQUE
  );
  ALTER TABLE call_cache ADD COLUMN origin_id INTEGER REFERENCES cache_origins(id);
  `,
];
