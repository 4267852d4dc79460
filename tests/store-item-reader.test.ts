// Items read for a pass over a run's trials (Store.itemReader): each read brings the few items
// stored after the one asked for, so a pass asking for items in the order they were stored reads
// them a few statements in all; any other order, and hashes the store lacks, read what getItem
// reads, on both backends.

import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import type { Item } from '../src/core/index.js';
import { MIGRATIONS } from '../src/store/index.js';
import { SqliteDriver } from '../src/store/sqlite/sqlite-driver.js';
import { itemReader } from '../src/store/sql/item-reader.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-item-reader-'));
afterAll(() => dropTestDatabases());

const item = (n: number): Item => ({
  suite: 's',
  id: `i${n}`,
  category: n % 2 ? 'belief' : 'knowledge',
  payload: { context: `Story ${n}: Hiro put the key in the drawer and left. `.repeat(1 + (n % 5)) },
  answer: 'a',
  meta: { originalLabel: `label-${n % 3}` },
});
/** SHA-256 hex hashes (kept as bytes) and a few of another form (kept as text). */
const hashOf = (n: number) => (n % 50 === 7 ? `h${n}` : createHash('sha256').update(`item ${n}`).digest('hex'));
const N = 300;

const backends = [
  { name: 'SQLite', skip: false, fresh: async () => join(mkdtempSync(join(dir, 'store-')), 'store.db') },
  { name: `PostgreSQL${pgSkipNote}`, skip: !pgAvailable, fresh: () => createTestSchema() },
];

for (const b of backends) {
  describe.skipIf(b.skip)(`items read for a pass on ${b.name}`, () => {
    it('gives what getItem gives, in the order stored, in any other order, and nothing for a hash the store lacks', async () => {
      const s = await openStore(await b.fresh());
      try {
        const stored = s.putItems(Array.from({ length: N }, (_, i) => ({ hash: hashOf(i), item: item(i) })));
        // Asked for while the items are being stored: the reader waits for them, as getItem does.
        const first = s.itemReader!()(hashOf(0));
        await stored;
        expect(await first).toEqual(item(0));
        const orders = [
          Array.from({ length: N }, (_, i) => i),
          Array.from({ length: N }, (_, i) => N - 1 - i),
          Array.from({ length: N }, (_, i) => (i * 37) % N),
        ];
        for (const order of orders) {
          const read = s.itemReader!();
          for (const n of order) expect(await read(hashOf(n))).toEqual(item(n));
        }
        const read = s.itemReader!();
        expect(await read('0'.repeat(64))).toBeUndefined();
        expect(await read('no such hash')).toBeUndefined();
        // Asked for twice: read again.
        expect(await read(hashOf(3))).toEqual(item(3));
        expect(await read(hashOf(3))).toEqual(item(3));
        expect(await s.getItem(hashOf(3))).toEqual(item(3));
      } finally {
        await s.close();
      }
    });
  });
}

describe('items read in the order stored', () => {
  it('take a few statements in all, not one an item', async () => {
    const location = join(mkdtempSync(join(dir, 'count-')), 'store.db');
    const s = await openStore(location);
    await s.putItems(Array.from({ length: N }, (_, i) => ({ hash: hashOf(i), item: item(i) })));
    await s.close();
    const db = new SqliteDriver(location, MIGRATIONS);
    let reads = 0;
    const counted = new Proxy(db, {
      get(target, key) {
        if (key === 'rows')
          return (sql: string, params?: unknown[]) => {
            if (sql.includes('FROM items')) reads++;
            return target.rows(sql, params);
          };
        const v = Reflect.get(target, key);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    try {
      const read = itemReader(counted);
      for (let i = 0; i < N; i++) expect(await read(hashOf(i))).toEqual(item(i));
      expect(reads).toBeLessThanOrEqual(Math.ceil(N / 20));
    } finally {
      await db.close();
    }
  });
});
