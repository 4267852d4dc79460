// Item bodies (schema 12 on): SQLite keeps an item's JSON deflated (raw DEFLATE of its UTF-8,
// a BLOB), a third of its text: a generated story carries its whole world, and at one trial
// an item the bodies were most of the file. SQL that reads into a body goes through the
// dialect's itemBody (SQLite: the function ITEM_BODY_SQL_FUNCTION, registered on each
// connection). PostgreSQL keeps the text (it compresses large values itself). Bodies written
// before stay text: readers take both.

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { SqlDriver } from './driver.js';

/** The SQLite function that gives a stored body's JSON text. */
export const ITEM_BODY_SQL_FUNCTION = 'mindscope_item_body';

/** A body as the database keeps it. */
export function itemBodyParam(backend: SqlDriver['backend'], json: string): string | Buffer {
  return backend === 'sqlite' ? deflateRawSync(json) : json;
}

/** A stored body's JSON text (deflated or text). */
export function itemBodyText(stored: string | Uint8Array): string {
  return typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8');
}
