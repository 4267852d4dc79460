// The SQLite store's WAL is checkpointed by a worker thread, not inside the writer's commits,
// once the log has grown past 8,192 pages: pages written then reach the main file while the
// writer is idle (its own automatic checkpoint would wait for 40,000 pages). A store that writes
// less starts no worker: its log is checkpointed once, when it closes. Either way the data reads
// back whole, and closing the store removes the WAL.

import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import type { Item } from '../src/core/index.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-checkpoint-'));

/** Items of about 100 KB each as stored (random text: the store deflates item bodies), some 50 pages each. */
const items = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return {
      hash: `h${i}`,
      item: {
        suite: 'x',
        id: `i${String(i).padStart(3, '0')}`,
        category: 'belief',
        payload: { text: randomBytes(100_000).toString('base64') },
        answer: 'a',
        meta: {},
      } as Item,
    };
  });

/** Pages of the WAL file (2 KiB pages, each with a 24-byte frame header). */
const walPages = (file: string) => Math.floor(statSync(`${file}-wal`).size / (2048 + 24));

function storedItems(file: string): Array<{ n: number }> {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT item_id, length(body) AS n FROM items ORDER BY item_id').all() as Array<{ n: number }>;
  db.close();
  return rows;
}

it('checkpoints a small log once, on close, with no worker thread', async () => {
  const file = join(dir, 'small.db');
  const store = await openStore(file);
  await store.putItems(items(0, 20));
  const size = statSync(file).size;
  expect(walPages(file)).toBeGreaterThan(500);
  expect(walPages(file)).toBeLessThan(8192);
  // Nothing copies the log's pages into the main file while the store is open.
  await new Promise((r) => setTimeout(r, 400));
  expect(statSync(file).size).toBe(size);
  await store.close();
  expect(existsSync(`${file}-wal`)).toBe(false);
  expect(statSync(file).size).toBeGreaterThan(size + 1_000_000);
  const rows = storedItems(file);
  expect(rows).toHaveLength(20);
  for (const r of rows) expect(r.n).toBeGreaterThan(80_000);
});

it('copies committed pages into the main file from a worker thread once the log is large, and removes the WAL on close', async () => {
  const file = join(dir, 'store.db');
  const store = await openStore(file);
  // Two writes: the first leaves the log below the worker's threshold, the second takes it past.
  await store.putItems(items(0, 90));
  expect(walPages(file)).toBeLessThan(8192);
  await store.putItems(items(90, 40));
  expect(walPages(file)).toBeGreaterThan(8192);
  expect(walPages(file)).toBeLessThan(10_000);
  const before = statSync(file).size;
  // The writer does nothing more: only the worker can move the WAL's pages into the main file.
  const deadline = Date.now() + 10_000;
  while (statSync(file).size < before + 3_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(statSync(file).size).toBeGreaterThan(before + 3_000_000);
  expect(existsSync(`${file}-wal`)).toBe(true);
  await store.close();
  expect(existsSync(`${file}-wal`)).toBe(false);
  const rows = storedItems(file);
  expect(rows).toHaveLength(130);
  for (const r of rows) expect(r.n).toBeGreaterThan(80_000);
});
