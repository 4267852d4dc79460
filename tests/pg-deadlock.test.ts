// Two transactions that lock the same rows in opposite orders deadlock in PostgreSQL, which
// aborts one of them. The store's driver runs the aborted one again, so both complete: several
// processes renewing leases, claiming trials and committing results cannot fail a run that way.
// A full disk (SQLSTATE 53100) ends a run with one line naming the store.

import { afterAll, expect, it } from 'vitest';
import { evaluate, openStore } from '../src/index.js';
import { PgDriver } from '../src/store/postgres/pg-driver.js';
import { PG_MIGRATIONS } from '../src/store/index.js';
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

it.skipIf(!pgAvailable)(`a full disk on PostgreSQL (SQLSTATE 53100) is one line naming the store${pgSkipNote}`, async () => {
  const url = await createTestSchema();
  const store = await openStore(url);
  try {
    // PostgreSQL raises 53100 when it cannot extend a file; a trigger raises the same SQLSTATE on
    // every trial written, so the run meets it exactly where a full disk would stop it.
    await store.flush();
    const admin = await PgDriver.open(url, PG_MIGRATIONS);
    await admin.run(`CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$`);
    await admin.run('CREATE TRIGGER disk_full BEFORE INSERT ON trial_rows FOR EACH ROW EXECUTE FUNCTION disk_full()');
    await admin.close();
    const err = await evaluate({ suites: ['generated-tom'], limit: 20, models: ['agent:oracle'] }, { store, runId: 'full' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toBe(
      `${store.location}: the disk is full, nothing more can be stored: free some space (or use another --db); what was stored is kept and the same command continues the run`,
    );
    expect(err?.message).not.toContain('password');
  } finally {
    await store.close().catch(() => {});
  }
});
