// The SQLite store: migrations, all-or-nothing trials, and the response matrix in CSV and
// Parquet, read back in both layouts.

import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, readMatrixCsv, readMatrixParquet, writeMatrixCsv, writeMatrixParquet } from '../src/index.js';
import type { TrialOutcome } from '../src/core/index.js';
import { buildMatrix, matrixFromCsv, MIGRATIONS, SqliteStore } from '../src/store/index.js';
import { evaluate } from './helpers/evaluate.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-store-'));

describe('SQLite store', () => {
  it('migrates a new file to the latest schema and refuses a newer one', () => {
    const path = join(dir, 'm.db');
    const s = new SqliteStore(path);
    expect(s.schemaVersion).toBe(MIGRATIONS.length);
    s.close();
    const db = new Database(path);
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => new SqliteStore(path)).toThrow(
      new RegExp(`schema version ${MIGRATIONS.length + 1} is newer than this mindscope knows \\(${MIGRATIONS.length}\\)`),
    );
  });

  it('migrates a version-1 file forward and keeps what it holds', () => {
    const path = join(dir, 'v1.db');
    const s = new SqliteStore(path);
    s.createRun({ id: 'old', createdAt: 'then', config: { a: 1 } });
    s.close();
    // Back to version 1, as a file written before rubric pins existed.
    const db = new Database(path);
    db.exec('DROP TABLE rubric_pins');
    db.exec('ALTER TABLE trials DROP COLUMN truncated_calls');
    db.exec('ALTER TABLE trials DROP COLUMN unpriced_calls');
    db.pragma('user_version = 1');
    db.close();
    const again = new SqliteStore(path);
    expect(again.schemaVersion).toBe(MIGRATIONS.length);
    expect(again.getRun('old')?.config).toEqual({ a: 1 });
    again.pinRubric('old', 'r', 'aa');
    expect(() => again.pinRubric('old', 'r', 'bb')).toThrow(/refusing to mix rubrics/);
    again.close();
  });

  it('writes a trial with its transcript and score in one transaction, or not at all', () => {
    const s = new SqliteStore(join(dir, 'atomic.db'));
    s.createRun({ id: 'r', createdAt: 'now', config: {} });
    s.upsertSubject({ id: 's1', spec: 'agent:oracle', settings: {} });
    s.putItems([{ hash: 'h1', item: { suite: 'x', id: 'i1', category: 'belief', payload: {}, answer: 'a', meta: {} } }]);
    const key = (itemId: string) => ({ runId: 'r', subjectId: 's1', suite: 'x', itemId, replicate: 0 });
    const outcome: TrialOutcome = {
      transcript: { protocol: 'test', calls: [], detail: { note: 'kept' } },
      score: { scorer: 'mcq', value: 1, detail: {} },
      usage: { inputTokens: 1, outputTokens: 1 },
      costUsd: 0,
      latencyMs: 0,
      cachedCalls: 0,
      totalCalls: 1,
    };
    expect(() => s.recordDone(key('i1'), 'h1', { ...outcome, score: { ...outcome.score, value: Number.NaN } }, 1)).toThrow(
      /score NaN is not a finite number/,
    );
    // One good trial and one that SQLite refuses (its item is unknown: a foreign key) in one batch.
    s.recordDone(key('i1'), 'h1', outcome, 1);
    s.recordDone(key('i2'), 'no-such-item', outcome, 1);
    expect(() => s.flush()).toThrow(/could not store 1 write\(s\): trial x\/i2#0: FOREIGN KEY constraint failed/);
    expect(s.trialStatus(key('i1'))).toBe('done');
    expect(s.transcript(key('i1'))?.transcript).toEqual({ protocol: 'test', calls: [], detail: { note: 'kept' } });
    expect(s.trialStatus(key('i2'))).toBeUndefined();
    s.close();
    const db = new Database(join(dir, 'atomic.db'));
    expect(db.prepare('SELECT COUNT(*) AS n FROM transcripts').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM scores').get()).toEqual({ n: 1 });
    db.close();
  });

  it('sees queued cache entries before they are committed', () => {
    const s = new SqliteStore(join(dir, 'queue.db'));
    s.putCached('k', 'p', 'm', { text: 'hi' });
    expect(s.getCached('k')).toEqual({ text: 'hi' });
    s.flush();
    expect(s.getCached('k')).toEqual({ text: 'hi' });
    s.close();
  });
});

describe('response matrix', () => {
  it('round-trips through CSV and Parquet, wide and long', async () => {
    const store = openStore(join(dir, 'matrix.db'));
    const r = await evaluate({
      store,
      suites: ['generated-tom'],
      limit: 20,
      seed: 1,
      models: ['agent:oracle', 'agent:reality', 'agent:first-option'],
    });
    const m = buildMatrix(store.responses(r.runId));
    expect(m.subjects).toEqual(['agent:first-option', 'agent:oracle', 'agent:reality']);
    expect(m.items).toHaveLength(20);
    expect(m.items[0]).toMatchObject({ suite: 'generated-tom', itemId: 's1-0000' });
    expect(m.cells.every((row) => row[1] === 1)).toBe(true);
    writeMatrixCsv(join(dir, 'm.csv'), m);
    writeMatrixParquet(join(dir, 'm.parquet'), m);
    expect(readMatrixCsv(join(dir, 'm.csv'))).toEqual(m);
    expect(await readMatrixParquet(join(dir, 'm.parquet'))).toEqual(m);
    const long = ['subject,suite,item_id,category,original_label,correct'];
    m.items.forEach((it, i) =>
      m.subjects.forEach((s, j) => long.push(`${s},${it.suite},${it.itemId},${it.category},${it.originalLabel},${m.cells[i]![j]}`)),
    );
    expect(matrixFromCsv(long.join('\n'))).toEqual(m);
    store.close();
  });

  it('keeps missing cells blank and reads them back as missing', () => {
    const m = matrixFromCsv('suite,item_id,category,original_label,a,b\nx,1,belief,l,1,\nx,2,desire,l,0,1\n');
    expect(m.cells).toEqual([
      [1, null],
      [0, 1],
    ]);
  });

  it('rejects ragged rows, non-binary cells and unknown categories with the line', () => {
    const f = join(dir, 'bad.csv');
    writeFileSync(f, 'suite,item_id,category,original_label,a\nx,1,belief,l,1,0\n');
    expect(() => readMatrixCsv(f)).toThrow(/bad\.csv:2: row has 6 fields, the header has 5/);
    writeFileSync(f, 'suite,item_id,category,original_label,a\nx,1,belief,l,yes\n');
    expect(() => readMatrixCsv(f)).toThrow(/bad\.csv:2: column "a": "yes" is not a score in \[0, 1\]/);
    writeFileSync(f, 'suite,item_id,category,original_label,a\nx,1,astrology,l,1\n');
    expect(() => readMatrixCsv(f)).toThrow(/bad\.csv:2: unknown category "astrology"/);
    expect(() => readMatrixCsv(join(dir, 'none.csv'))).toThrow(/none\.csv: no such file/);
  });
});
