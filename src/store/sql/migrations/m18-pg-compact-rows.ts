import { type Migration, perBackend } from './dialect.js';
import { TRIALS_VIEW } from './m17-compact-trials.js';

/**
 * 18: PostgreSQL keeps a score's scorer by number in names, as SQLite does (schema 17), and a
 * short detail (a protocol's few outcomes, SHARED_DETAIL_CHARS in sql/trial-writes.ts) once, in
 * names too, the row holding its number; a longer detail stays in its row. The table
 * score_rows is keyed by (trial, scorer number), its column seq numbering a trial's scores in
 * the order they came (the protocol's score first), so that its row is about half the size of
 * the one it replaces, and its key's index too. The view "scores" gives every value as the
 * table of that name did. A cache entry's key (the first 128 bits of a SHA-256 hex key) is kept
 * as its 16 bytes, as SQLite keeps it, and indexed so; any other key as its UTF-8 after one zero
 * byte, or two where that would make 16 bytes (sql/cache-rows.ts). An item's SHA-256 hex hash is
 * kept as its 32 bytes, and indexed so; another hash likewise as its UTF-8 after zero bytes
 * (sql/item-keys.ts); the view "trials" gives it as hex text as before. SQLite is unchanged.
 */
export const PG_COMPACT_ROWS: Migration = perBackend({
  sqlite: '',
  postgres: `
  INSERT INTO names (name) SELECT DISTINCT scorer FROM scores ORDER BY scorer ON CONFLICT (name) DO NOTHING;
  INSERT INTO names (name) SELECT DISTINCT detail FROM scores WHERE char_length(detail) <= 128 ORDER BY detail ON CONFLICT (name) DO NOTHING;
  CREATE TABLE score_rows (
    trial_id BIGINT NOT NULL REFERENCES trial_rows(id),
    value DOUBLE PRECISION NOT NULL,
    scorer_key INTEGER NOT NULL REFERENCES names(id),
    detail_key INTEGER REFERENCES names(id),
    seq INTEGER NOT NULL,
    detail TEXT,
    PRIMARY KEY (trial_id, scorer_key),
    CHECK ((detail_key IS NULL) <> (detail IS NULL))
  );
  INSERT INTO score_rows (trial_id, value, scorer_key, detail_key, seq, detail)
    SELECT s.trial_id, s.value, n.id, d.id, row_number() OVER (PARTITION BY s.trial_id ORDER BY s.seq),
      CASE WHEN d.id IS NULL THEN s.detail END
    FROM scores s JOIN names n ON n.name = s.scorer LEFT JOIN names d ON char_length(s.detail) <= 128 AND d.name = s.detail
    ORDER BY s.trial_id, s.seq;
  DO $$ BEGIN
    IF (SELECT COUNT(*) FROM score_rows) <> (SELECT COUNT(*) FROM scores) THEN
      RAISE EXCEPTION 'schema 18: the scores were not all copied';
    END IF;
  END $$;
  DROP TABLE scores;
  CREATE VIEW scores AS
    SELECT s.trial_id AS trial_id, n.name AS scorer, s.value AS value, COALESCE(s.detail, d.name) AS detail, s.seq AS seq
    FROM score_rows s JOIN names n ON n.id = s.scorer_key LEFT JOIN names d ON d.id = s.detail_key;
  ALTER TABLE call_cache ALTER COLUMN key TYPE BYTEA USING CASE
    WHEN key ~ '^[0-9a-f]{32}$' THEN decode(key, 'hex')
    WHEN octet_length(key) = 15 THEN '\\x0000'::bytea || convert_to(key, 'UTF8')
    ELSE '\\x00'::bytea || convert_to(key, 'UTF8') END;
  DROP VIEW trials;
  ALTER TABLE items ALTER COLUMN hash TYPE BYTEA USING CASE
    WHEN hash ~ '^[0-9a-f]{64}$' THEN decode(hash, 'hex')
    WHEN octet_length(hash) = 31 THEN '\\x0000'::bytea || convert_to(hash, 'UTF8')
    ELSE '\\x00'::bytea || convert_to(hash, 'UTF8') END;
  ${TRIALS_VIEW({
    itemHash: "CASE WHEN octet_length(i.hash) = 32 THEN encode(i.hash, 'hex') ELSE convert_from(ltrim(i.hash, '\\x00'::bytea), 'UTF8') END",
    status: 't.status',
    latencyMs: 't.latency_ms',
    batchLatencyMs: 't.batch_latency_ms',
    finishedAt: 't.finished_at',
  })}
  `,
});
