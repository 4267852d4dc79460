// The batch ledger in `db copy` and `merge`: every batch and every call it carries travel with
// the runs they belong to, so that a copied (or merged) run resumes polling its batches instead
// of submitting their calls again. Conflicts resolve as for trials, by state: a row already in
// the target is replaced only by a further one (a batch: submitting < submitted < fetched or
// failed; a call: pending < error < done), so finished state is never lost nor downgraded, and
// a provider id once known is kept.

import type { BatchRecord, BatchRequestRow } from '../batch-ledger.js';
import type { ImportSummary, StoreRecord } from '../store.js';
import type { SqlDriver, SqlExecutor } from './driver.js';

const PAGE = 500;

const batchRank = (col: string) => `CASE ${col} WHEN 'submitting' THEN 0 WHEN 'submitted' THEN 1 ELSE 2 END`;
const requestRank = (col: string) => `CASE ${col} WHEN 'pending' THEN 0 WHEN 'error' THEN 1 ELSE 2 END`;

/** Every batch, then every call of every batch, paged. */
export async function* exportBatchLedger(db: SqlDriver): AsyncIterable<StoreRecord> {
  for (let after = ''; ; ) {
    const page = await db.all<{
      id: string;
      run_id: string;
      spec: string;
      round: number;
      remote_id: string | null;
      state: BatchRecord['state'];
      requests: number;
      error: string | null;
      created_at: string;
      updated_at: number;
    }>(
      'SELECT id, run_id, spec, round, remote_id, state, requests, error, created_at, updated_at FROM batches WHERE id > ? ORDER BY id LIMIT ?',
      [after, PAGE],
    );
    for (const b of page) {
      const batch: BatchRecord = {
        id: b.id,
        runId: b.run_id,
        spec: b.spec,
        round: Number(b.round),
        remoteId: b.remote_id,
        state: b.state,
        requests: Number(b.requests),
        error: b.error,
        createdAt: b.created_at,
      };
      yield { kind: 'batch', batch, updatedAtMs: Number(b.updated_at) };
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.id;
  }
  for (let afterRun = '', afterKey = ''; ; ) {
    const page = await db.all<{
      run_id: string;
      key: string;
      batch_id: string;
      status: BatchRequestRow['status'];
      cost_usd: number | null;
      error: string | null;
    }>(
      `SELECT run_id, key, batch_id, status, cost_usd, error FROM batch_requests
       WHERE run_id > ? OR (run_id = ? AND key > ?) ORDER BY run_id, key LIMIT ?`,
      [afterRun, afterRun, afterKey, PAGE],
    );
    for (const r of page) {
      const row: BatchRequestRow = {
        key: r.key,
        batchId: r.batch_id,
        status: r.status,
        costUsd: r.cost_usd === null ? null : Number(r.cost_usd),
        error: r.error,
      };
      yield { kind: 'batchRequest', runId: r.run_id, row };
    }
    if (page.length < PAGE) break;
    ({ run_id: afterRun, key: afterKey } = page[page.length - 1]!);
  }
}

/** Write one ledger row; counts the rows added or advanced. */
export async function importLedgerRecord(
  tx: SqlExecutor,
  r: Extract<StoreRecord, { kind: 'batch' | 'batchRequest' }>,
  summary: ImportSummary,
): Promise<void> {
  if (r.kind === 'batch') {
    const b = r.batch;
    summary.batches += await tx.run(
      `INSERT INTO batches (id, run_id, spec, round, remote_id, state, requests, error, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET remote_id = COALESCE(batches.remote_id, excluded.remote_id), state = excluded.state,
         error = COALESCE(excluded.error, batches.error), updated_at = excluded.updated_at
       WHERE ${batchRank('excluded.state')} > ${batchRank('batches.state')}`,
      [b.id, b.runId, b.spec, b.round, b.remoteId, b.state, b.requests, b.error, b.createdAt, r.updatedAtMs],
    );
    return;
  }
  const q = r.row;
  summary.batchRequests += await tx.run(
    `INSERT INTO batch_requests (run_id, key, batch_id, status, cost_usd, error) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (run_id, key) DO UPDATE SET batch_id = excluded.batch_id, status = excluded.status,
       cost_usd = excluded.cost_usd, error = excluded.error
     WHERE ${requestRank('excluded.status')} > ${requestRank('batch_requests.status')}`,
    [r.runId, q.key, q.batchId, q.status, q.costUsd, q.error],
  );
}
