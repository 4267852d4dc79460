// The store's batch ledger, on SQLite and PostgreSQL: a call is claimed by one batch only (two
// processes racing on the same calls never submit one twice), provider ids and results are
// kept, and a batch stuck in `submitting` (its process died before the provider answered) is
// dropped so that its calls can be claimed again. `db copy` and `merge` carry the ledger, a row
// advancing (submitting < submitted < fetched; pending < error < done) but never going back.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyStore, mergeStores, openStore, type Store } from '../src/index.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-ledger-'));
afterAll(() => dropTestDatabases());

const backends: Array<[string, boolean, () => Promise<string>]> = [
  ['SQLite', true, async () => join(dir, `${Math.random().toString(36).slice(2)}.db`)],
  [`PostgreSQL${pgSkipNote}`, pgAvailable, createTestSchema],
];

describe.each(backends)('batch ledger on %s', (_name, available, location) => {
  it.skipIf(!available)('claims each call for one batch only, and keeps ids, states and results', async () => {
    const loc = await location();
    const a = await openStore(loc);
    const b = await openStore(loc);
    try {
      await a.createRun({ id: 'r', createdAt: 'now', config: {} });
      // Two processes on overlapping calls: each call goes to exactly one batch. (On PostgreSQL
      // at once; two SQLite connections in one thread would wait on each other's write lock.)
      const first = () => a.openBatch({ id: 'b1', runId: 'r', spec: 'openai:m', round: 1 }, ['k1', 'k2', 'k3']);
      const second = () => b.openBatch({ id: 'b2', runId: 'r', spec: 'openai:m', round: 1 }, ['k2', 'k3', 'k4']);
      const [x, y] = a.backend === 'postgres' ? await Promise.all([first(), second()]) : [await first(), await second()];
      expect([...x, ...y].sort()).toEqual(['k1', 'k2', 'k3', 'k4']);
      expect(x.filter((k) => y.includes(k))).toEqual([]);
      // A batch that claims nothing is not recorded.
      expect(await a.openBatch({ id: 'b3', runId: 'r', spec: 'openai:m', round: 1 }, ['k1', 'k4'])).toEqual([]);
      await a.updateBatch('b1', { remoteId: 'batch_abc', state: 'submitted' });
      const batches = await b.runBatches('r');
      expect(batches.map((r) => r.id).sort()).toEqual(['b1', 'b2']);
      expect(batches.find((r) => r.id === 'b1')).toMatchObject({ remoteId: 'batch_abc', state: 'submitted', requests: x.length, round: 1 });
      await a.settleBatchRequests('b1', [
        { key: x[0]!, status: 'done', costUsd: 0.25, error: null },
        ...x.slice(1).map((key) => ({ key, status: 'error' as const, costUsd: null, error: 'HTTP 500' })),
      ]);
      const rows = await b.batchRequests('r');
      expect(rows.find((r) => r.key === x[0])).toEqual({ key: x[0], batchId: 'b1', status: 'done', costUsd: 0.25, error: null });
      expect(rows.filter((r) => r.status === 'pending').map((r) => r.batchId)).toEqual(y.map(() => 'b2'));
      // b2 never got its provider id (its process died): dropped after the stale time, its calls free again.
      expect(await a.dropStaleBatches('r', 60_000)).toBe(0);
      await new Promise((r) => setTimeout(r, 20));
      expect(await a.dropStaleBatches('r', 5)).toBe(1);
      expect((await a.runBatches('r')).map((r) => r.id)).toEqual(['b1']);
      expect(await a.openBatch({ id: 'b4', runId: 'r', spec: 'openai:m', round: 2 }, y)).toEqual(y);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

/** The same run's ledger at two moments: `early` (b1 being submitted, b2 in flight) and `late` (b1 in flight, b2 fetched, b3 being submitted). */
async function ledgerAt(loc: string, late: boolean): Promise<void> {
  const s = await openStore(loc);
  try {
    await s.createRun({ id: 'r', createdAt: 'now', config: { a: 1 } });
    await s.openBatch({ id: 'b1', runId: 'r', spec: 'anthropic:m', round: 1 }, ['k1', 'k2']);
    await s.openBatch({ id: 'b2', runId: 'r', spec: 'openai:m', round: 1 }, ['k3', 'k4']);
    await s.updateBatch('b2', { remoteId: 'batch_2', state: 'submitted' });
    if (!late) return;
    await s.updateBatch('b1', { remoteId: 'msgbatch_1', state: 'submitted' });
    await s.settleBatchRequests('b2', [
      { key: 'k3', status: 'done', costUsd: 0.25, error: null },
      { key: 'k4', status: 'error', costUsd: null, error: 'HTTP 500' },
    ]);
    await s.updateBatch('b2', { state: 'fetched' });
    await s.openBatch({ id: 'b3', runId: 'r', spec: 'openai:m', round: 2 }, ['k5']);
  } finally {
    await s.close();
  }
}

async function ledgerOf(loc: string) {
  const s: Store = await openStore(loc);
  try {
    const batches = (await s.runBatches('r')).map((b) => [b.id, b.state, b.remoteId, b.requests, b.round]);
    const requests = (await s.batchRequests('r')).sort((a, b) => a.key.localeCompare(b.key));
    return { batches: batches.sort((a, b) => String(a[0]).localeCompare(String(b[0]))), requests };
  } finally {
    await s.close();
  }
}

const LATE = {
  batches: [
    ['b1', 'submitted', 'msgbatch_1', 2, 1],
    ['b2', 'fetched', 'batch_2', 2, 1],
    ['b3', 'submitting', null, 1, 2],
  ],
  requests: [
    { key: 'k1', batchId: 'b1', status: 'pending', costUsd: null, error: null },
    { key: 'k2', batchId: 'b1', status: 'pending', costUsd: null, error: null },
    { key: 'k3', batchId: 'b2', status: 'done', costUsd: 0.25, error: null },
    { key: 'k4', batchId: 'b2', status: 'error', costUsd: null, error: 'HTTP 500' },
    { key: 'k5', batchId: 'b3', status: 'pending', costUsd: null, error: null },
  ],
};

describe.each(backends)('db copy and merge of the batch ledger from %s', (_name, available, location) => {
  const targets = backends.filter(([, ok]) => ok);
  it.skipIf(!available)('copies every batch and call, to either backend, once', async () => {
    const src = await location();
    await ledgerAt(src, true);
    for (const [, , target] of targets) {
      const dst = await target();
      expect(await copyStore(src, dst)).toMatchObject({ runs: 1, batches: 3, batchRequests: 5 });
      expect(await ledgerOf(dst)).toEqual(LATE);
      // Again: nothing is added or changed.
      expect(await copyStore(src, dst)).toMatchObject({ runs: 0, batches: 0, batchRequests: 0 });
      expect(await ledgerOf(dst)).toEqual(LATE);
      // The copied batch being submitted is still found stale (its time travels with it).
      const t = await openStore(dst);
      await new Promise((r) => setTimeout(r, 20));
      expect(await t.dropStaleBatches('r', 5)).toBe(1);
      await t.close();
    }
  });

  it.skipIf(!available)('merges snapshots of one run in either order to the furthest state, never going back', async () => {
    const [early, late] = [await location(), await location()];
    await ledgerAt(early, false);
    await ledgerAt(late, true);
    for (const [, , target] of targets) {
      const lateFirst = await target();
      await rmIfSqlite(lateFirst);
      expect(await mergeStores([late, early], lateFirst)).toMatchObject({ batches: 3, batchRequests: 5 });
      expect(await ledgerOf(lateFirst)).toEqual(LATE);
      const earlyFirst = await target();
      await rmIfSqlite(earlyFirst);
      // early: b1, b2 and k1..k4; then late advances b1, b2, k3, k4 and adds b3, k5.
      expect(await mergeStores([early, late], earlyFirst)).toMatchObject({ batches: 5, batchRequests: 7 });
      expect(await ledgerOf(earlyFirst)).toEqual(LATE);
    }
  });
});

/** merge writes a new store: a SQLite location must not exist yet. */
async function rmIfSqlite(loc: string): Promise<void> {
  if (!loc.startsWith('postgres')) await import('node:fs').then((fs) => fs.rmSync(loc, { force: true }));
}
