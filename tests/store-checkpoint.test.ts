// The SQLite store's WAL is checkpointed by a worker thread, not inside the writer's commits:
// pages written reach the main file while the writer is idle (its own automatic checkpoint
// would wait for 40,000 pages), the data reads back whole, and closing the store removes the WAL.

import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import type { Item } from '../src/core/index.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-checkpoint-'));

/**
 * 40 items of about 120 KB each as stored (random text: the store deflates item bodies): some
 * 1,200 pages, far below the writer's own checkpoint threshold.
 */
const items = Array.from({ length: 40 }, (_, i) => ({
  hash: `h${i}`,
  item: {
    suite: 'x',
    id: `i${i}`,
    category: 'belief',
    payload: { text: randomBytes(120_000).toString('base64') },
    answer: 'a',
    meta: {},
  } as Item,
}));

it('copies committed pages into the main file from a worker thread while the writer is idle, and removes the WAL on close', async () => {
  const file = join(dir, 'store.db');
  const store = await openStore(file);
  const before = statSync(file).size;
  await store.putItems(items);
  // The writer does nothing more: only the worker can move the WAL's pages into the main file.
  const deadline = Date.now() + 10_000;
  while (statSync(file).size < before + 3_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(statSync(file).size).toBeGreaterThan(before + 3_000_000);
  expect(existsSync(`${file}-wal`)).toBe(true);
  await store.close();
  expect(existsSync(`${file}-wal`)).toBe(false);
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT item_id, length(body) AS n FROM items ORDER BY item_id').all() as Array<{ n: number }>;
  db.close();
  expect(rows).toHaveLength(40);
  for (const r of rows) expect(r.n).toBeGreaterThan(100_000);
});
