import { type Migration, perBackend } from './dialect.js';

/** Characters of a text kept in a block at most (longer ones stay in their rows, as new writes do: sql/text-codec.ts). */
const BLOCK_TEXT_MAX = 64 * 1024;

/**
 * A table's texts (the column body) moved into blocks of `count`, in the order `order` gives
 * (that of their writing), each row given its block and place and its body null once every
 * text reads back from its block as it was.
 */
const intoBlocks = (table: string, key: string, order: string, count: number) => `
  ALTER TABLE ${table} ALTER COLUMN body DROP NOT NULL, ADD COLUMN block INTEGER REFERENCES text_blocks(id), ADD COLUMN place SMALLINT;
  CREATE TEMPORARY TABLE ${table}_places ON COMMIT DROP AS
    SELECT ${key} AS key, (n / ${count})::int + (SELECT COALESCE(MAX(id), 0) + 1 FROM text_blocks) AS block, (n % ${count})::smallint AS place
    FROM (SELECT ${key}, row_number() OVER (ORDER BY ${order}) - 1 AS n FROM ${table} WHERE char_length(body) <= ${BLOCK_TEXT_MAX}) x;
  INSERT INTO text_blocks (id, body)
    SELECT p.block, json_agg(t.body ORDER BY p.place)::text FROM ${table}_places p JOIN ${table} t ON t.${key} = p.key
    GROUP BY p.block ORDER BY p.block;
  UPDATE ${table} SET block = p.block, place = p.place FROM ${table}_places p WHERE ${table}.${key} = p.key;
  DO $$ BEGIN
    IF EXISTS (SELECT 1 FROM ${table} t JOIN text_blocks b ON b.id = t.block WHERE ((b.body::json) ->> t.place::int) IS DISTINCT FROM t.body) THEN
      RAISE EXCEPTION 'schema 19: a text of ${table} did not read back from its block';
    END IF;
  END $$;
  UPDATE ${table} SET body = NULL WHERE block IS NOT NULL;
  ALTER TABLE ${table} ADD CONSTRAINT ${table}_body_or_block CHECK ((body IS NULL) = (block IS NOT NULL) AND (block IS NULL) = (place IS NULL));
`;

/**
 * A lease's key as the 64-bit hash trial_leases is indexed by (sql/trial-key-sql.ts, LEASE_HASH:
 * its five columns as text, joined by chr(1)).
 */
const LEASE_KEY_HASH =
  'hashtextextended(CAST(run_id AS TEXT) || chr(1) || CAST(subject_id AS TEXT) || chr(1) || CAST(suite AS TEXT) || chr(1) || CAST(item_id AS TEXT) || chr(1) || CAST(replicate AS TEXT), 0)';

/**
 * mindscope_json(text): a stored JSON text as PostgreSQL's json, for SQL that reads a field of it
 * (sql/pg-json.ts). JSON.stringify writes a NUL or a lone UTF-16 surrogate as an escape
 * (\u0000, \ud800), which PostgreSQL refuses to turn into text, failing every field read of the
 * document; here such escapes read as U+FFFD, as a text column keeps those characters. A text
 * without an escape of that form (nearly all) is cast as it is. Escaped backslashes are set
 * aside first (chr(1), which JSON text never holds unescaped), so that a backslash written in
 * the text and followed by "u0000" is not taken for an escape.
 */
const MINDSCOPE_JSON = String.raw`
  CREATE OR REPLACE FUNCTION mindscope_json(t TEXT) RETURNS JSON LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
    SELECT CASE WHEN strpos(t, '\u') = 0 THEN t::json
      ELSE replace(regexp_replace(replace(t, '\\', chr(1)), '\\u(0000|[dD][89a-fA-F][0-9a-fA-F]{2})', '\\ufffd', 'g'), chr(1), '\\')::json END
  $f$;
`;

/**
 * 19: PostgreSQL keeps item bodies, prompt texts and transcripts in blocks
 * (sql/pg-text-blocks.ts): a row of text_blocks holds a few dozen texts as a JSON array, which
 * PostgreSQL compresses (a text alone is too short for it to; pglz, on PostgreSQL 14 and later
 * whatever the server's default), and each items, prompt_texts or
 * transcripts row its block and place, its body null. Existing rows are moved into blocks in the
 * order they were written (items by number, prompt texts as the table holds them, transcripts by
 * trial), 32 item bodies, 64 prompt texts or 128 transcripts a block as new writes keep them
 * (sql/item-bodies.ts, sql/blob-rows.ts, sql/trial-writes.ts), each checked to read back as it
 * was; a text over 64 KiB stays in its row. trial_leases is indexed by a 64-bit hash of its key
 * (sql/trial-key-sql.ts) in place of its primary key of five columns: a fifth the size, where
 * the index keeps the pages of every lease a run took and gave back. The function
 * mindscope_json reads a stored JSON text whatever characters it escapes. SQLite is unchanged.
 */
export const PG_TEXT_BLOCKS: Migration = perBackend({
  sqlite: '',
  postgres: `
  CREATE TABLE text_blocks (
    id SERIAL PRIMARY KEY,
    body TEXT NOT NULL
  );
  DO $$ BEGIN
    -- pglz, whatever the server's default: its blocks came out about 30% smaller than lz4's.
    IF current_setting('server_version_num')::int >= 140000 THEN
      EXECUTE 'ALTER TABLE text_blocks ALTER COLUMN body SET COMPRESSION pglz';
    END IF;
  END $$;
  ${intoBlocks('items', 'id', 'id', 32)}
  ${intoBlocks('prompt_texts', 'id', 'ctid', 64)}
  ${intoBlocks('transcripts', 'trial_id', 'trial_id', 128)}
  SELECT setval(pg_get_serial_sequence('text_blocks', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM text_blocks), false);
  ALTER TABLE trial_leases DROP CONSTRAINT trial_leases_pkey;
  CREATE UNIQUE INDEX trial_leases_key ON trial_leases ((${LEASE_KEY_HASH}));
  ${MINDSCOPE_JSON}
  `,
});
