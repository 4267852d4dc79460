// Anthropic's Message Batches carry no label of ours, so a batch whose id was never stored (the
// process died while the provider answered its creation) is found by its calls: among the
// batches created since our record of the submission with as many requests, an ended one whose
// results' custom_ids are exactly our calls. A candidate still running cannot be read: the
// answer is `unsure` (nothing is resubmitted meanwhile); someone else's batch is never taken.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../src/models/index.js';
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
