// Polling a submitted batch and taking its results: each reply is decoded exactly as the
// synchronous call's would be and written to the call cache under its key, then the ledger
// records it done (with its cost at batch prices) or errored (the trial then takes the normal
// path). Results are taken again if the process dies between the two: the cache write is
// idempotent. A reply's latency is its batch's wait (submission to collection), marked `batch`.

import { scrubSecrets } from '../../core/index.js';
import type { ChatModel } from '../../models/index.js';
import type { BatchRecord, Store } from '../../store/index.js';
import { callCost, type Price } from '../prices.js';

export interface PolledBatch {
  state: 'running' | 'ended' | 'failed';
  total: number;
  finished: number;
  error?: string;
}

/** Ask the provider how a batch does; take its results once it has ended. */
export async function pollBatch(store: Store, batch: BatchRecord, model: ChatModel, price: Price | undefined): Promise<PolledBatch> {
  const api = model.batchApi!();
  const progress = await api.progress(batch.remoteId!);
  if (progress.state === 'running') return progress;
  const keys = (await store.batchRequests(batch.runId)).filter((r) => r.batchId === batch.id).map((r) => r.key);
  if (progress.state === 'failed') {
    const error = `${api.name}: ${progress.error ?? 'the batch failed'}`;
    await store.settleBatchRequests(
      batch.id,
      keys.map((key) => ({ key, status: 'error', costUsd: null, error })),
    );
    await store.updateBatch(batch.id, { state: 'failed', error });
    return progress;
  }
  const results = new Map((await api.results(batch.remoteId!)).map((r) => [r.customId, r]));
  // Each reply's latency: from the batch's submission (its ledger record, made just before the
  // provider is asked) to now, when its results are collected; marked as a batch wait.
  const latencyMs = Math.max(0, Date.now() - Date.parse(batch.createdAt));
  const rows: Parameters<Store['settleBatchRequests']>[1] = [];
  const writes: Promise<void>[] = [];
  for (const key of keys) {
    const r = results.get(key);
    if (!r) {
      rows.push({ key, status: 'error', costUsd: null, error: `${api.name}: no result for this call` });
      continue;
    }
    if (!r.ok) {
      rows.push({ key, status: 'error', costUsd: null, error: `${api.name}: ${r.error}` });
      continue;
    }
    try {
      const response = scrubSecrets({ ...model.wire!.decode(r.body, latencyMs), batch: true });
      writes.push(store.putCached(key, model.provider, model.spec, response, batch.runId));
      rows.push({ key, status: 'done', costUsd: callCost(price, response.usage, 'batch'), error: null });
    } catch (err) {
      rows.push({ key, status: 'error', costUsd: null, error: (err as Error).message });
    }
  }
  // The replies are durable in the cache before the ledger says so.
  await Promise.all(writes);
  await store.flush();
  await store.settleBatchRequests(batch.id, rows);
  await store.updateBatch(batch.id, { state: 'fetched' });
  return progress;
}
