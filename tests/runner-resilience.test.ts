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
    const { r, store } = await run('rl-1000-100', 2, { maxWaitMs: 800 });
    expect(r.done + r.failed).toBe(0);
    expect(r.aborted).toHaveLength(1);
    expect(r.aborted[0]!.error).toMatch(/still rate limited after 0\.\ds of waiting \(--max-wait 0\.8s\); stopped this subject/);
    // Each of the two calls waits 100 ms before each retry and gives up once 800 ms have passed:
    // at most 1 + 800 / 100 attempts each, not the 1000 429s the server has in store.
    const l = await log('rl-1000-100');
    expect(l.length).toBeLessThanOrEqual(2 * 9);
    expect(new Set(l.map((x) => x.outcome))).toEqual(new Set(['rl:100']));
    expect((await store.status(r.runId))[0]).toMatchObject({ done: 0, failed: 0, pending: 2 });
    await store.close();
  });

  it('does not sit out a Retry-After of an hour: it says so and stops the subject', async () => {
    const { r, store, events } = await run('rl-1-3600000', 2);
    // No call was retried after the hour: one request for each trial at most, each answered 429.
    const l = await log('rl-1-3600000');
    expect(l.length).toBeGreaterThanOrEqual(1);
    expect(l.length).toBeLessThanOrEqual(2);
    expect(l.every((x) => x.outcome === 'rl:3600000')).toBe(true);
    expect(r.aborted[0]!.error).toMatch(/asks to wait 3600s \(Retry-After\), more than --max-wait 600s/);
    expect(events.some((e) => e.type === 'subject-aborted')).toBe(true);
    await store.close();
  });

  it('applies the pause before the rate-limited call gives up its slot: a queued call waits it out', async () => {
    const store = await openStore(':memory:');
    const factory = new CallerFactory({ store, concurrency: 1, retry: FAST_RETRY, useCache: false });
    const model = createModel(spec('rl-1-700'));
    // What the endpoint's limiter is told and does, in order: a call starting while the limiter is
    // paused, or a slot released before the pause is in force, would show here.
    const limiter = factory.limiterFor(model);
    const steps: string[] = [];
    const { acquire, release, onRateLimit } = limiter;
    limiter.acquire = async () => {
      await acquire.call(limiter);
      steps.push(limiter.snapshot().pausedForMs > 0 ? 'start while paused' : 'start');
    };
    limiter.onRateLimit = (retryAfterMs, fallbackMs) => {
      steps.push(`pause ${retryAfterMs}`);
      onRateLimit.call(limiter, retryAfterMs, fallbackMs);
    };
    limiter.release = () => {
      steps.push('release');
      release.call(limiter);
    };
    const ask = (text: string) => factory.caller(model, 's', DEFAULT_SETTINGS).chat([{ role: 'user', content: text }]);
    await Promise.all([ask('first question'), ask('second question')]);
    const l = await log('rl-1-700');
    expect(l.map((x) => x.outcome)).toEqual(['rl:700', 'rl:700', 'answer', 'answer']);
    // Every 429 pauses the limiter before its slot is released, and the queued call starts only once
    // the pause is over; before, the queued call started in the gap.
    expect(steps).toEqual(['start', 'pause 700', 'release', 'start', 'pause 700', 'release', 'start', 'release', 'start', 'release']);
    await factory.settle();
    await store.close();
  });
});

describe('hung servers', () => {
  it('stops the subject after N timeouts in a row instead of paying maxRetries x timeout per trial', async () => {
    const { r, store, events } = await run('hang-1000', 10, { timeoutMs: 200, maxConsecutiveTimeouts: 3 });
    expect(r.done + r.failed).toBe(0);
    expect(r.aborted[0]!.error).toMatch(/3 calls in a row to .* got no answer within 0\.2s; the server seems hung/);
    expect(r.aborted[0]!.error).toMatch(/Run the same command again/);
    // Three waves of two calls in flight: not 10 trials x 4 attempts.
    expect((await log('hang-1000')).length).toBeLessThanOrEqual(6);
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
      const err = await factory
        .caller(model, 's', DEFAULT_SETTINGS)
        .chat([{ role: 'user', content: 'stall please' }])
        .then(
          () => undefined,
          (e: ModelCallError) => e,
        );
      // The per-call limit (0.3 s) stopped it, not the server nor a limit of the SDK's.
      expect(err, model.spec).toMatchObject({ kind: 'timeout', message: expect.stringMatching(/no answer within 0\.3s/) });
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
