// Anthropic's Message Batches carry no label of ours, so a batch whose id was never stored (the
// process died while the provider answered its creation) is found by its calls: among the
// batches created since our record of the submission with as many requests, an ended one whose
// results' custom_ids are exactly our calls. A candidate still running cannot be read: the
// answer is `unsure` (nothing is resubmitted meanwhile); someone else's batch is never taken.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { AnthropicChatModel, type BatchApi, type BatchRecovery, type ChatModel, ModelCallError } from '../src/models/index.js';
import { recoverLostBatches } from '../src/runner/batch/batch-recover.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ BATCH_DELAY_MS: '0' });
});
afterAll(() => server.stop());

describe('Anthropic Message Batches: recovering a batch whose id was lost', () => {
  it("finds it by its calls, waits on a running candidate, and never takes someone else's", async () => {
    const model = new AnthropicChatModel({ model: 'claude-sonnet-4-5', baseUrl: server.url, apiKey: 'ak-test' });
    const api = model.batchApi();
    const body = model.wire.encode({
      messages: [{ role: 'user', content: 'hi' }],
      settings: { temperature: 0, maxTokens: 16 },
      timeoutMs: 5000,
    });
    const since = new Date();
    const others = async (ids: string[], delayMs: number) => {
      const r = await fetch(`${server.url}/batch-extra/anthropic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requests: ids.map((custom_id) => ({ custom_id, params: body })), delayMs }),
      });
      return ((await r.json()) as { id: string }).id;
    };
    const ours = ['k1', 'k2'];
    // Nothing yet: none.
    expect(await api.recover(since, ours)).toEqual({ state: 'none' });
    // Someone else's batch of as many calls, ended: read, and not ours.
    await others(['x1', 'x2'], 0);
    expect(await api.recover(since, ours)).toEqual({ state: 'none' });
    // One of another size is not even read; ours, once ended, is found.
    await others(['y1', 'y2', 'y3'], 0);
    const id = await api.submit(ours.map((customId) => ({ customId, body })));
    expect(await api.recover(since, ours)).toEqual({ state: 'found', remoteId: id });
    // A batch of as many calls still running might be ours: unsure, until it ends.
    const running = await others(['z1', 'z2'], 3_600_000);
    expect(await api.recover(since, ['k3', 'k4'])).toEqual({ state: 'unsure', remoteId: running });
    // Batches created well before our record of the submission are not looked at.
    expect(await api.recover(new Date(Date.now() + 3_600_000), ours)).toEqual({ state: 'none' });
  });
});

describe('a run resuming with a batch record left submitting (its provider id never stored)', () => {
  it('keeps the calls claimed while in doubt, polls the batch found, and frees the calls of one not found', async () => {
    const store = await openStore(join(mkdtempSync(join(tmpdir(), 'mindscope-recover-')), 'r.db'));
    let answer: () => Promise<BatchRecovery> = async () => ({ state: 'unsure', remoteId: 'msgbatch_x' });
    const api = { name: 'Fake Batches', recover: () => answer() } as unknown as BatchApi;
    const models = new Map([['anthropic:m', { spec: 'anthropic:m', batchApi: () => api } as unknown as ChatModel]]);
    const warnings: string[] = [];
    // As the runner does every round: look the stale records up, then drop those not found (stale after 1 s here).
    const resume = async () => {
      await recoverLostBatches(store, 'r', models, 1000, (m) => warnings.push(m));
      await store.dropStaleBatches('r', 1000);
    };
    try {
      await store.createRun({ id: 'r', createdAt: 'now', config: {} });
      await store.openBatch({ id: 'b1', runId: 'r', spec: 'anthropic:m', round: 1 }, ['k1', 'k2']);
      await new Promise((r) => setTimeout(r, 1100));
      // A candidate still running: the record stays, its calls claimed (a new batch gets none of them).
      await resume();
      expect((await store.runBatches('r')).map((b) => [b.id, b.state])).toEqual([['b1', 'submitting']]);
      expect(warnings.at(-1)).toMatch(/batch b1 .*still running \(msgbatch_x\)/);
      expect(await store.openBatch({ id: 'b2', runId: 'r', spec: 'anthropic:m', round: 1 }, ['k1', 'k2'])).toEqual([]);
      // The lookup failing is no answer either way: kept too.
      answer = async () => {
        throw new ModelCallError('HTTP 503', 'server', 503);
      };
      await new Promise((r) => setTimeout(r, 1100));
      await resume();
      expect((await store.runBatches('r')).map((b) => b.id)).toEqual(['b1']);
      expect(warnings.at(-1)).toMatch(/looking it up at Fake Batches failed \(HTTP 503\)/);
      // Found once ended: polled like any batch.
      answer = async () => ({ state: 'found', remoteId: 'msgbatch_x' });
      await resume();
      expect((await store.runBatches('r')).map((b) => [b.id, b.state, b.remoteId])).toEqual([['b1', 'submitted', 'msgbatch_x']]);
      // None: the record is dropped, its calls free to be submitted again.
      answer = async () => ({ state: 'none' });
      await store.openBatch({ id: 'b3', runId: 'r', spec: 'anthropic:m', round: 2 }, ['k3']);
      await new Promise((r) => setTimeout(r, 1100));
      await resume();
      expect((await store.runBatches('r')).map((b) => b.id)).toEqual(['b1']);
      expect(await store.openBatch({ id: 'b4', runId: 'r', spec: 'anthropic:m', round: 2 }, ['k3'])).toEqual(['k3']);
      // An API that finds batches by label (OpenAI, Gemini) and fails to answer: kept as well, not resubmitted.
      const byLabel = {
        name: 'Labelled Batches',
        find: async () => {
          throw new ModelCallError('connection reset', 'network');
        },
      } as unknown as BatchApi;
      models.set('openai:m', { spec: 'openai:m', batchApi: () => byLabel } as unknown as ChatModel);
      await store.openBatch({ id: 'b5', runId: 'r', spec: 'openai:m', round: 2 }, ['k5']);
      await new Promise((r) => setTimeout(r, 1100));
      await resume();
      expect((await store.runBatches('r')).map((b) => [b.id, b.state])).toContainEqual(['b5', 'submitting']);
      expect(warnings.at(-1)).toMatch(/batch b5 .*looking it up at Labelled Batches failed \(connection reset\)/);
    } finally {
      await store.close();
    }
  });
});
