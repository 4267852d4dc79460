// `mindscope run --batch`: the calls go through OpenAI's Batch API, Anthropic's Message Batches
// and Gemini batch mode (a real local server speaking each wire format, tests/servers/batch-api.mjs),
// with the same request bodies as the synchronous path, the same scores, and half the cost;
// cache hits are not submitted; calls a batch returns as errors are made again the normal way;
// a multi-turn protocol goes in rounds, one turn per round.

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { collect, trialBrowser } from '../src/store/index.js';
import { runCli } from './helpers/run-cli.js';
import { providerEnv, startModelServer, type ModelServer } from './helpers/servers.js';

const ROOT = join(__dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-batch-'));
const MODELS = ['openai:gpt-4.1-mini', 'anthropic:claude-sonnet-4-5', 'google:gemini-2.5-flash'];

interface BatchStats {
  created: Record<'openai' | 'anthropic' | 'google', number>;
  submitted: number;
  duplicates: number;
  batchSizes: number[];
}

let server: ModelServer;
const batchStats = async (): Promise<BatchStats> => (await fetch(`${server.url}/batch-stats`)).json();

const cli = (args: string[]) => runCli(args, { cwd: dir, env: providerEnv(server.url) });

interface RunJson {
  done: number;
  failed: number;
  standardPrice: Array<{ spec: string; calls: number; reason: string }>;
  usage: Array<{
    spec: string;
    costUsd: number | null;
    cachedCalls: number;
    totalCalls: number;
    inputTokens: number;
    outputTokens: number;
  }>;
}
const json = (r: { stdout: string; stderr: string }): RunJson => {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`not JSON: ${r.stdout}\n${r.stderr}`);
  }
};

async function responses(db: string, runId: string) {
  const store = await openStore(db);
  try {
    return (await collect(store.responses(runId))).map((r) => [r.spec, r.itemId, r.value]);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run "npm run build" before the CLI tests (npm test does)');
  server = await startModelServer({ BATCH_DELAY_MS: '200' });
});
afterAll(() => server.stop());

describe('run --batch', () => {
  it('completes through all three batch APIs with the scores of a normal run at half its cost', async () => {
    const base = ['run', 'generated-tom', '--model', ...MODELS, '--limit', '6', '--json'];
    const before = await batchStats();
    const direct0 = (await server.stats()).requests;
    const batched = await cli([...base, '--db', join(dir, 'batch.db'), '--run-id', 'b', '--batch', '--batch-poll', '0.1']);
    expect(batched.code, batched.stderr).toBe(0);
    const after = await batchStats();
    // One batch per provider, every call in it once, nothing called directly.
    expect(after.created.openai - before.created.openai).toBe(1);
    expect(after.created.anthropic - before.created.anthropic).toBe(1);
    expect(after.created.google - before.created.google).toBe(1);
    expect(after.submitted - before.submitted).toBe(18);
    expect(after.duplicates - before.duplicates).toBe(0);
    expect((await server.stats()).requests).toBe(direct0);

    const normal = await cli([...base, '--db', join(dir, 'normal.db'), '--run-id', 'b']);
    expect(normal.code, normal.stderr).toBe(0);
    const b = json(batched);
    const n = json(normal);
    expect(b.done).toBe(18);
    expect(b.standardPrice).toEqual([]);
    expect(await responses(join(dir, 'batch.db'), 'b')).toEqual(await responses(join(dir, 'normal.db'), 'b'));
    for (const spec of MODELS) {
      const bu = b.usage.find((u) => u.spec === spec)!;
      const nu = n.usage.find((u) => u.spec === spec)!;
      // Batch replies are the run's own calls (not cache hits), with the same tokens, at half the price.
      expect(bu.cachedCalls).toBe(0);
      expect(bu.totalCalls).toBe(6);
      expect([bu.inputTokens, bu.outputTokens]).toEqual([nu.inputTokens, nu.outputTokens]);
      expect(nu.costUsd).toBeGreaterThan(0);
      expect(bu.costUsd!).toBeCloseTo(nu.costUsd! / 2, 12);
    }
  });

  it('submits exactly the bodies the synchronous path sends (so the cache keys are the same)', async () => {
    const own = await startModelServer({ BATCH_DELAY_MS: '50' });
    const prev = server;
    server = own;
    try {
      const args = ['run', 'generated-tom', '--model', ...MODELS, '--limit', '2', '--json', '--run-id', 'x'];
      expect((await cli([...args, '--db', join(dir, 'bodies-batch.db'), '--batch', '--batch-poll', '0.05'])).code).toBe(0);
      const viaBatch = (await own.stats()).bodies.map((b) => JSON.stringify([b.url, b.body]));
      expect((await cli([...args, '--db', join(dir, 'bodies-normal.db')])).code).toBe(0);
      const direct = (await own.stats()).bodies.map((b) => JSON.stringify([b.url, b.body])).slice(viaBatch.length);
      expect(viaBatch).toHaveLength(6);
      expect([...direct].sort()).toEqual([...viaBatch].sort());
      // A normal run on the batch run's store finds every call in the cache.
      const again = json(await cli([...args, '--db', join(dir, 'bodies-batch.db'), '--run-id', 'y']));
      expect(again.usage.map((u) => u.cachedCalls)).toEqual([2, 2, 2]);
    } finally {
      server = prev;
      await own.stop();
    }
  });

  it('never submits cache hits or finished trials', async () => {
    const db = join(dir, 'cached.db');
    const model = ['--model', 'anthropic:claude-haiku-4-5', '--data', join(ROOT, 'tests', 'fixtures', 'data', 'tombench')];
    expect((await cli(['run', 'tombench', ...model, '--limit', '3', '--db', db, '--run-id', 'first', '--json'])).code).toBe(0);
    const before = await batchStats();
    const r = await cli([
      'run',
      'tombench',
      ...model,
      '--limit',
      '8',
      '--db',
      db,
      '--run-id',
      'second',
      '--batch',
      '--batch-poll',
      '0.05',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const after = await batchStats();
    expect(after.batchSizes.slice(before.batchSizes.length)).toEqual([5]);
    const usage = json(r).usage[0]!;
    expect([usage.cachedCalls, usage.totalCalls]).toEqual([3, 8]);
    // Run again: every trial is done, nothing is submitted.
    const again = await cli([
      'run',
      'tombench',
      ...model,
      '--limit',
      '8',
      '--db',
      db,
      '--run-id',
      'second',
      '--batch',
      '--batch-poll',
      '0.05',
      '--json',
    ]);
    expect(again.code).toBe(0);
    expect((await batchStats()).submitted).toBe(after.submitted);
  });

  it('makes the calls a batch returns as errors again the normal way, with retries', async () => {
    // flaky-500-1: the first attempt of each request gets HTTP 500 (inside the batch), the next succeeds.
    const db = join(dir, 'errors.db');
    const direct0 = (await server.stats()).byModel['flaky-500-1'] ?? 0;
    const r = await cli([
      'run',
      'generated-tom',
      '--model',
      'anthropic:flaky-500-1',
      '--limit',
      '4',
      '--db',
      db,
      '--run-id',
      'e',
      '--batch',
      '--batch-poll',
      '0.05',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({
      done: 4,
      failed: 0,
      standardPrice: [{ spec: 'anthropic:flaky-500-1', calls: 4, reason: 'batch errors' }],
    });
    expect((await server.stats()).byModel['flaky-500-1']! - direct0).toBe(4);
    // Without --json the summary says so, with how many calls.
    const text = await cli([
      'run',
      'generated-tom',
      '--model',
      'anthropic:flaky-500-1',
      '--limit',
      '3',
      '--seed',
      '7',
      '--db',
      db,
      '--run-id',
      'e-text',
      '--batch',
      '--batch-poll',
      '0.05',
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      '\n--batch: 3 call(s) were made one by one at the standard price, not through a batch: anthropic:flaky-500-1 3 (its batch returned them as errors, or was refused)\n',
    );
    const store = await openStore(db);
    try {
      const rows = await store.batchRequests('e');
      expect(rows.map((x) => x.status)).toEqual(['error', 'error', 'error', 'error']);
      expect(rows[0]!.error).toMatch(/Anthropic Message Batches: .*internal error/);
    } finally {
      await store.close();
    }
  });

  it('runs a multi-turn protocol in rounds, one turn of every trial per batch', async () => {
    const args = ['run', 'generated-storyturn', '--model', 'openai:gpt-4.1-mini', '--limit', '3', '--run-id', 's', '--json'];
    const r = await cli([...args, '--db', join(dir, 'turns.db'), '--batch', '--batch-poll', '0.05']);
    expect(r.code, r.stderr).toBe(0);
    const store = await openStore(join(dir, 'turns.db'));
    const batches = await store.runBatches('s');
    await store.close();
    expect(batches.map((b) => [b.round, b.state])).toEqual(batches.map((_, i) => [i + 1, 'fetched']));
    expect(batches.length).toBeGreaterThan(1);
    expect(batches[0]!.requests).toBe(3);
    const normal = await cli([...args, '--db', join(dir, 'turns-normal.db')]);
    expect(await responses(join(dir, 'turns.db'), 's')).toEqual(await responses(join(dir, 'turns-normal.db'), 's'));
    const [b, n] = [json(r).usage[0]!, json(normal).usage[0]!];
    expect(b.totalCalls).toBe(n.totalCalls);
    expect(b.costUsd!).toBeCloseTo(n.costUsd! / 2, 12);
  });

  it("records a batch call's wait (submission to collection) as its latency, marked and kept apart from interactive latency", async () => {
    // The server answers a batch no sooner than BATCH_DELAY_MS (200) after its creation.
    const db = join(dir, 'latency.db');
    const r = await cli(
      ['run', 'generated-tom', '--model', 'anthropic:claude-sonnet-4-5', '--limit', '2', '--db', db, '--run-id', 'l', '--batch'].concat([
        '--batch-poll',
        '0.05',
        '--json',
      ]),
    );
    expect(r.code, r.stderr).toBe(0);
    const usage = (JSON.parse(r.stdout) as { usage: Array<{ latencyMsMean: number; batchLatencyMsMean: number | null }> }).usage[0]!;
    expect(usage.batchLatencyMsMean!).toBeGreaterThanOrEqual(200);
    expect(usage.latencyMsMean).toBe(0);
    const store = await openStore(db);
    try {
      const rows = await trialBrowser(store).list({ runId: 'l' });
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.latencyMs).toBe(0);
        expect(row.batchLatencyMs).toBeGreaterThanOrEqual(200);
        const t = (await store.transcript(row))!.transcript;
        const call = t.calls[0]!;
        expect(call.cached).toBe(false);
        expect(call.response!.batch).toBe(true);
        expect(call.response!.latencyMs).toBe(row.batchLatencyMs);
      }
      const key = (await store.batchRequests('l'))[0]!.key;
      expect(await store.getCached(key)).toMatchObject({ batch: true, latencyMs: expect.any(Number) });
    } finally {
      await store.close();
    }
    // A normal run has no batch wait.
    const n = await cli([
      'run',
      'generated-tom',
      '--model',
      'anthropic:claude-sonnet-4-5',
      '--limit',
      '1',
      '--db',
      join(dir, 'latency-n.db'),
      '--json',
    ]);
    expect((JSON.parse(n.stdout) as { usage: Array<{ batchLatencyMsMean: number | null }> }).usage[0]!.batchLatencyMsMean).toBeNull();
  });

  it('refuses --no-cache and --max-cost with a clear message', async () => {
    const r = await cli([
      'run',
      'generated-tom',
      '--model',
      MODELS[0]!,
      '--limit',
      '1',
      '--db',
      join(dir, 'refuse.db'),
      '--batch',
      '--no-cache',
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--batch .*cannot run with --no-cache/);
    const m = await cli([
      'run',
      'generated-tom',
      '--model',
      MODELS[0]!,
      '--limit',
      '1',
      '--db',
      join(dir, 'refuse.db'),
      '--batch',
      '--max-cost',
      '1',
    ]);
    expect(m.stderr).toMatch(/--batch cannot run with --max-cost/);
  });
});
