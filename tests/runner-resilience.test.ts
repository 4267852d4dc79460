// The runner against a real local server that misbehaves the way real providers do: long runs
// of 429s (retried within the wait budget, not a retry count), a Retry-After of an hour, a
// server that hangs (the circuit breaker stops the subject), replies far over the size cap, and
// failed trials' attempt counts. Each case failed before the change it covers, except the
// stalled-body guard (the SDKs' time limits already covered it; it keeps the byte-counting fetch honest).

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../src/core/index.js';
import { createModel, evaluate, openStore, type RunEvent, type RunOperations, type Store } from '../src/index.js';
import { AnthropicChatModel, GoogleChatModel, type ModelCallError } from '../src/models/index.js';
import { CallerFactory } from '../src/runner/index.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

let server: ModelServer;
const dir = mkdtempSync(join(tmpdir(), 'mindscope-resilience-'));
const FAST_RETRY = { maxRetries: 3, baseDelayMs: 20, maxDelayMs: 200 };

beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.stop());

const spec = (model: string) => `openai-compatible:${server.url}/v1#${model}`;
type Log = Array<{ model: string; at: number; outcome: string }>;
const log = async (model: string): Promise<Log> => ((await server.stats()) as unknown as { log: Log }).log.filter((l) => l.model === model);

async function attemptsOf(store: Store): Promise<number[]> {
  const out: number[] = [];
  for await (const r of store.exportRecords()) if (r.kind === 'trial') out.push(r.trial.attempts);
  return out;
}

async function run(model: string, limit: number, ops: Partial<RunOperations> = {}) {
  const store = await openStore(join(dir, `${model}-${Math.random().toString(36).slice(2)}.db`));
  const events: RunEvent[] = [];
  const r = await evaluate(
    { suites: ['generated-tom'], models: [spec(model)], limit, seed: 3 },
    { store, retry: FAST_RETRY, concurrency: 2, onEvent: (e) => events.push(e), ...ops },
  );
  return { r, store, events };
}

describe('rate limits', () => {
  it('retries a long run of 429s within the wait budget, with or without Retry-After, and records the attempts', async () => {
    // Six 429s in a row: more than maxRetries (3), well within the budget.
    for (const model of ['rl-6-30', 'rl-6-none']) {
      const { r, store } = await run(model, 2);
      expect(r).toMatchObject({ done: 2, failed: 0, aborted: [] });
      expect(await attemptsOf(store)).toEqual([7, 7]);
      await store.close();
    }
  });

  it('stops the subject (resumable) when 429s outlast --max-wait', async () => {
    const t0 = Date.now();
    const { r, store } = await run('rl-1000-100', 2, { maxWaitMs: 800 });
    expect(r.done + r.failed).toBe(0);
    expect(r.aborted).toHaveLength(1);
    expect(r.aborted[0]!.error).toMatch(/still rate limited after 0\.\ds of waiting \(--max-wait 0\.8s\); stopped this subject/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect((await store.status(r.runId))[0]).toMatchObject({ done: 0, failed: 0, pending: 2 });
    await store.close();
  });

  it('does not sit out a Retry-After of an hour: it says so and stops the subject', async () => {
    const t0 = Date.now();
    const { r, store, events } = await run('rl-1-3600000', 2);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.aborted[0]!.error).toMatch(/asks to wait 3600s \(Retry-After\), more than --max-wait 600s/);
    expect(events.some((e) => e.type === 'subject-aborted')).toBe(true);
    await store.close();
  });

  it('applies the pause before the rate-limited call gives up its slot: a queued call waits it out', async () => {
    const store = await openStore(':memory:');
    const factory = new CallerFactory({ store, concurrency: 1, retry: FAST_RETRY, useCache: false });
    const model = createModel(spec('rl-1-700'));
    const ask = (text: string) => factory.caller(model, 's', DEFAULT_SETTINGS).chat([{ role: 'user', content: text }]);
    await Promise.all([ask('first question'), ask('second question')]);
    const l = await log('rl-1-700');
    expect(l.map((x) => x.outcome)).toEqual(['rl:700', 'rl:700', 'answer', 'answer']);
    // Every request after a 429 waits for its pause (700 ms); before, the queued call started at once.
    for (let i = 1; i < l.length; i++) if (l[i - 1]!.outcome !== 'answer') expect(l[i]!.at - l[i - 1]!.at).toBeGreaterThanOrEqual(650);
    await factory.settle();
    await store.close();
  });
});

describe('hung servers', () => {
  it('stops the subject after N timeouts in a row instead of paying maxRetries x timeout per trial', async () => {
    const t0 = Date.now();
    const { r, store, events } = await run('hang-1000', 10, { timeoutMs: 200, maxConsecutiveTimeouts: 3 });
    expect(r.done + r.failed).toBe(0);
    expect(r.aborted[0]!.error).toMatch(/3 calls in a row to .* got no answer within 0\.2s; the server seems hung/);
    expect(r.aborted[0]!.error).toMatch(/Run the same command again/);
    // Three waves of two calls in flight: not 10 trials x 4 attempts.
    expect((await log('hang-1000')).length).toBeLessThanOrEqual(6);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(events.filter((e) => e.type === 'subject-aborted')).toHaveLength(1);
    expect((await store.status(r.runId))[0]).toMatchObject({ pending: 10, failed: 0 });
    await store.close();
  });
});

describe('busy servers', () => {
  it('counts calls that time out together in one stall as one timeout: a busy server is not taken as down', async () => {
    // Eight calls in flight all time out once, then answer: one stall, not eight timeouts in a row.
    const { r, store } = await run('hang-1', 8, { timeoutMs: 300, maxConsecutiveTimeouts: 2, concurrency: 8 });
    expect(r).toMatchObject({ done: 8, failed: 0, aborted: [] });
    await store.close();
  });
});

describe('stalled replies', () => {
  it('times out a body that starts and never ends (the time limit covers the whole reply, not only its headers)', async () => {
    const store = await openStore(':memory:');
    const factory = new CallerFactory({ store, concurrency: 2, timeoutMs: 300, retry: { ...FAST_RETRY, maxRetries: 0 }, useCache: false });
    const models = [createModel(spec('stall-1')), new AnthropicChatModel({ model: 'stall-1', baseUrl: server.url, apiKey: 'k' })];
    for (const model of models) {
      const t0 = Date.now();
      const err = await factory
        .caller(model, 's', DEFAULT_SETTINGS)
        .chat([{ role: 'user', content: 'stall please' }])
        .then(
          () => undefined,
          (e: ModelCallError) => e,
        );
      expect(err, model.spec).toMatchObject({ kind: 'timeout' });
      expect(Date.now() - t0).toBeLessThan(8000);
    }
    await factory.settle();
    await store.close();
  });
});

describe('reply size cap', () => {
  async function oversized(make: () => ReturnType<typeof createModel>, model: string): Promise<ModelCallError> {
    const store = await openStore(':memory:');
    const factory = new CallerFactory({ store, concurrency: 1, retry: FAST_RETRY, maxReplyBytes: 1024 * 1024 });
    const err = await factory
      .caller(make(), 's', DEFAULT_SETTINGS)
      .chat([{ role: 'user', content: `big please ${model}` }])
      .then(
        () => undefined,
        (e: ModelCallError) => e,
      );
    await store.close();
    expect(err, model).toBeDefined();
    return err!;
  }

  it('fails a reply over --max-reply-bytes as its own kind, once, through each provider', async () => {
    const before = (await server.stats()).byModel['huge-3000'] ?? 0;
    const o = await oversized(() => createModel(spec('huge-3000')), 'openai');
    expect(o).toMatchObject({ kind: 'oversized', attempts: 1 });
    expect(o.message).toMatch(/reply too large: .* over the 1048576-byte cap \(--max-reply-bytes\)/);
    const a = await oversized(() => new AnthropicChatModel({ model: 'huge-3000', baseUrl: server.url, apiKey: 'k' }), 'anthropic');
    expect(a).toMatchObject({ kind: 'oversized', attempts: 1 });
    const g = await oversized(() => new GoogleChatModel({ model: 'huge-3000', baseUrl: server.url, apiKey: 'k' }), 'google');
    expect(g).toMatchObject({ kind: 'oversized', attempts: 1 });
    // Not retried: one request each.
    expect((await server.stats()).byModel['huge-3000']! - before).toBe(3);
  });

  it('records an oversized reply as a failed trial with the reason, and stores no transcript of it', async () => {
    const { r, store } = await run('huge-2048', 2, { maxReplyBytes: 1024 * 1024 });
    expect(r).toMatchObject({ done: 0, failed: 2 });
    const failures = await store.failures(r.runId);
    expect(failures.every((f) => /reply too large/.test(f.error) && f.attempts === 1)).toBe(true);
    await store.close();
  });

  it('lets replies under the cap through unchanged', async () => {
    const { r, store } = await run('huge-100', 2, { maxReplyBytes: 1024 * 1024 });
    expect(r).toMatchObject({ done: 2, failed: 0 });
    await store.close();
  });
});

describe('failed trials', () => {
  it('record the attempts the failing call made, not 1', async () => {
    const { r, store } = await run('flaky-500-4', 2);
    expect(r.failed).toBe(2);
    expect((await store.failures(r.runId)).map((f) => f.attempts)).toEqual([4, 4]);
    await store.close();
  });
});
