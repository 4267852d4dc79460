// The runner end to end against a real local server: retries with Retry-After, timeouts,
// malformed bodies, the call cache across runs, failed trials retried by a rerun, fatal errors
// stopping a subject, and keys kept out of the store.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collect } from '../src/store/index.js';
import { evaluate as evaluateSpec, openStore, type RunEvent } from '../src/index.js';
import { AdaptiveLimiter } from '../src/runner/index.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

let server: ModelServer;
const dir = mkdtempSync(join(tmpdir(), 'mindscope-runner-'));
const FAST_RETRY = { maxRetries: 3, baseDelayMs: 20, maxDelayMs: 200 };

beforeAll(async () => {
  server = await startModelServer({ MODEL_SERVER_KEY: 'sk-live-TOPSECRET-42' });
});
afterAll(() => server.stop());

const spec = (model: string) => `openai-compatible:${server.url}/v1#${model}`;
const base = { suites: ['generated-tom'], limit: 12, seed: 3, apiKeyEnv: 'MS_TEST_KEY', retry: FAST_RETRY, concurrency: 4 };
process.env.MS_TEST_KEY = 'sk-live-TOPSECRET-42';

describe('runner', () => {
  it('retries 429 honouring Retry-After, 500s and malformed bodies, then finishes every trial', async () => {
    const store = await openStore(join(dir, 'retry.db'));
    const events: RunEvent[] = [];
    const r = await evaluate({
      ...base,
      store,
      models: [spec('flaky-429-1'), spec('flaky-500-2'), spec('malformed-1')],
      onEvent: (e) => events.push(e),
    });
    expect(r.done).toBe(36);
    expect(r.failed).toBe(0);
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries.length).toBe(12 + 24 + 12);
    // Retry-After: 1 is honoured, not the 20 ms backoff.
    expect(
      retries.filter((e) => e.type === 'retry' && e.spec.endsWith('flaky-429-1')).every((e) => e.type === 'retry' && e.delayMs === 1000),
    ).toBe(true);
    const status = await store.status(r.runId);
    expect(status.every((s) => s.done === 12 && s.pending === 0)).toBe(true);
    await store.close();
  });

  it('times out hung calls and retries them; retries connection resets', async () => {
    const store = await openStore(join(dir, 'hang.db'));
    const r = await evaluate({ ...base, limit: 4, store, models: [spec('hang-1'), spec('reset-2')], timeoutSeconds: 0.3 });
    expect(r).toMatchObject({ done: 8, failed: 0, aborted: [] });
    await store.close();
  });

  it('marks a trial failed only after the retries are spent, and a rerun retries it', async () => {
    const store = await openStore(join(dir, 'fail.db'));
    // 4 attempts (1 + 3 retries) fail; the rerun's first attempt is the 5th and succeeds.
    const first = await evaluate({ ...base, limit: 3, store, models: [spec('flaky-500-4')], runId: 'fail-run' });
    expect(first.failed).toBe(3);
    expect((await store.failures('fail-run'))[0]!.error).toMatch(/HTTP 500 .* \(after 4 attempts\)/);
    expect((await store.status('fail-run'))[0]).toMatchObject({ done: 0, failed: 3, pending: 0 });
    const second = await evaluate({ ...base, limit: 3, store, models: [spec('flaky-500-4')], runId: 'fail-run' });
    expect(second).toMatchObject({ done: 3, failed: 0, skipped: 0 });
    expect((await store.status('fail-run'))[0]).toMatchObject({ done: 3, failed: 0, pending: 0 });
    await store.close();
  });

  it('never pays twice for an identical call, across runs', async () => {
    const store = await openStore(join(dir, 'cache.db'));
    const before = (await server.stats()).byModel['last-option'] ?? 0;
    const a = await evaluate({ ...base, store, models: [spec('last-option')], runId: 'cache-a' });
    const mid = (await server.stats()).byModel['last-option']!;
    expect(mid - before).toBe(12);
    const b = await evaluate({ ...base, store, models: [spec('last-option')], runId: 'cache-b' });
    expect((await server.stats()).byModel['last-option']).toBe(mid);
    expect(b.usage[0]!.cachedCalls).toBe(12);
    expect(b.usage[0]!.inputTokens).toBe(0);
    expect(a.usage[0]!.inputTokens).toBe(12 * 40);
    // Same answers from the cache.
    const scores = async (id: string) => (await collect(store.responses(id))).map((r) => r.value);
    expect(await scores('cache-b')).toEqual(await scores('cache-a'));
    // Re-running the same run id does nothing at all.
    const again = await evaluate({ ...base, store, models: [spec('last-option')], runId: 'cache-a' });
    expect(again).toMatchObject({ done: 0, skipped: 12 });
    await store.close();
  });

  it('stops a subject whose key is rejected, keeps the others, and never stores the key', async () => {
    const path = join(dir, 'auth.db');
    const store = await openStore(path);
    process.env.MS_WRONG_KEY = 'sk-wrong-WRONGSECRET-77';
    const good = await evaluate({ ...base, store, models: [spec('ok'), 'agent:oracle'], runId: 'auth-run' });
    expect(good.done).toBe(24);
    await expect(
      // Another seed: the first run's calls are in the cache, and a cached call needs no key.
      evaluate({ ...base, seed: 99, store, models: [spec('ok')], apiKeyEnv: 'MS_WRONG_KEY', runId: 'auth-run-2' }),
    ).resolves.toMatchObject({ aborted: [{ error: expect.stringMatching(/HTTP 401/) }], done: 0 });
    await store.close();
    const bytes = readFileSync(path).toString('latin1') + readFileSync(`${path}-wal`, { flag: 'a+' }).toString('latin1');
    expect(bytes).not.toContain('TOPSECRET');
    expect(bytes).not.toContain('WRONGSECRET');
  });

  it('stops a subject whose server cannot be reached', async () => {
    const store = await openStore(join(dir, 'unreachable.db'));
    const r = await evaluate({
      ...base,
      store,
      models: ['openai-compatible:http://127.0.0.1:9/v1#m', 'agent:oracle'],
      apiKeyEnv: undefined,
    });
    expect(r.aborted).toHaveLength(1);
    expect(r.aborted[0]!.error).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9\/v1/);
    expect(r.done).toBe(12); // the oracle's trials
    await store.close();
  });

  it('a fired signal starts no trial and says interrupted; with every trial done already, it does not', async () => {
    const store = await openStore(join(dir, 'signal.db'));
    const stop = new AbortController();
    stop.abort();
    const spec = { suites: ['generated-tom'], limit: 6, seed: 3, models: ['agent:oracle'] };
    const first = await evaluateSpec(spec, { store, runId: 'sig', signal: stop.signal });
    expect(first).toMatchObject({ done: 0, interrupted: true });
    const full = await evaluateSpec(spec, { store, runId: 'sig' });
    expect(full.done).toBe(6);
    expect(full.interrupted).toBeUndefined();
    // Complete: a signal now leaves nothing unstarted, so the run is not called interrupted.
    const again = await evaluateSpec(spec, { store, runId: 'sig', signal: stop.signal });
    expect(again.done).toBe(0);
    expect(again.interrupted).toBeUndefined();
    await store.close();
  });

  it('rejects a resumed run whose configuration differs', async () => {
    const store = await openStore(join(dir, 'config.db'));
    await evaluate({ ...base, store, models: ['agent:oracle'], runId: 'cfg' });
    await expect(evaluate({ ...base, seed: 4, store, models: ['agent:oracle'], runId: 'cfg' })).rejects.toThrow(
      /run cfg exists with a different configuration \(seed\)/,
    );
    await store.close();
  });

  it('gives each replicate its own seed and stores the settings with every call', async () => {
    const store = await openStore(join(dir, 'reps.db'));
    const r = await evaluate({ ...base, limit: 2, trials: 3, store, models: [spec('ok')], runId: 'reps' });
    expect(r.done).toBe(6);
    const seeds = new Set<number>();
    for (const rep of [0, 1, 2]) {
      const t = (await store.transcript({
        runId: 'reps',
        subjectId: r.usage[0]!.subjectId,
        suite: 'generated-tom',
        itemId: 's3-0000',
        replicate: rep,
      }))!;
      const call = (t.transcript as { calls: Array<{ settings: { seed: number; temperature: number } }> }).calls[0]!;
      expect(call.settings.temperature).toBe(0);
      seeds.add(call.settings.seed);
    }
    expect(seeds.size).toBe(3);
    await store.close();
  });
});

describe('adaptive limiter', () => {
  it('halves on 429, pauses for Retry-After, and recovers one step per streak of successes', async () => {
    // On a fake clock: the slot is given when the 200 ms pause ends, not before.
    vi.useFakeTimers();
    try {
      const l = new AdaptiveLimiter(8);
      l.onRateLimit(200, 10);
      expect(l.limit).toBe(4);
      let started = false;
      const acquired = l.acquire().then(() => {
        started = true;
      });
      await vi.advanceTimersByTimeAsync(199);
      expect(started).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await acquired;
      expect(started).toBe(true);
      l.release();
      for (let i = 0; i < 4; i++) l.onSuccess();
      expect(l.limit).toBe(5);
      for (let i = 0; i < 5; i++) l.onSuccess();
      expect(l.limit).toBe(6);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never runs more than the limit at once', async () => {
    const l = new AdaptiveLimiter(3);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        await l.acquire();
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 5));
        active--;
        l.release();
      }),
    );
    expect(peak).toBe(3);
  });
});
