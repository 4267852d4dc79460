// The store's batch ledger, on SQLite and PostgreSQL: a call is claimed by one batch only (two
// processes racing on the same calls never submit one twice), provider ids and results are
// kept, and a batch stuck in `submitting` (its process died before the provider answered) is
// dropped so that its calls can be claimed again.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
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
