import { type Migration, perBackend } from './dialect.js';

const DICTIONARIES = (id: string, bytes: string) => `
  CREATE TABLE dictionaries (
    id ${id} PRIMARY KEY,
    kind TEXT NOT NULL,
    body ${bytes} NOT NULL
  );
  DROP INDEX IF EXISTS items_suite;
`;

/**
 * 16: SQLite keeps transcripts, scores' details, cached replies, prompt blobs and item bodies
 * deflated against dictionaries trained on the store's own rows (sql/text-codec.ts), each
 * dictionary stored once here; rows written before keep their form, and readers take both.
 * PostgreSQL has the table too (its values stay text). The index of items by suite and item id
 * served no query: dropped. SQLite's scores become a table that is its own index (their key, a
 * trial and a scorer, was a second copy of every row); its column named rowid keeps a score's
 * order within its trial (the protocol's score first), so that queries ordering by rowid read
 * as before.
 */
export const COMPRESSED_VALUES: Migration = perBackend({
  sqlite: `${DICTIONARIES('INTEGER', 'BLOB')}
  CREATE TABLE scores_v16 (
    trial_id INTEGER NOT NULL REFERENCES trial_rows(id),
    scorer TEXT NOT NULL,
    value REAL NOT NULL,
    detail TEXT NOT NULL,
    rowid INTEGER NOT NULL,
    PRIMARY KEY (trial_id, scorer)
  ) WITHOUT ROWID;
  INSERT INTO scores_v16 (trial_id, scorer, value, detail, rowid) SELECT trial_id, scorer, value, detail, rowid FROM scores;
  DROP TABLE scores;
  ALTER TABLE scores_v16 RENAME TO scores;
  `,
  postgres: DICTIONARIES('SERIAL', 'BYTEA'),
});
