// Migrations that add a table, a column or an index: each small, in the order they were released.

import type { Migration } from './dialect.js';

/** 2: rubrics pinned to a run (a run scored with one rubric refuses another of the same name). */
export const RUBRIC_PINS: Migration = (d) => `
  CREATE TABLE rubric_pins (
    run_id TEXT NOT NULL REFERENCES runs(id),
    rubric TEXT NOT NULL,
    sha256 TEXT NOT NULL,${d.seq}
    PRIMARY KEY (run_id, rubric)
  );
  `;

/** 3: replies cut off by the token limit, and calls of unknown price, counted per trial. */
export const TRUNCATED_AND_UNPRICED: Migration = () => `
  ALTER TABLE trials ADD COLUMN truncated_calls INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE trials ADD COLUMN unpriced_calls INTEGER NOT NULL DEFAULT 0;
  `;

/** 4: several processes on one run: trial leases, the rate limits they share, and the run's
 * specification (from which a worker rebuilds the run's tasks). */
export const LEASES_AND_RATE_LIMITS: Migration = (d) => `
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
  `;

/** 5: IRT runs (run --tiny / --adaptive): per subject and suite, the bank, the items chosen
 * and the estimates, so that reports show them without the bank file. */
export const IRT_RESULTS: Migration = () => `
  CREATE TABLE irt_results (
    run_id TEXT NOT NULL REFERENCES runs(id),
    subject_id TEXT NOT NULL,
    suite TEXT NOT NULL,
    mode TEXT NOT NULL,
    bank_id TEXT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (run_id, subject_id, suite)
  );
  `;

/** 6: provenance of a run, one row per invocation that differed from the one before (mindscope
 * version, git commit, Node, platform, data and template hashes): never part of the run's identity. */
export const RUN_PROVENANCE: Migration = (d) => `
  CREATE TABLE run_provenance (${d.seq}
    run_id TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    provenance TEXT NOT NULL
  );
  CREATE INDEX run_provenance_run ON run_provenance(run_id);
  `;

/** 7: provider batch APIs (--batch): each submitted batch with the provider's id, and each call
 * it carries (by call-cache key), so a killed or second process polls instead of resubmitting. */
export const BATCHES: Migration = (d) => `
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
  `;

/** 8: prompts stored once: content-addressed blobs (paragraphs, message lists, large detail
 * fields) that packed transcripts reference; rows written before stay as they were (packed = 0). */
export const PROMPT_BLOBS: Migration = (d) => `
  CREATE TABLE prompt_blobs (
    hash TEXT PRIMARY KEY,
    body TEXT NOT NULL
  )${d.withoutRowid};
  ALTER TABLE transcripts ADD COLUMN packed INTEGER NOT NULL DEFAULT 0;
  `;

/** 9: the viewer pages through a run's trials in insertion order (ORDER BY id LIMIT n) without sorting them all. */
export const TRIALS_RUN_ORDER: Migration = () => `
  CREATE INDEX IF NOT EXISTS trials_run_order ON trials(run_id, id);
  `;

/** 11: the wait of a trial's batch-answered calls (--batch: submission to collection), kept
 * apart from latency_ms (the interactive calls') so that neither is mixed into the other. */
export const BATCH_LATENCY: Migration = (d) => `
  ALTER TABLE trials ADD COLUMN batch_latency_ms ${d.real} NOT NULL DEFAULT 0;
  `;

/** 13: where a cached reply came from (the run, or the step, that paid for it), so that a run
 * can say how many of its calls another run answered: each origin named once (cache_origins),
 * as the models are. Rows written before have none. */
export const CACHE_ORIGINS: Migration = (d) => `
  CREATE TABLE cache_origins (
    id ${d.id32} PRIMARY KEY,
    origin TEXT NOT NULL UNIQUE
  );
  ALTER TABLE call_cache ADD COLUMN origin_id INTEGER REFERENCES cache_origins(id);
  `;

/** 14: a run's name (run --name), shown beside its id; never part of its identity. */
export const RUN_NAMES: Migration = () => `
  ALTER TABLE runs ADD COLUMN name TEXT;
  `;
