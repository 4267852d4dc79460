import type { Migration } from './dialect.js';

/** 1: the first schema. */
export const FIRST_SCHEMA: Migration = (d) => `
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
  `;
