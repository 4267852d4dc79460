// Items by content hash for a pass over a run's trials (Store.itemReader): a run's items are
// stored in the order its trials first need them, so each read brings along the few items stored
// after the one asked for, kept as stored (neither inflated nor parsed) until one is asked for.
// A pass then reads many items a statement, where getItem reads one.

import type { Item } from '../../core/index.js';
import type { SqlDriver } from './driver.js';
import { itemHashParam, itemHashText, itemIdByHash } from './item-keys.js';
import { PgBlockCache, pgTaggedBlockText } from './pg-text-blocks.js';

/** Items read along after the one asked for. */
const READ_AHEAD = 32;

/** An item by its content hash; undefined when the store has none. */
export type ItemReader = (hash: string) => Promise<Item | undefined>;

/** A reader of items that reads the next ones along (see the top of the file); its memory holds READ_AHEAD stored items at most. */
export function itemReader(db: SqlDriver): ItemReader {
  const pg = db.backend === 'postgres';
  // PostgreSQL: a body kept in a block is read with its block (PgBlockCache), once for its neighbours.
  const blocks = pg ? new PgBlockCache(db) : undefined;
  const sql = `SELECT hash, ${pg ? pgTaggedBlockText('items') : 'body'} FROM items
    WHERE id >= ${itemIdByHash(db.backend)} ORDER BY id LIMIT ${1 + READ_AHEAD}`;
  /** The items read along with the last one asked for (stored bodies, by hash), not yet asked for. */
  let ahead = new Map<string, unknown>();
  const parse = async (stored: unknown): Promise<Item> => {
    const text = blocks ? (await blocks.texts([stored]))[0]! : db.codec.decode(stored as string | Uint8Array);
    return JSON.parse(text) as Item;
  };
  return async (hash) => {
    let stored = ahead.get(hash);
    if (stored === undefined) {
      // The item asked for first (the smallest id at or after its own), then the ones stored after it.
      const rows = await db.rows(sql, [itemHashParam(db.backend, hash)]);
      ahead = new Map();
      for (const [h, body] of rows) ahead.set(itemHashText(h as string | Uint8Array), body);
      stored = ahead.get(hash);
      if (stored === undefined) return undefined;
    }
    ahead.delete(hash);
    return parse(stored);
  };
}
