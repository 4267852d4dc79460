// The names and item hashes a stream of trial rows refers to by number (TrialNames): each read
// once, with the few stored after it, so a run whose names were stored in the order its trials
// first named them reads them in a few statements, not one a page; any other order reads the same names.

import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/store/index.js';
import { SqliteDriver } from '../src/store/sqlite/sqlite-driver.js';
import { TrialNames } from '../src/store/sql/trial-names.js';

async function namesStore(n: number) {
  const db = new SqliteDriver(':memory:', MIGRATIONS);
  await db.transaction(async (tx) => {
    for (let i = 0; i < n; i++) await tx.run('INSERT INTO names (name) VALUES (?)', [`item-${i}`]);
  });
  const ids = (await db.all<{ id: number; name: string }>('SELECT id, name FROM names ORDER BY id')).filter((r) =>
    r.name.startsWith('item-'),
  );
  let reads = 0;
  const counted = new Proxy(db, {
    get(target, key) {
      if (key === 'all')
        return (sql: string, params?: unknown[]) => {
          if (sql.includes('FROM names')) reads++;
          return target.all(sql, params);
        };
      const v = Reflect.get(target, key);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { db, ids, names: new TrialNames(counted), reads: () => reads };
}

describe('names of trial rows', () => {
  it('a run naming its items in the order stored reads them a few statements in all, each right', async () => {
    const { db, ids, names, reads } = await namesStore(200);
    try {
      // Pages of 4 rows, two items each: 100 pages.
      for (let p = 0; p < 100; p++) {
        const page = [0, 1, 2, 3].map((r) => [ids[2 * p + (r >> 1)]!.id]);
        names.startPage();
        await names.resolve(page, [0]);
        for (const row of page) expect(names.name(row[0])).toBe(ids.find((x) => x.id === row[0])!.name);
      }
      expect(reads()).toBeLessThan(10);
    } finally {
      await db.close();
    }
  });

  it('names in any other order are read right too', async () => {
    const { db, ids, names } = await namesStore(120);
    try {
      const order = ids.map((_, i) => ids[(i * 37) % ids.length]!);
      for (let p = 0; p < order.length; p += 3) {
        const page = order.slice(p, p + 3).map((x) => [x.id]);
        names.startPage();
        await names.resolve(page, [0]);
        for (const row of page) expect(names.name(row[0])).toBe(ids.find((x) => x.id === row[0])!.name);
      }
    } finally {
      await db.close();
    }
  });
});
