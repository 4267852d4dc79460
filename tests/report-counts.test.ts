// The report's accuracy tables from counts summed in the store are the tables computed from the
// rows, cell for cell and in the same order, on SQLite and PostgreSQL; with replicates or judge
// scores the counts do not suffice and the report reads the rows.

import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluate, openStore, runAccuracy, runMatrix, scoreRun, type Store } from '../src/index.js';
import { accuracyTable, accuracyTableFromCounts, countsSuffice, traceEffect } from '../src/analysis/index.js';
import { collect, PROTOCOL_SCORES } from '../src/store/index.js';
import { runPanel, subjectAnswers } from '../src/app/index.js';
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

const RUBRIC = `name: correctness
prompt: |
  Question: {question}
  Response: {response}
  Expected: {expected}
  Reply with JSON: {"score": 0-5}
fields:
  - { name: score, min: 0, max: 5, integer: true }
`;

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
      // Each trial's protocol score only (its first), also on PostgreSQL.
      expect(await collect(store.responses('p', PROTOCOL_SCORES))).toEqual(await collect(store.responses('p')));
    } finally {
      await store.close();
    }
  });

  it('judge scores added to a run leave its matrix and accuracy on the protocol score', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-counts-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({ suites: ['generated-tom'], limit: 12, models: ['agent:oracle', 'agent:reality'] }, { store, runId: 'j' });
      const before = await runMatrix(store, 'j');
      const accuracyBefore = await runAccuracy(store, 'j');
      const panelBefore = (await runPanel(store, ['j'])).matrix;
      const subject = (await store.runSubjects('j'))[0]!.id;
      const answersBefore = await subjectAnswers(store, 'j', subject);
      const traceBefore = await traceEffect(store, 'j', 'j');
      writeFileSync(join(dir, 'rubric.yaml'), RUBRIC);
      await scoreRun({ store, runId: 'j', rubricPath: join(dir, 'rubric.yaml'), judges: ['agent:exact-judge'] });
      // The judge's 0-5 scores are stored beside the protocol's 0/1 ones...
      const all = await collect(store.responses('j'));
      expect(all.some((r) => r.value > 1)).toBe(true);
      // ...but the matrix, the accuracy table and the report's tables still read the protocol's.
      const after = await runMatrix(store, 'j');
      expect(after).toEqual(before);
      expect(after.cells.flat().every((v) => v === 0 || v === 1)).toBe(true);
      expect(await runAccuracy(store, 'j')).toEqual(accuracyBefore);
      expect(countsSuffice(await store.accuracyCounts('j'), await doneTrials(store, 'j'))).toBe(false);
      const protocolRows = await collect(store.responses('j', PROTOCOL_SCORES));
      expect(protocolRows).toHaveLength(24);
      expect(accuracyTable(protocolRows)).toEqual(accuracyBefore);
      // So do the IRT panel, a subject's answers for adaptive testing and the paired trace effect.
      expect((await runPanel(store, ['j'])).matrix).toEqual(panelBefore);
      expect(await subjectAnswers(store, 'j', subject)).toEqual(answersBefore);
      expect([...answersBefore.values()].every((v) => v === 0 || v === 1)).toBe(true);
      expect(await traceEffect(store, 'j', 'j')).toEqual(traceBefore);
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
