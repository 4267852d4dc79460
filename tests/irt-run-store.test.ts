// The store's IRT results (the irt_results table, one migration in each backend): written,
// replaced and read back on SQLite and a real PostgreSQL server, and carried by db copy.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { copyStore, type IrtResultRow, MIGRATIONS, PG_MIGRATIONS } from '../src/store/index.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-irt-store-'));
afterAll(() => dropTestDatabases());

const backends = [
  { name: 'SQLite', skip: false, fresh: async (tag: string) => join(mkdtempSync(join(dir, `${tag}-`)), 'store.db') },
  { name: `PostgreSQL${pgSkipNote}`, skip: !pgAvailable, fresh: () => createTestSchema() },
];

const row = (subjectId: string, estimate: number): IrtResultRow => ({
  runId: 'r',
  subjectId,
  suite: 'tombench',
  mode: 'tiny',
  bankId: 'bank-0123456789abcdef',
  result: { theta: 0.5, accuracy: [{ category: null, pIrt: { estimate, lower: estimate - 0.1, upper: estimate + 0.1 } }] },
});

it('both backends have the same number of migrations', () => {
  expect(PG_MIGRATIONS.length).toBe(MIGRATIONS.length);
  // Under the same number in both (migrations appended later may follow it).
  const at = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE irt_results'));
  expect(at).toBeGreaterThanOrEqual(0);
  expect(PG_MIGRATIONS[at]).toContain('CREATE TABLE irt_results');
});

for (const b of backends) {
  describe.skipIf(b.skip)(`IRT results on ${b.name}`, () => {
    it('stores, replaces and reads them per subject and suite, and copies them', async () => {
      const location = await b.fresh('irt');
      const s = await openStore(location);
      await s.createRun({ id: 'r', createdAt: 'now', config: { irt: { mode: 'tiny' } } });
      await s.putIrtResult(row('s2', 0.4));
      await s.putIrtResult(row('s1', 0.7));
      await s.putIrtResult(row('s1', 0.75));
      expect(await s.irtResults('r')).toEqual([row('s1', 0.75), row('s2', 0.4)]);
      expect(await s.irtResults('other')).toEqual([]);
      await s.close();
      for (const other of backends.filter((o) => !o.skip)) {
        const target = await other.fresh('irt-copy');
        await copyStore(location, target);
        const t = await openStore(target);
        expect(await t.irtResults('r'), `${b.name} -> ${other.name}`).toEqual([row('s1', 0.75), row('s2', 0.4)]);
        await t.close();
      }
    });
  });
}
