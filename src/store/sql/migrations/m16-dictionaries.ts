import type { Migration } from './dialect.js';

/**
 * 16: SQLite keeps transcripts, scores' details, cached replies, prompt blobs and item bodies
 * deflated against dictionaries trained on the store's own rows (sql/text-codec.ts), each
 * dictionary stored once here; rows written before keep their form, and readers take both.
 * PostgreSQL has the table too (its values stay text). The index of items by suite and item id
 * served no query: dropped.
 */
export const DICTIONARIES: Migration = (d) => `
  CREATE TABLE dictionaries (
    id ${d.id32} PRIMARY KEY,
    kind TEXT NOT NULL,
    body ${d.bytes} NOT NULL
  );
  DROP INDEX IF EXISTS items_suite;
  `;
