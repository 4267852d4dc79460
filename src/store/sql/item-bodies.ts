// Item bodies (schema 12 on): SQLite keeps an item's JSON deflated, against the store's item
// dictionary once it has one (text-codec.ts; raw DEFLATE alone before), a fifth to a third of
// its text: a generated story carries its whole world, and at one trial an item the bodies were
// most of the file. SQL that reads into a body goes through the dialect's itemBody (SQLite: the
// function ITEM_BODY_SQL_FUNCTION, registered on each connection). PostgreSQL keeps the text
// (it compresses large values itself). Bodies written before stay as they are: readers take all forms.

import { Worker } from 'node:worker_threads';
import { inflateRawSync } from 'node:zlib';
import type { Item } from '../../core/index.js';
import type { SqlDriver } from './driver.js';
import type { TextCodec } from './text-codec.js';
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
 * Bodies from this many on are deflated on a worker thread. Deflating costs about 25 us an item
 * whatever the level (zlib's setup, mostly): at one trial an item that was 4% of a run's
 * main-thread time, and a run goes on with its trials while the worker deflates. Starting a
 * worker costs about 30 ms of CPU (most of it on its own thread): below a few hundred items,
 * deflating here is as cheap.
 */
const WORKER_MIN_ITEMS = 256;

/** Items a message to the worker carries: its heap, and the memory its zlib takes, stay small. */
const WORKER_CHUNK = 1000;

// The worker as a script (eval): it runs from the TypeScript sources in tests and from dist/ alike.
// Each message is a list of texts and a dictionary (or none); each reply their deflated bytes end
// to end, and where each ends.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { deflateRawSync } = require('node:zlib');
parentPort.on('message', ({ texts, options }) => {
  const parts = texts.map((t) => (options ? deflateRawSync(t, options) : deflateRawSync(t)));
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const ends = new Uint32Array(parts.length);
  let at = 0;
  parts.forEach((p, i) => { all.set(p, at); at += p.length; ends[i] = at; });
  parentPort.postMessage({ all, ends }, [all.buffer, ends.buffer]);
});
`;

/** Deflate on a worker thread (with these options: a dictionary), a chunk at a time; rejects if the worker cannot run. */
export function deflateOnWorker(
  texts: string[],
  options?: { dictionary: Uint8Array; windowBits: number; memLevel: number },
): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    const bodies: Buffer[] = [];
    let sent = 0;
    const send = () => {
      worker.postMessage({ texts: texts.slice(sent, sent + WORKER_CHUNK), options });
      sent += WORKER_CHUNK;
    };
    worker.on('message', ({ all, ends }: { all: Uint8Array; ends: Uint32Array }) => {
      let start = 0;
      for (const end of ends) {
        bodies.push(Buffer.from(all.buffer, all.byteOffset + start, end - start));
        start = end;
      }
      if (sent < texts.length) return send();
      resolve(bodies);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the deflating worker exited (${code})`)));
    send();
  });
}

/**
 * Bodies as the database keeps them, in order (codec.encode's): many at once deflated on a
 * worker thread. A store with no item dictionary yet trains one from these bodies first.
 */
async function itemBodyParams(db: SqlDriver, jsons: string[]): Promise<Array<string | Buffer>> {
  const codec: TextCodec = db.codec;
  if (!codec.compress) return jsons;
  await codec.ready(db);
  codec.sample('item', jsons);
  await codec.train(db);
  const dictionary = codec.dictionaryOf('item');
  if (jsons.length >= WORKER_MIN_ITEMS && dictionary) {
    // A worker that cannot start (resource limits) is no reason to fail: deflate here instead.
    const bodies = await deflateOnWorker(jsons, dictionary.options).catch(() => undefined);
    if (bodies) return bodies.map((b, i) => codec.framed(dictionary.id, b, jsons[i]!));
  }
  return jsons.map((j) => codec.encode('item', j));
}

/**
 * Store items by content hash. Items stored already (another subject's run of the same suite, a
 * resumed run) are not serialised, deflated or sent again.
 */
export async function storeItems(db: SqlDriver, items: ReadonlyArray<{ hash: string; item: Item; json?: string }>): Promise<void> {
  const known = new Set<string>();
  const hashes = [...new Set(items.map((i) => i.hash))];
  for (let i = 0; i < hashes.length; i += 500) {
    const part = hashes.slice(i, i + 500);
    const rows = await db.all<{ hash: string }>(`SELECT hash FROM items WHERE hash IN (${valuesList(part.length, 0, '?')})`, part);
    for (const r of rows) known.add(r.hash);
  }
  const fresh: Array<{ hash: string; item: Item; json?: string }> = [];
  for (const i of items) {
    if (known.has(i.hash)) continue;
    known.add(i.hash);
    fresh.push(i);
  }
  if (fresh.length === 0) return;
  const bodies = await itemBodyParams(
    db,
    fresh.map((i) => i.json ?? JSON.stringify(i.item)),
  );
  // Several rows a statement: a networked database pays a round trip per statement.
  const chunk = 200;
  await db.transaction(async (tx) => {
    for (let i = 0; i < fresh.length; i += chunk) {
      const part = fresh.slice(i, i + chunk);
      await tx.run(
        `INSERT INTO items (hash, suite, item_id, category, ability, answer, body) VALUES ${valuesList(part.length, 7)} ON CONFLICT (hash) DO NOTHING`,
        part.flatMap(({ hash, item }, j) => [hash, item.suite, item.id, item.category, item.ability ?? null, item.answer, bodies[i + j]]),
      );
    }
  });
}
