// The store, the same tests against both backends (SQLite file, real PostgreSQL server):
// migrations, all-or-nothing trials, read-your-writes, leases, a result recorded once (a done
// trial never downgraded), shared rate limits, copying between stores; then the response
// matrix in CSV and Parquet, read back in both layouts.

import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, readMatrixCsv, readMatrixParquet, writeMatrixCsv, writeMatrixParquet, type Store } from '../src/index.js';
import type { Item, TrialKey, TrialOutcome } from '../src/core/index.js';
import {
  buildMatrix,
  collect,
  copyStore,
  discardUnusedSqliteStore,
  matrixFromCsv,
  MIGRATIONS,
  PG_MIGRATIONS,
  type SqlStore,
} from '../src/store/index.js';
import { minimalOutcome } from './helpers/outcomes.js';
import { evaluate } from './helpers/evaluate.js';
import { sqliteQuery } from './helpers/sqlite.js';
import { backToSchema14 } from './helpers/schema-14.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-store-'));
afterAll(() => dropTestDatabases());

interface Backend {
  name: string;
  skip: boolean;
  /** A new, empty store location. */
  fresh(tag: string): Promise<string>;
  /** Run SQL on the store's database directly, returning rows. */
  sql(location: string, sql: string): Promise<Array<Record<string, unknown>>>;
  /** Make the database look as if written by an older or newer mindscope. */
  setVersion(location: string, version: number): Promise<void>;
}

const sqlite: Backend = {
  name: 'SQLite',
  skip: false,
  fresh: async (tag) => join(mkdtempSync(join(dir, `${tag}-`)), 'store.db'),
  sql: sqliteQuery,
  setVersion: async (location, version) => {
    const db = new Database(location);
    db.pragma(`user_version = ${version}`);
    db.close();
  },
};

const postgres: Backend = {
  name: `PostgreSQL${pgSkipNote}`,
  skip: !pgAvailable,
  fresh: () => createTestSchema(),
  sql: (location, sql) => pgQuery(location, sql),
  setVersion: async (location, version) => {
    await pgQuery(location, `UPDATE mindscope_schema SET version = ${version}`);
  },
};

const item = (id: string): Item => ({ suite: 'x', id, category: 'belief', payload: {}, answer: 'a', meta: {} });
const key = (itemId: string, runId = 'r'): TrialKey => ({ runId, subjectId: 's1', suite: 'x', itemId, replicate: 0 });
const outcome = (note: string, value = 1): TrialOutcome => minimalOutcome(value, { note });

/** A store with one run, one subject and items i1..i4 (hashes h1..h4). */
async function seeded(location: string): Promise<Store> {
  const s = await openStore(location);
  await s.createRun({ id: 'r', createdAt: 'now', config: { a: 1 } });
  await s.upsertSubject({ id: 's1', spec: 'agent:oracle', settings: {} });
  await s.putItems([1, 2, 3, 4].map((n) => ({ hash: `h${n}`, item: item(`i${n}`) })));
  return s;
}

const count = async (b: Backend, location: string, table: string) =>
  Number((await b.sql(location, `SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);

for (const b of [sqlite, postgres]) {
  describe.skipIf(b.skip)(`store on ${b.name}`, () => {
    const migrations = b === sqlite ? MIGRATIONS : PG_MIGRATIONS;

    it('migrates a new store to the latest schema and refuses a newer one', async () => {
      const location = await b.fresh('m');
      const s = (await openStore(location)) as SqlStore;
      expect(await s.schemaVersion()).toBe(migrations.length);
      expect(MIGRATIONS.length).toBe(PG_MIGRATIONS.length);
      await s.close();
      await b.setVersion(location, migrations.length + 1);
      await expect(openStore(location)).rejects.toThrow(
        new RegExp(`schema version ${migrations.length + 1} is newer than this mindscope knows \\(${migrations.length}\\)`),
      );
    });

    it('migrates a version-1 store forward and keeps what it holds', async () => {
      const location = await b.fresh('v1');
      const s = await openStore(location);
      await s.createRun({ id: 'old', createdAt: 'then', config: { a: 1 } });
      await s.close();
      // Back to version 1, as a store written before rubric pins, truncation counts, leases, stored specs, the batch ledger and batch waits.
      for (const stmt of [
        ...backToSchema14(b.name === 'SQLite' ? 'sqlite' : 'postgres'),
        'DROP TABLE irt_results',
        'DROP TABLE rubric_pins',
        'ALTER TABLE trials DROP COLUMN truncated_calls',
        'ALTER TABLE trials DROP COLUMN unpriced_calls',
        'DROP TABLE trial_leases',
        'DROP TABLE rate_limits',
        'ALTER TABLE runs DROP COLUMN spec',
        'ALTER TABLE runs DROP COLUMN name',
        'DROP TABLE run_provenance',
        'DROP TABLE batch_requests',
        'DROP TABLE batches',
        'DROP TABLE prompt_blobs',
        'ALTER TABLE transcripts DROP COLUMN packed',
        'ALTER TABLE trials DROP COLUMN batch_latency_ms',
        'DROP TABLE call_cache',
        'DROP TABLE cache_models',
        'DROP TABLE cache_origins',
        'CREATE TABLE call_cache (key TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL, response TEXT NOT NULL, created_at TEXT NOT NULL)',
      ])
        await b.sql(location, stmt);
      await b.setVersion(location, 1);
      const again = (await openStore(location)) as SqlStore;
      expect(await again.schemaVersion()).toBe(migrations.length);
      expect((await again.getRun('old'))?.config).toEqual({ a: 1 });
      await again.pinRubric('old', 'r', 'aa');
      await expect(again.pinRubric('old', 'r', 'bb')).rejects.toThrow(/refusing to mix rubrics/);
      // A run planned before specs were stored gets its spec when it is opened again.
      await again.createRun({ id: 'old', createdAt: 'later', config: { a: 1 }, spec: { suites: ['x'] } });
      // Provenance: one record per change, whatever the time it was recorded.
      await again.recordProvenance('old', { recordedAt: '1', mindscope: '0.1.0' });
      await again.recordProvenance('old', { recordedAt: '2', mindscope: '0.1.0' });
      await again.recordProvenance('old', { recordedAt: '3', mindscope: '0.2.0' });
      expect(await again.provenance('old')).toEqual([
        { recordedAt: '1', mindscope: '0.1.0' },
        { recordedAt: '3', mindscope: '0.2.0' },
      ]);
      expect(await again.getRun('old')).toEqual({ id: 'old', createdAt: 'then', config: { a: 1 }, spec: { suites: ['x'] } });
      // A name given later (run --name) is stored beside the spec, and replaced by the next one given.
      await again.createRun({ id: 'old', createdAt: 'later', config: { a: 1 }, name: 'first' });
      await again.createRun({ id: 'old', createdAt: 'later', config: { a: 1 }, spec: { suites: ['y'] }, name: 'second' });
      expect(await again.getRun('old')).toEqual({
        id: 'old',
        createdAt: 'then',
        config: { a: 1 },
        spec: { suites: ['x'] },
        name: 'second',
      });
      await again.close();
    });

    it('writes a trial with its transcript and score in one transaction, or not at all', async () => {
      const location = await b.fresh('atomic');
      const s = await seeded(location);
      await expect(
        s.recordDone(key('i1'), 'h1', { ...outcome('kept'), score: { scorer: 'mcq', value: Number.NaN, detail: {} } }, 1),
      ).rejects.toThrow(/score NaN is not a finite number/);
      // One good trial and one the database refuses (its item is unknown) in one batch.
      const good = s.recordDone(key('i1'), 'h1', outcome('kept'), 1);
      const bad = s.recordDone(key('i2'), 'no-such-item', outcome('lost'), 1);
      await expect(s.flush()).rejects.toThrow(
        /could not store 1 write\(s\): trial x\/i2#0: .*(FOREIGN KEY constraint failed|foreign key constraint|NOT NULL constraint failed: trial_rows.item_ref|null value in column "item_ref")/,
      );
      await expect(good).resolves.toBeUndefined();
      await expect(bad).rejects.toThrow(/trial x\/i2#0/);
      expect(await s.trialStatus(key('i1'))).toBe('done');
      expect((await s.transcript(key('i1')))?.transcript).toEqual({ protocol: 'test', calls: [], detail: { note: 'kept' } });
      expect(await s.trialStatus(key('i2'))).toBeUndefined();
      await s.close();
      expect(await count(b, location, 'trials')).toBe(1);
      expect(await count(b, location, 'transcripts')).toBe(1);
      expect(await count(b, location, 'scores')).toBe(1);
    });

    it('sees queued cache entries and statuses before they are committed', async () => {
      const s = await seeded(await b.fresh('queue'));
      const committed = s.putCached('k', 'p', 'm', { text: 'hi' });
      expect(await s.getCached('k')).toEqual({ text: 'hi' });
      const done = s.recordDone(key('i1'), 'h1', outcome('q'), 1);
      expect(await s.trialStatus(key('i1'))).toBe('done');
      await Promise.all([committed, done]);
      expect(await s.getCached('k')).toEqual({ text: 'hi' });
      expect(await s.trialStatus(key('i1'))).toBe('done');
      await s.close();
    });

    it('records a trial once: a later write of a done trial is a no-op, and a failure never replaces it', async () => {
      const location = await b.fresh('once');
      const s = await seeded(location);
      await s.recordDone(key('i1'), 'h1', outcome('first', 1), 1);
      await s.recordDone(key('i1'), 'h1', outcome('second', 0), 1);
      await s.recordFailed(key('i1'), 'h1', 'HTTP 429 after 5 attempts', 5);
      expect(await s.trialStatus(key('i1'))).toBe('done');
      expect((await s.transcript(key('i1')))?.transcript.detail).toEqual({ note: 'first' });
      expect((await collect(s.responses('r'))).map((r) => r.value)).toEqual([1]);
      // A failed trial: failures add up their attempts; a success then replaces it.
      await s.recordFailed(key('i2'), 'h2', 'timeout', 2);
      await s.recordFailed(key('i2'), 'h2', 'timeout again', 3);
      expect(await s.failures('r')).toEqual([{ ...key('i2'), error: 'timeout again', attempts: 5 }]);
      await s.recordDone(key('i2'), 'h2', outcome('third'), 1);
      expect((await s.transcript(key('i2')))?.transcript.detail).toEqual({ note: 'third' });
      expect(await s.failures('r')).toEqual([]);
      // The same in one group commit, in the order a racing process would write.
      await Promise.all([s.recordDone(key('i3'), 'h3', outcome('a'), 1), s.recordFailed(key('i3'), 'h3', 'late failure', 1)]);
      expect(await s.trialStatus(key('i3'))).toBe('done');
      await s.close();
      expect(await count(b, location, 'transcripts')).toBe(3);
      expect(await count(b, location, 'scores')).toBe(3);
    });

    it('records a trial once when two connections race on it', async () => {
      const location = await b.fresh('race');
      const one = await seeded(location);
      const two = await openStore(location);
      await Promise.all([
        ...['i1', 'i2', 'i3', 'i4'].map((i) => one.recordDone(key(i), `h${i.slice(1)}`, outcome(`one-${i}`), 1)),
        ...['i1', 'i2', 'i3', 'i4'].map((i) => two.recordDone(key(i), `h${i.slice(1)}`, outcome(`two-${i}`), 1)),
      ]);
      const notes = await Promise.all(['i1', 'i2', 'i3', 'i4'].map(async (i) => (await one.transcript(key(i)))?.transcript.detail));
      for (const [n, note] of notes.entries()) expect([{ note: `one-i${n + 1}` }, { note: `two-i${n + 1}` }]).toContainEqual(note);
      await Promise.all([one.close(), two.close()]);
      expect(await count(b, location, 'trials')).toBe(4);
      expect(await count(b, location, 'transcripts')).toBe(4);
    });

    it('leases trials: held by a live owner, taken over once expired, done trials reported done', async () => {
      const location = await b.fresh('lease');
      const s = await seeded(location);
      const other = await openStore(location);
      const keys = ['i1', 'i2', 'i3'].map((i) => key(i));
      await s.recordDone(key('i3'), 'h3', outcome('done'), 1);
      expect(await s.claimTrials(keys, 'A', 60_000)).toEqual(['claimed', 'claimed', 'done']);
      // Claiming again as A keeps the leases; B finds them held.
      expect(await s.claimTrials(keys, 'A', 60_000)).toEqual(['claimed', 'claimed', 'done']);
      expect(await other.claimTrials(keys, 'B', 60_000)).toEqual(['held', 'held', 'done']);
      expect(await s.renewLeases('A', 60_000)).toBe(2);
      expect(await s.leaseOwners('r')).toEqual(['A']);
      // A result gives its lease back; releasing gives back the rest.
      await s.recordDone(key('i1'), 'h1', outcome('x'), 1);
      expect(await other.claimTrials(keys, 'B', 60_000)).toEqual(['done', 'held', 'done']);
      await s.releaseLeases('A', [key('i1'), key('i3')]);
      expect(await other.claimTrials([key('i2')], 'B', 60_000)).toEqual(['held']);
      await s.releaseLeases('A', [key('i2')]);
      expect(await s.leaseOwners('r')).toEqual([]);
      expect(await other.claimTrials([key('i2')], 'B', 200)).toEqual(['claimed']);
      // B dies: its 200 ms lease lapses and A takes the trial over.
      expect(await s.claimTrials([key('i2')], 'A', 60_000)).toEqual(['held']);
      await new Promise((r) => setTimeout(r, 400));
      expect(await s.claimTrials([key('i2')], 'A', 60_000)).toEqual(['claimed']);
      await Promise.all([s.close(), other.close()]);
    });

    it('shares rate-limit episodes: a burst of 429s is one episode, a later one the next', async () => {
      const s = await openStore(await b.fresh('limits'));
      expect(await s.rateLimits()).toEqual([]);
      const first = await s.reportRateLimit('http://api', 300);
      expect(first).toMatchObject({ endpoint: 'http://api', generation: 1 });
      expect(first.pausedForMs).toBeGreaterThan(200);
      // Reported again while paused (another process, the same burst): the same episode, a longer pause.
      expect(await s.reportRateLimit('http://api', 600)).toMatchObject({ generation: 1 });
      const [state] = await s.rateLimits();
      expect(state!.pausedForMs).toBeGreaterThan(400);
      await new Promise((r) => setTimeout(r, 700));
      expect((await s.rateLimits())[0]).toMatchObject({ generation: 1, pausedForMs: 0 });
      expect(await s.reportRateLimit('http://api', 100)).toMatchObject({ generation: 2 });
      await s.close();
    });

    it('copies a run to the other backend and back, resolving duplicates by trial key', async () => {
      const location = await b.fresh('copy-src');
      const s = await seeded(location);
      await s.recordDone(key('i1'), 'h1', { ...outcome('one', 1), costUsd: 0.25 }, 1);
      await s.recordDone(key('i2'), 'h2', { ...outcome('two', 0), truncatedCalls: 1, unpricedCalls: 1 }, 1);
      await s.recordFailed(key('i3'), 'h3', 'boom', 2);
      await s.recordScore(key('i1'), { scorer: 'judge:x', value: 0.5, detail: { why: 'because' } });
      await s.putCached('k', 'p', 'm', { text: 'hi' });
      await s.setPlan('r', [{ subjectId: 's1', suite: 'x', planned: 4 }]);
      await s.pinRubric('r', 'rub', 'abc');
      await s.close();
      const others = [sqlite, postgres].filter((o) => !o.skip);
      for (const other of others) {
        const target = await other.fresh('copy-dst');
        expect(await copyStore(location, target)).toEqual({
          runs: 1,
          items: 4,
          trials: 3,
          duplicateTrials: 0,
          cacheEntries: 1,
          batches: 0,
          batchRequests: 0,
        });
        // Copying again adds nothing: every trial is a duplicate.
        expect(await copyStore(location, target)).toMatchObject({ runs: 0, trials: 0, duplicateTrials: 3 });
        const t = await openStore(target);
        expect(await t.status('r')).toEqual([
          { subjectId: 's1', spec: 'agent:oracle', suite: 'x', planned: 4, done: 2, failed: 1, pending: 1, truncated: 1 },
        ]);
        // A call of unknown price makes the subject's cost unknown, not $0.25.
        expect(await t.usage('r')).toMatchObject([{ subjectId: 's1', trials: 2, costUsd: null, unpricedCalls: 1 }]);
        expect((await t.transcript(key('i1')))?.transcript.detail).toEqual({ note: 'one' });
        expect((await t.transcript(key('i1')))?.score.scorer).toBe('mcq');
        expect(await t.scoreOf(key('i1'), 'judge:x')).toEqual({ scorer: 'judge:x', value: 0.5, detail: { why: 'because' } });
        expect(await t.getCached('k')).toEqual({ text: 'hi' });
        expect(await t.failures('r')).toEqual([{ ...key('i3'), error: 'boom', attempts: 2 }]);
        await expect(t.pinRubric('r', 'rub', 'other')).rejects.toThrow(/refusing to mix rubrics/);
        // The same run id with another specification is refused.
        await t.close();
        const clash = await other.fresh('clash');
        const c = await openStore(clash);
        await c.createRun({ id: 'r', createdAt: 'now', config: { a: 2 } });
        await c.close();
        await expect(copyStore(location, clash)).rejects.toThrow(/run r exists in both stores with different specifications/);
      }
    });
  });
}

describe('response matrix', () => {
  for (const b of [sqlite, postgres]) {
    it.skipIf(b.skip)(`round-trips through CSV and Parquet, wide and long (${b.name})`, async () => {
      const store = await openStore(await b.fresh('matrix'));
      const r = await evaluate({
        store,
        suites: ['generated-tom'],
        limit: 20,
        seed: 1,
        models: ['agent:oracle', 'agent:reality', 'agent:first-option'],
      });
      const m = buildMatrix(await collect(store.responses(r.runId)));
      expect(m.subjects).toEqual(['agent:first-option', 'agent:oracle', 'agent:reality']);
      expect(m.items).toHaveLength(20);
      expect(m.items[0]).toMatchObject({ suite: 'generated-tom', itemId: 's1-0000' });
      expect(m.cells.every((row) => row[1] === 1)).toBe(true);
      const out = mkdtempSync(join(dir, 'matrix-'));
      writeMatrixCsv(join(out, 'm.csv'), m);
      writeMatrixParquet(join(out, 'm.parquet'), m);
      expect(readMatrixCsv(join(out, 'm.csv'))).toEqual(m);
      expect(await readMatrixParquet(join(out, 'm.parquet'))).toEqual(m);
      const long = ['subject,suite,item_id,category,original_label,correct'];
      m.items.forEach((it, i) =>
        m.subjects.forEach((s, j) => long.push(`${s},${it.suite},${it.itemId},${it.category},${it.originalLabel},${m.cells[i]![j]}`)),
      );
      expect(matrixFromCsv(long.join('\n'))).toEqual(m);
      await store.close();
    });
  }

  it('keeps missing cells blank and reads them back as missing', () => {
    const m = matrixFromCsv('suite,item_id,category,original_label,a,b\nx,1,belief,l,1,\nx,2,desire,l,0,1\n');
    expect(m.cells).toEqual([
      [1, null],
      [0, 1],
    ]);
  });

  it('reads quoted fields, CRLF and blank lines row by row, and names the line after a quoted newline', () => {
    const m = matrixFromCsv('suite,item_id,category,original_label,a,b\r\nx,"1,\n2",belief,"l ""q""",1,0\r\n\r\nx,3,desire,l,0,1');
    expect(m).toEqual({
      subjects: ['a', 'b'],
      items: [
        { suite: 'x', itemId: '1,\n2', category: 'belief', originalLabel: 'l "q"' },
        { suite: 'x', itemId: '3', category: 'desire', originalLabel: 'l' },
      ],
      cells: [
        [1, 0],
        [0, 1],
      ],
    });
    expect(() => matrixFromCsv('suite,item_id,category,original_label,a\nx,"1\n2",belief,l,1\nx,3,belief,l,2', 'm.csv')).toThrow(
      /m\.csv:4: column "a": "2" is not a score/,
    );
  });

  it('reports the first problem in file order (the header before any row) and names the header line', () => {
    const meta = 'suite,item_id,category,original_label,a';
    expect(() => matrixFromCsv(`${meta}\nx,1,belief,l,7\nx,2,nonsense,l,1`, 'f.csv')).toThrow(/f\.csv:2: column "a": "7"/);
    expect(() => matrixFromCsv(`${meta}\nx,1,nonsense,l,1\nx,2,belief,l,1,0`, 'f.csv')).toThrow(/f\.csv:2: unknown category "nonsense"/);
    expect(() => matrixFromCsv('\n\nsuite,category,a\nx,belief,1\nx,belief', 'f.csv')).toThrow(/f\.csv:3: no item_id column/);
    expect(() => matrixFromCsv('\nsuite,item_id,category,original_label\nx,1,belief,l', 'f.csv')).toThrow(
      /f\.csv:2: no subject columns after the item metadata/,
    );
    expect(() => matrixFromCsv('', 'f.csv')).toThrow(/f\.csv: empty file/);
    // An unclosed quote swallowed the rest of the file into one field ("row has 4 fields").
    expect(() => matrixFromCsv(`${meta}\nx,1,belief,l,1\nx,"2,belief,l,1\nx,3,belief,l,0`, 'q.csv')).toThrow(
      /q\.csv:3: a quoted field opened here is never closed/,
    );
    expect(matrixFromCsv(`${meta}\n`)).toEqual({ subjects: ['a'], items: [], cells: [] });
  });

  it('refuses what would be read wrong silently: an item twice, a subject column twice or unnamed, an empty item id', () => {
    const meta = 'suite,item_id,category,original_label,a,b';
    // Counted twice before (items: 3).
    expect(() => matrixFromCsv(`${meta}\nx,1,belief,l,1,0\nx,2,belief,l,1,0\nx,1,belief,l,0,0`, 'f.csv')).toThrow(
      /f\.csv:4: item 1 of suite x has a second row \(the first is line 2\)/,
    );
    // The same id in another suite is another item.
    expect(matrixFromCsv(`${meta}\nx,1,belief,l,1,0\ny,1,belief,l,1,0`).items).toHaveLength(2);
    // Before: both columns kept under one name, the second's data read as the first's subject.
    expect(() => matrixFromCsv('suite,item_id,category,original_label,a,a\nx,1,belief,l,1,0', 'f.csv')).toThrow(
      /f\.csv:1: subject column "a" appears twice in the header/,
    );
    expect(() => matrixFromCsv('suite,item_id,category,original_label,a,\nx,1,belief,l,1,0', 'f.csv')).toThrow(
      /f\.csv:1: column 6 of the header has no name/,
    );
    expect(() => matrixFromCsv(`${meta}\nx,1,belief,l,1,0\nx, ,belief,l,1,0`, 'f.csv')).toThrow(/f\.csv:3: column "item_id" is empty/);
    expect(() => matrixFromCsv('subject,item_id,correct\na,1,1\n,2,1', 'l.csv')).toThrow(/l\.csv:3: column "subject" is empty/);
  });

  it('reads the long layout: subjects in order of first appearance, a late subject blank before, a second row an error', () => {
    const long = 'subject,suite,item_id,category,original_label,correct';
    const m = matrixFromCsv(`${long}\na,x,1,belief,l,1\na,x,2,desire,l,0\nb,x,2,desire,l,1`);
    expect(m).toEqual({
      subjects: ['a', 'b'],
      items: [
        { suite: 'x', itemId: '1', category: 'belief', originalLabel: 'l' },
        { suite: 'x', itemId: '2', category: 'desire', originalLabel: 'l' },
      ],
      cells: [
        [1, null],
        [0, 1],
      ],
    });
    expect(() => matrixFromCsv(`${long}\na,x,1,belief,l,1\na,x,1,belief,l,0`, 'l.csv')).toThrow(
      /l\.csv:3: subject "a" has a second row for item 1/,
    );
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

describe('discarding a store a failed command created', () => {
  const base = mkdtempSync(join(tmpdir(), 'mindscope-discard-'));
  const files = (p: string) => ['', '-wal', '-shm'].filter((s) => existsSync(`${p}${s}`)).length;

  it('removes an empty store no one else has open, and keeps one another process holds or one with a run', async () => {
    const empty = join(base, 'empty.db');
    await (await openStore(empty)).close();
    expect(files(empty)).toBeGreaterThan(0);
    expect(discardUnusedSqliteStore(empty)).toBe(true);
    expect(files(empty)).toBe(0);

    // A second command opened the new file (and may be loading its items): kept, and its run lands.
    const shared = join(base, 'shared.db');
    await (await openStore(shared)).close();
    const other = await openStore(shared);
    expect(discardUnusedSqliteStore(shared)).toBe(false);
    await other.createRun({ id: 'r', createdAt: new Date().toISOString(), config: {} });
    await other.close();
    const reopened = await openStore(shared);
    expect((await reopened.listRuns()).map((r) => r.id)).toEqual(['r']);
    await reopened.close();
    // With a run in it (no one else connected): kept.
    expect(discardUnusedSqliteStore(shared)).toBe(false);
    expect(existsSync(shared)).toBe(true);
    // Not a store at all, or no file: nothing removed.
    writeFileSync(join(base, 'notes.txt'), 'hello');
    expect(discardUnusedSqliteStore(join(base, 'notes.txt'))).toBe(false);
    expect(existsSync(join(base, 'notes.txt'))).toBe(true);
    expect(discardUnusedSqliteStore(join(base, 'absent.db'))).toBe(false);
  });
});
