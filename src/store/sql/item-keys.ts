// How an item's content hash (SHA-256, hex) is kept and found. SQLite (schema 17) keeps the
// hash as its 32 bytes, with a unique index on the first 8 of them (a quarter of the key,
// which is all a lookup needs to find the row; the whole hash is then compared); a hash that is
// not SHA-256 hex stays text, indexed whole. PostgreSQL (schema 18) keeps the 32 bytes too, with a
// unique index on them; its column holds bytes only, so another hash is kept as its UTF-8 after a
// zero byte (two where that would make 32 bytes, a SHA-256's length). Readers take the hex text
// from the view "trials" (item_hash) and join items by number (trials.item_ref).

import type { SqlDriver } from './driver.js';
import { digestParam, digestText } from './digest-values.js';

type Backend = SqlDriver['backend'];

const HEX_HASH = /^[0-9a-f]{64}$/;

/** Bytes of a SHA-256 hash. */
const HASH_BYTES = 32;

/** An item hash as the database holds it: a SHA-256 hex hash as its bytes; another as text (SQLite) or its UTF-8 after zero bytes (PostgreSQL). */
export function itemHashParam(backend: Backend, hash: string): string | Buffer {
  return digestParam(backend, hash, HEX_HASH, HASH_BYTES);
}

/** A stored item hash as hex text (what callers and exports use): itemHashParam's inverse. */
export function itemHashText(stored: string | Uint8Array): string {
  return digestText(stored, HASH_BYTES);
}

/**
 * SQLite: what the unique index of items holds of a hash, `ITEM_KEY('hash')` (the first 8 bytes of
 * a hash kept as bytes, a text hash whole); the migration that made the index spells it so too.
 */
export const ITEM_KEY = (column: string): string => `CASE WHEN typeof(${column}) = 'blob' THEN substr(${column}, 1, 8) ELSE ${column} END`;

/** SQLite: ITEM_KEY of a hash, as a parameter. */
export function itemKeyParam(hash: string): string | Buffer {
  return HEX_HASH.test(hash) ? Buffer.from(hash.slice(0, 16), 'hex') : hash;
}

/** The number of the item with a hash (one parameter: itemHashParam), as a value in a statement; null when none. */
export function itemIdByHash(backend: Backend): string {
  return backend === 'sqlite'
    ? `(SELECT items.id FROM items, (SELECT ? AS h) p WHERE ${ITEM_KEY('items.hash')} = ${ITEM_KEY('p.h')} AND items.hash = p.h)`
    : '(SELECT id FROM items WHERE hash = ?)';
}

/** A condition on items' rows: the hash is this one (one parameter: itemHashParam). */
export function itemHashIs(backend: Backend): string {
  return backend === 'sqlite' ? `id = ${itemIdByHash(backend)}` : 'hash = ?';
}

/** The conflict target of an insert into items: the unique hash (SQLite: its prefix). */
export function itemConflict(backend: Backend): string {
  return backend === 'sqlite' ? `ON CONFLICT (${ITEM_KEY('hash')}) DO NOTHING` : 'ON CONFLICT (hash) DO NOTHING';
}
