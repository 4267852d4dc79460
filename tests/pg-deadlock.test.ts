// Two transactions that lock the same rows in opposite orders deadlock in PostgreSQL, which
// aborts one of them. The store's driver runs the aborted one again, so both complete: several
// processes renewing leases, claiming trials and committing results cannot fail a run that way.

import { afterAll, expect, it } from 'vitest';
import { PgDriver } from '../src/store/postgres/pg-driver.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';

afterAll(dropTestDatabases);

it.skipIf(!pgAvailable)(`a transaction aborted by a deadlock runs again and both complete${pgSkipNote}`, async () => {
  const db = await PgDriver.open(await createTestSchema(), ['CREATE TABLE counters (id TEXT PRIMARY KEY, n INTEGER NOT NULL)']);
  try {
    await db.run("INSERT INTO counters (id, n) VALUES ('a', 0), ('b', 0)");
    let bothLocked!: () => void;
    const firstLocks = new Promise<void>((resolve) => {
      bothLocked = resolve;
    });
    let locked = 0;
    const attempts = { ab: 0, ba: 0 };
    const lockInOrder = (first: string, second: string, name: 'ab' | 'ba') =>
      db.transaction(async (tx) => {
        attempts[name]++;
        await tx.run('UPDATE counters SET n = n + 1 WHERE id = ?', [first]);
        // Both hold their first row before either asks for its second: a certain deadlock.
        if (++locked === 2) bothLocked();
        await firstLocks;
        await tx.run('UPDATE counters SET n = n + 1 WHERE id = ?', [second]);
      });
    await Promise.all([lockInOrder('a', 'b', 'ab'), lockInOrder('b', 'a', 'ba')]);
    // One of the two was aborted and ran again; each committed once.
    expect(attempts.ab + attempts.ba).toBe(3);
    expect(await db.all<{ id: string; n: number }>('SELECT id, n FROM counters ORDER BY id')).toEqual([
      { id: 'a', n: 2 },
      { id: 'b', n: 2 },
    ]);
  } finally {
    await db.close();
  }
});
