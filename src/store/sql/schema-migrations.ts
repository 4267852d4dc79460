// The schema of both backends, one list of migrations (migrations/: one file for each large
// one, the small ones together): each is written once and gives each backend its SQL, the types
// that differ named through a Dialect. Migration N is the same tables in both backends, applied
// in order from the stored schema version (SQLite: PRAGMA user_version; PostgreSQL: the
// mindscope_schema table). Bodies are JSON text in both, so that copying between the backends
// is lossless. Never edit a released migration (existing stores have run it;
// tests/store-schema.test.ts holds the schema it makes): add the next one.

import {
  BATCH_LATENCY,
  BATCHES,
  CACHE_ORIGINS,
  IRT_RESULTS,
  LEASES_AND_RATE_LIMITS,
  PROMPT_BLOBS,
  RUBRIC_PINS,
  RUN_NAMES,
  RUN_PROVENANCE,
  TRIALS_RUN_ORDER,
  TRUNCATED_AND_UNPRICED,
} from './migrations/additions.js';
import { type Migration, POSTGRES, SQLITE } from './migrations/dialect.js';
import { FIRST_SCHEMA } from './migrations/m01-first-schema.js';
import { PROMPT_BLOBS_ROWID } from './migrations/m10-prompt-blobs-rowid.js';
import { COMPACT_CACHE_ROWS } from './migrations/m12-compact-cache-rows.js';
import { NAME_KEYS } from './migrations/m15-name-keys.js';
import { COMPRESSED_VALUES } from './migrations/m16-dictionaries.js';
import { COMPACT_TRIALS } from './migrations/m17-compact-trials.js';
import { PG_COMPACT_ROWS } from './migrations/m18-pg-compact-rows.js';
import { PG_TEXT_BLOCKS } from './migrations/m19-pg-text-blocks.js';

/** Migration N is entry N - 1. */
const SCHEMA_MIGRATIONS: readonly Migration[] = [
  FIRST_SCHEMA,
  RUBRIC_PINS,
  TRUNCATED_AND_UNPRICED,
  LEASES_AND_RATE_LIMITS,
  IRT_RESULTS,
  RUN_PROVENANCE,
  BATCHES,
  PROMPT_BLOBS,
  TRIALS_RUN_ORDER,
  PROMPT_BLOBS_ROWID,
  BATCH_LATENCY,
  COMPACT_CACHE_ROWS,
  CACHE_ORIGINS,
  RUN_NAMES,
  NAME_KEYS,
  COMPRESSED_VALUES,
  COMPACT_TRIALS,
  PG_COMPACT_ROWS,
  PG_TEXT_BLOCKS,
];

/** SQLite's migrations, applied from PRAGMA user_version. */
export const MIGRATIONS: readonly string[] = SCHEMA_MIGRATIONS.map((m) => m(SQLITE));

/** PostgreSQL's migrations, applied from the version in mindscope_schema. */
export const PG_MIGRATIONS: readonly string[] = SCHEMA_MIGRATIONS.map((m) => m(POSTGRES));
