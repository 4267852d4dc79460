import { perBackend, type Migration } from './dialect.js';

/** 12: smaller call-cache rows (sql/cache-rows.ts): the provider and model spec named once
 * (cache_models), created_at in milliseconds. SQLite alone keeps a hex key's bytes, in a table
 * that is its own index (WITHOUT ROWID: no second copy of every key); rows copied over keep
 * their text (a key that is not hex, an ISO created_at, a JSON response), and readers take
 * both. PostgreSQL's keys stay text, its table altered in place. */
export const COMPACT_CACHE_ROWS: Migration = perBackend({
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
});
