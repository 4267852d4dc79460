// The report's accuracy tables from counts summed in the store are the tables computed from the
// rows, cell for cell and in the same order, on SQLite and PostgreSQL; with replicates or judge
// scores the counts do not suffice and the report reads the rows.

import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluate, openStore, type Store } from '../src/index.js';
import { accuracyTable, accuracyTableFromCounts, countsSuffice } from '../src/analysis/index.js';
import { collect } from '../src/store/index.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';

afterAll(dropTestDatabases);

async function doneTrials(store: Store, runId: string): Promise<number> {
  return (await store.status(runId)).reduce((s, r) => s + r.done, 0);
}

async function checkSameTables(store: Store, runId: string): Promise<void> {
  const counts = await store.accuracyCounts(runId);
  expect(countsSuffice(counts, await doneTrials(store, runId))).toBe(true);
  const rows = await collect(store.responses(runId));
  for (const g of ['category', 'suite', 'ability'] as const) {
    expect(accuracyTableFromCounts(counts, g)).toEqual(accuracyTable(rows, g));
  }
}

const MODELS = ['agent:oracle', 'agent:random', 'agent:reality', 'agent:first-option'];

describe('accuracy tables from store counts', () => {
  it('equal the tables from the rows on SQLite (two suites, parse failures)', async () => {
    const store = await openStore(join(mkdtempSync(join(tmpdir(), 'mindscope-counts-')), 'm.db'));
    try {
      await evaluate(
        { suites: ['generated-tom', 'tombench'], data: 'tests/fixtures/data/tombench', limit: 40, models: MODELS },
        { store, runId: 'c' },
      );
      const counts = await store.accuracyCounts('c');
      // agent:oracle cannot answer released items: its parse failures are counted.
      expect(counts.some((c) => c.parseFailures > 0)).toBe(true);
      await checkSameTables(store, 'c');
    } finally {
      await store.close();
    }
  });

  it.skipIf(!pgAvailable)(`equal the tables from the rows on PostgreSQL${pgSkipNote}`, async () => {
    const store = await openStore(await createTestSchema());
    try {
      await evaluate({ suites: ['generated-tom'], limit: 30, models: MODELS }, { store, runId: 'p' });
      await checkSameTables(store, 'p');
    } finally {
      await store.close();
    }
  });

  it('do not suffice with replicates', async () => {
    const store = await openStore(join(mkdtempSync(join(tmpdir(), 'mindscope-counts-')), 'm.db'));
    try {
      await evaluate({ suites: ['generated-tom'], limit: 10, trials: 2, models: ['agent:random'] }, { store, runId: 'r' });
      expect(countsSuffice(await store.accuracyCounts('r'), await doneTrials(store, 'r'))).toBe(false);
    } finally {
      await store.close();
    }
  });
});
