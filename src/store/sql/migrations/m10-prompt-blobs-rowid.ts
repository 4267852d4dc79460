import { perBackend, type Migration } from './dialect.js';

/** 10: prompt blobs in a rowid table (appended in order) with a unique index on the hash: keyed
 * by the hash itself (WITHOUT ROWID), every new blob landed on a random page of the whole
 * table, and each commit rewrote hundreds of pages to the WAL; now only the small index is
 * touched at random. PostgreSQL's tables are heaps with the key in a separate index already. */
export const PROMPT_BLOBS_ROWID: Migration = perBackend({
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
});
