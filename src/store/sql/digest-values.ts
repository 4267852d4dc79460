// A value that is normally a hex digest (a cache key, an item hash) kept as its bytes. A value
// that is not hex SQLite keeps as text; PostgreSQL, whose column holds bytes only, keeps its UTF-8
// after a zero byte (two where that would make exactly a digest's length), which no text starts
// with, so the two forms are told apart on reading.

import type { SqlDriver } from './driver.js';

/** A value as the database holds it: its first `bytes` bytes where it matches `hex`, else as above. */
export function digestParam(backend: SqlDriver['backend'], text: string, hex: RegExp, bytes: number): string | Buffer {
  if (hex.test(text)) return Buffer.from(text.slice(0, 2 * bytes), 'hex');
  if (backend === 'sqlite') return text;
  const utf8 = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.alloc(utf8.length === bytes - 1 ? 2 : 1), utf8]);
}

/** A stored value as text (hex for a digest): digestParam's inverse. */
export function digestText(stored: string | Uint8Array, bytes: number): string {
  if (typeof stored === 'string') return stored;
  const b = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (b.length === bytes || b[0] !== 0) return b.toString('hex');
  let at = 0;
  while (at < b.length && b[at] === 0) at++;
  return b.subarray(at).toString('utf8');
}
