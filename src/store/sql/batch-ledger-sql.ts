// The batch ledger (see ../batch-ledger.ts) in SQL, for both backends.

import type { BatchLedger, BatchRecord, BatchRequestRow, BatchState } from '../batch-ledger.js';
import type { SqlDriver } from './driver.js';

interface BatchRow {
  id: string;
  run_id: string;
  spec: string;
  round: number;
  remote_id: string | null;
  state: BatchState;
  requests: number;
  error: string | null;
  created_at: string;
}

/** The ledger's statements over a driver. */
export class SqlBatchLedger implements BatchLedger {
  constructor(private readonly db: SqlDriver) {}

  async openBatch(batch: { id: string; runId: string; spec: string; round: number }, keys: string[]): Promise<string[]> {
    const { nowMs } = this.db.dialect;
    return this.db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO batches (id, run_id, spec, round, remote_id, state, requests, error, created_at, updated_at)
         VALUES (?, ?, ?, ?, NULL, 'submitting', 0, NULL, ?, ${nowMs})`,
        [batch.id, batch.runId, batch.spec, batch.round, new Date().toISOString()],
      );
      const claimed: string[] = [];
      // In one order in every process: two transactions claiming overlapping keys wait, never deadlock.
      for (const key of [...keys].sort()) {
        const n = await tx.run(
          `INSERT INTO batch_requests (run_id, key, batch_id, status, cost_usd, error) VALUES (?, ?, ?, 'pending', NULL, NULL)
           ON CONFLICT (run_id, key) DO NOTHING`,
          [batch.runId, key, batch.id],
        );
        if (n > 0) claimed.push(key);
      }
      if (claimed.length) await tx.run('UPDATE batches SET requests = ? WHERE id = ?', [claimed.length, batch.id]);
      else await tx.run('DELETE FROM batches WHERE id = ?', [batch.id]);
      return claimed;
    });
  }

  async updateBatch(id: string, change: { remoteId?: string; state?: BatchState; error?: string }): Promise<void> {
    await this.db.run(
      `UPDATE batches SET remote_id = COALESCE(?, remote_id), state = COALESCE(?, state), error = COALESCE(?, error),
       updated_at = ${this.db.dialect.nowMs} WHERE id = ?`,
      [change.remoteId ?? null, change.state ?? null, change.error ?? null, id],
    );
  }

  async runBatches(runId: string): Promise<BatchRecord[]> {
    const rows = await this.db.all<BatchRow>(
      'SELECT id, run_id, spec, round, remote_id, state, requests, error, created_at FROM batches WHERE run_id = ? ORDER BY created_at, id',
      [runId],
    );
    return rows.map((r) => ({
      id: r.id,
      runId: r.run_id,
      spec: r.spec,
      round: Number(r.round),
      remoteId: r.remote_id,
      state: r.state,
      requests: Number(r.requests),
      error: r.error,
      createdAt: r.created_at,
    }));
  }

  async batchRequests(runId: string): Promise<BatchRequestRow[]> {
    const rows = await this.db.all<{
      key: string;
      batch_id: string;
      status: BatchRequestRow['status'];
      cost_usd: number | null;
      error: string | null;
    }>('SELECT key, batch_id, status, cost_usd, error FROM batch_requests WHERE run_id = ?', [runId]);
    return rows.map((r) => ({
      key: r.key,
      batchId: r.batch_id,
      status: r.status,
      costUsd: r.cost_usd === null ? null : Number(r.cost_usd),
      error: r.error,
    }));
  }

  async settleBatchRequests(
    batchId: string,
    rows: Array<{ key: string; status: 'done' | 'error'; costUsd: number | null; error: string | null }>,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const r of rows) {
        await tx.run('UPDATE batch_requests SET status = ?, cost_usd = ?, error = ? WHERE batch_id = ? AND key = ?', [
          r.status,
          r.costUsd,
          r.error,
          batchId,
          r.key,
        ]);
      }
    });
  }

  async dropStaleBatches(runId: string, olderThanMs: number): Promise<number> {
    const { nowMs } = this.db.dialect;
    return this.db.transaction(async (tx) => {
      const stale = await tx.all<{ id: string }>(
        `SELECT id FROM batches WHERE run_id = ? AND state = 'submitting' AND updated_at < ${nowMs} - ?`,
        [runId, Math.round(olderThanMs)],
      );
      for (const { id } of stale) {
        await tx.run('DELETE FROM batch_requests WHERE batch_id = ?', [id]);
        await tx.run('DELETE FROM batches WHERE id = ?', [id]);
      }
      return stale.length;
    });
  }
}
