// Item bodies (schema 12 on): SQLite keeps an item's JSON deflated, against the store's item
// dictionary once it has one (text-codec.ts; raw DEFLATE alone before), a fifth to a third of
// its text: a generated story carries its whole world, and at one trial an item the bodies were
// most of the file. Items written together are kept in blocks (ITEM_BLOCK_MAX below), each
// body its place in one. SQL that reads into a body goes through the dialect's itemBody (SQLite: the
// function ITEM_BODY_SQL_FUNCTION, registered on each connection). PostgreSQL keeps the text, in
// blocks that it compresses itself (pg-text-blocks.ts). Bodies written before stay as they are: readers take all forms.

import { inflateRawSync } from 'node:zlib';
import type { Item } from '../../core/index.js';
import type { SqlDriver, SqlExecutor } from './driver.js';
import { ITEM_KEY, itemConflict, itemHashParam, itemHashText, itemKeyParam } from './item-keys.js';
import { type PgTextPlace, pgTextPlaces } from './pg-text-blocks.js';
import { blockGroups, type TextCodec } from './text-codec.js';
import { valuesList } from './trial-key-sql.js';

/** The SQLite function that gives a stored body's JSON text. */
export const ITEM_BODY_SQL_FUNCTION = 'mindscope_item_body';

/** A stored body's JSON text (deflated alone, or text): what bodies written before schema 16 are. */
export function itemBodyText(stored: string | Uint8Array): string {
  return typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8');
}

/** Characters (deflated bytes and text) a connection's memo of inflated bodies holds at most. */
const MEMO_MAX_CHARS = 16 * 2 ** 20;

/**
 * itemBodyText for SQL that reads every item of a run (the viewer's search and label filter,
 * `report`'s item fields): a body inflated once is remembered, by its deflated bytes, so that
 * the next query over the same items does not inflate them again (inflating is most of such a
 * query). Bounded: past `maxChars` the rest are inflated each time.
 */
export function memoizedItemBodyText(
  maxChars = MEMO_MAX_CHARS,
  inflate: (stored: Uint8Array) => string = itemBodyText,
): (stored: string | Uint8Array) => string {
  const memo = new Map<string, string>();
  let chars = 0;
  return (stored) => {
    if (typeof stored === 'string') return stored;
    const key = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).toString('latin1');
    let text = memo.get(key);
    if (text === undefined) {
      text = inflate(stored);
      if (chars + key.length + text.length <= maxChars) {
        memo.set(key, text);
        chars += key.length + text.length;
      }
    }
    return text;
  };
}

/**
 * Bodies encoded between yields to the event loop: a run's trials go on while its items are
 * encoded (about 30 us an item with the store's indexed encoder, text-codec.ts).
 */
const ENCODE_CHUNK = 200;

/**
 * Bodies as the database keeps them, in order (codec.encode's), a chunk at a time. A store
 * with no item dictionary yet trains one from these bodies first.
 */
async function itemBodyParams(db: SqlDriver, jsons: string[]): Promise<Array<string | Buffer>> {
  const codec: TextCodec = db.codec;
  if (!codec.compress) return jsons;
  await codec.ready(db);
  codec.sample('item', jsons);
  await codec.train(db);
  const bodies: Array<string | Buffer> = [];
  for (let i = 0; i < jsons.length; i += ENCODE_CHUNK) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (let j = i; j < Math.min(i + ENCODE_CHUNK, jsons.length); j++) bodies.push(codec.encode('item', jsons[j]!));
  }
  return bodies;
}

/**
 * Items written together (SQLite) are kept in blocks of this many, each a row of
 * transcript_blocks (text-codec.ts, blockOf) and each item's body its place in one: a suite's
 * stories share most of their words, which a block keeps once (a body deflated alone against
 * the dictionary keeps them in every row). Reading a body inflates its block (256 KiB of JSON
 * at most; a longer body is kept alone), which the codec remembers for the next body of the block.
 */
const ITEM_BLOCK_MAX = 64;

/** The items' dictionary trained from these bodies first when the store has none (as itemBodyParams does); the bodies unchanged. */
async function blockPrepared(db: SqlDriver, jsons: string[]): Promise<string[]> {
  await db.codec.ready(db);
  db.codec.sample('item', jsons);
  await db.codec.train(db);
  return jsons;
}

/** Bodies as the database keeps them, blocked (inside the transaction that writes the items): a long body, or one with a line break, is kept alone. */
async function blockBodies(tx: SqlExecutor, codec: TextCodec, jsons: string[]): Promise<Array<string | Buffer>> {
  const bodies: Array<string | Buffer> = [];
  const { blocks, alone } = blockGroups(
    jsons.map((j) => (j.includes('\n') ? Number.POSITIVE_INFINITY : j.length)),
    ITEM_BLOCK_MAX,
  );
  for (const j of alone) bodies[j] = codec.encode('item', jsons[j]!);
  for (const part of blocks) {
    const row = await tx.get<{ id: number }>('INSERT INTO transcript_blocks (body) VALUES (?) RETURNING id', [
      codec.blockOf(
        part.map((j) => jsons[j]!),
        'item',
      ),
    ]);
    part.forEach((j, k) => {
      bodies[j] = codec.itemMember(Number(row!.id), k);
    });
  }
  return bodies;
}

/**
 * Bodies a PostgreSQL block holds at most (pg-text-blocks.ts): a SQL reader of one body (the
 * viewer's search and label filter) parses its block's JSON, a few dozen stories (some 40 KB);
 * a block of 64 compressed only about 4% smaller.
 */
export const PG_ITEM_BLOCK_MAX = 32;

/** PostgreSQL: the items' rows, each body in its row or its place in a block (pg-text-blocks.ts); the rows inserted. */
export async function insertPgItems(
  tx: SqlExecutor,
  fresh: ReadonlyArray<{ hash: string; item: { suite: string; id: string; category: string; ability?: string; answer: string } }>,
  places: readonly PgTextPlace[],
  chunk = 200,
): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < fresh.length; i += chunk) {
    const part = fresh.slice(i, i + chunk);
    inserted += await tx.run(
      `INSERT INTO items (hash, suite, item_id, category, ability, answer, body, block, place) VALUES ${valuesList(part.length, 9)} ${itemConflict('postgres')}`,
      part.flatMap(({ hash, item }, j) => [
        itemHashParam('postgres', hash),
        item.suite,
        item.id,
        item.category,
        item.ability ?? null,
        item.answer,
        ...places[i + j]!,
      ]),
    );
  }
  return inserted;
}

/** Which of `hashes` (hex) the store holds an item of. */
export async function knownItemHashes(
  db: Pick<SqlExecutor, 'all'>,
  backend: 'sqlite' | 'postgres',
  hashes: readonly string[],
): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < hashes.length; i += 500) {
    const part = hashes.slice(i, i + 500);
    const rows = await db.all<{ hash: string | Uint8Array }>(
      backend === 'sqlite'
        ? `SELECT hash FROM items WHERE ${ITEM_KEY('hash')} IN (${valuesList(part.length, 0, '?')})`
        : `SELECT hash FROM items WHERE hash IN (${valuesList(part.length, 0, '?')})`,
      backend === 'sqlite' ? part.map(itemKeyParam) : part.map((h) => itemHashParam(backend, h)),
    );
    for (const r of rows) known.add(itemHashText(r.hash));
  }
  return known;
}

/**
 * Store items by content hash. Items stored already (another subject's run of the same suite, a
 * resumed run) are not serialised, deflated or sent again.
 */
export async function storeItems(db: SqlDriver, items: ReadonlyArray<{ hash: string; item: Item; json?: string }>): Promise<void> {
  const known = await knownItemHashes(db, db.backend, [...new Set(items.map((i) => i.hash))]);
  const fresh: Array<{ hash: string; item: Item; json?: string }> = [];
  for (const i of items) {
    if (known.has(i.hash)) continue;
    known.add(i.hash);
    fresh.push(i);
  }
  if (fresh.length === 0) return;
  const jsons = fresh.map((i) => i.json ?? JSON.stringify(i.item));
  const blocked = db.codec.blocksTranscripts && fresh.length >= 2;
  let bodies = db.backend === 'postgres' ? jsons : blocked ? await blockPrepared(db, jsons) : await itemBodyParams(db, jsons);
  // Several rows a statement: a networked database pays a round trip per statement.
  const chunk = 200;
  await db.transaction(async (tx) => {
    if (db.backend === 'postgres') {
      await insertPgItems(tx, fresh, await pgTextPlaces(tx, jsons, PG_ITEM_BLOCK_MAX), chunk);
      return;
    }
    if (blocked) bodies = await blockBodies(tx, db.codec, jsons);
    for (let i = 0; i < fresh.length; i += chunk) {
      const part = fresh.slice(i, i + chunk);
      await tx.run(
        `INSERT INTO items (hash, suite, item_id, category, ability, answer, body) VALUES ${valuesList(part.length, 7)} ${itemConflict(db.backend)}`,
        part.flatMap(({ hash, item }, j) => [
          itemHashParam(db.backend, hash),
          item.suite,
          item.id,
          item.category,
          item.ability ?? null,
          item.answer,
          bodies[i + j],
        ]),
      );
    }
  });
}
