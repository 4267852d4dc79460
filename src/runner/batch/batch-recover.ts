// Batches left `submitting`: a process claimed their calls, asked the provider to create the
// batch, and died (or lost its connection) before it stored the provider's id. The provider may
// or may not have the batch; submitting its calls again would pay for them twice. Once such a
// record is older than the stale time, the batch is looked up at the provider:
//   - by our label, where the API keeps one (OpenAI metadata, Gemini display name);
//   - by its calls, where it does not (Anthropic: batches created since our record with as many
//     requests, an ended one matched by its results' custom_ids; one still running keeps the
//     record, and its calls unsubmitted, until it ends and can be read);
// found, it is polled like any other; not found, the record is dropped (dropStaleBatches) and its
// calls are claimed again; a lookup that fails (network, 5xx) keeps the record for the next round.
// An API with no lookup at all gets a warning that the calls are resubmitted.

import type { BatchRecovery, ChatModel } from '../../models/index.js';
import { ModelCallError } from '../../models/index.js';
import type { Store } from '../../store/index.js';

/** Look up the run's stale `submitting` batches at their providers (see the file's comment); then drop those not found. */
export async function recoverLostBatches(
  store: Store,
  runId: string,
  models: Map<string, ChatModel>,
  staleMs: number,
  warn: (message: string) => void,
): Promise<void> {
  const lost = (await store.runBatches(runId)).filter((b) => b.state === 'submitting' && Date.now() - Date.parse(b.createdAt) >= staleMs);
  if (lost.length === 0) return;
  const requests = await store.batchRequests(runId);
  for (const b of lost) {
    const api = models.get(b.spec)?.batchApi?.();
    if (!api) continue;
    const what = `batch ${b.id} (${b.spec}, round ${b.round}, ${b.requests} calls) was left unconfirmed by a process that stopped before storing the provider's id`;
    if (api.find) {
      let remoteId: string | undefined;
      try {
        remoteId = await api.find(b.id);
      } catch (err) {
        if (!(err instanceof ModelCallError)) throw err;
        // No answer either way: kept (touched, so that dropStaleBatches leaves it), asked again next round.
        await store.updateBatch(b.id, {});
        warn(`${what}: looking it up at ${api.name} failed (${err.message}); asking again later`);
        continue;
      }
      if (remoteId) {
        await store.updateBatch(b.id, { remoteId, state: 'submitted' });
        warn(`${what}: found at the provider as ${remoteId} by its label; polling it`);
      }
      continue;
    }
    if (api.recover) {
      const keys = requests.filter((r) => r.batchId === b.id).map((r) => r.key);
      let found: BatchRecovery | undefined;
      try {
        found = await api.recover(new Date(b.createdAt), keys);
      } catch (err) {
        if (!(err instanceof ModelCallError)) throw err;
        warn(`${what}: looking it up at ${api.name} failed (${err.message}); asking again later`);
      }
      if (found?.state === 'found') {
        await store.updateBatch(b.id, { remoteId: found.remoteId, state: 'submitted' });
        warn(`${what}: found at the provider as ${found.remoteId} by its calls; polling it`);
      } else if (found?.state !== 'none') {
        // In doubt (a candidate still running, or the lookup failed): touched, so that
        // dropStaleBatches keeps it and its calls stay claimed; asked again next round.
        await store.updateBatch(b.id, {});
        if (found)
          warn(
            `${what}: ${api.name} has a batch of as many calls still running (${found.remoteId}); waiting for it to end to see whether it is this one`,
          );
      }
      continue;
    }
    warn(
      `${what}: ${api.name} cannot look batches up, so its calls are submitted again (a batch the provider created for them is paid but unused)`,
    );
  }
}
