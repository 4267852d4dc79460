// Honest cost: prices by exact model name from @pydantic/genai-prices (the user's table wins),
// cached, cache-write, long-context and batch prices, unknown prices shown as unknown (never $0)
// with a warning naming the model, and --max-cost stopping a run before it would pass the limit
// and continuing it when raised (the CLI as a user runs it, against a local server).

import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import type { TokenUsage } from '../src/core/index.js';
import { callCost, PriceBook, type PricedModel } from '../src/runner/index.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(__dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-cost-'));
const hosted = (provider: string, model: string): PricedModel => ({ spec: `${provider}:${model}`, provider, model, local: false });

const cli = (args: string[]) => runCli(args, { cwd: dir });

let server: ModelServer;
beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run "npm run build" before the CLI tests (npm test does)');
  server = await startModelServer();
});
afterAll(() => server.stop());

describe('prices by exact model name', () => {
  const book = new PriceBook();

  it("never charges one model at another's price: gpt-4.1-nano is not gpt-4.1", () => {
    expect(book.lookup(hosted('openai', 'gpt-4.1')).price).toMatchObject({ inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 });
    expect(book.lookup(hosted('openai', 'gpt-4.1-nano')).price).toMatchObject({ inputPerMTok: 0.1, outputPerMTok: 0.4 });
    expect(book.lookup(hosted('openai', 'gpt-4.1-mini')).price).toMatchObject({ inputPerMTok: 0.4, outputPerMTok: 1.6 });
  });

  it('prices dated snapshots as their model, and nothing the list knows only by a pattern', () => {
    expect(book.lookup(hosted('openai', 'gpt-4.1-2025-04-14')).price?.inputPerMTok).toBe(2);
    expect(book.lookup(hosted('anthropic', 'claude-sonnet-4-5-20250929')).price).toMatchObject({
      inputPerMTok: 3,
      outputPerMTok: 15,
      cachedInputPerMTok: 0.3,
      cacheWritePerMTok: 3.75,
    });
    const pattern = book.lookup(hosted('anthropic', 'claude-sonnet-4-5-my-finetune'));
    expect(pattern).toEqual({
      source: 'unknown',
      note: 'the price list knows "claude-sonnet-4-5-my-finetune" only by a pattern (as claude-sonnet-4-5)',
    });
    expect(book.lookup(hosted('openai', 'gpt-4.1-nano-ft-mine')).price).toBeUndefined();
    expect(book.lookup(hosted('openai-compatible', 'gpt-4.1')).source).toBe('unknown');
  });

  it("lets the user's table win, by exact key only; local models are free", () => {
    const mine = new PriceBook({
      'openai:gpt-4.1': { inputPerMTok: 1, outputPerMTok: 1 },
      'my-model': { inputPerMTok: 5, outputPerMTok: 6 },
    });
    expect(mine.lookup(hosted('openai', 'gpt-4.1'))).toEqual({ price: { inputPerMTok: 1, outputPerMTok: 1 }, source: 'table' });
    expect(mine.lookup(hosted('openai', 'gpt-4.1-nano')).source).toBe('genai-prices');
    expect(
      mine.lookup({ spec: 'openai-compatible:http://h/v1#my-model', provider: 'openai-compatible', model: 'my-model', local: false }).price
        ?.outputPerMTok,
    ).toBe(6);
    expect(mine.lookup({ spec: 'agent:oracle', provider: 'agent', model: 'oracle', local: true }).source).toBe('local');
  });
});

describe('call cost', () => {
  const genai = createRequire(import.meta.url)('@pydantic/genai-prices') as {
    calcPrice(u: Record<string, number>, m: string, o: { providerId: string }): { total_price: number } | null;
  };
  const book = new PriceBook();
  // genai-prices computes its own total from the same list: an independent check of cached, cache-write and long-context pricing.
  const cases: Array<[string, string, TokenUsage]> = [
    ['openai', 'gpt-5-mini', { inputTokens: 12_000, outputTokens: 3_400, cachedInputTokens: 8_192 }],
    [
      'anthropic',
      'claude-sonnet-4-5',
      { inputTokens: 150_000, outputTokens: 2_000, cachedInputTokens: 100_000, cacheWriteInputTokens: 20_000 },
    ],
    [
      'anthropic',
      'claude-sonnet-4-5',
      { inputTokens: 300_000, outputTokens: 1_000, cachedInputTokens: 100_000, cacheWriteInputTokens: 1_000 },
    ],
    ['google', 'gemini-3-pro-preview', { inputTokens: 250_000, outputTokens: 8_000, cachedInputTokens: 50_000 }],
    ['google', 'gemini-2.5-flash', { inputTokens: 1_000, outputTokens: 700 }],
  ];
  it.each(cases)("%s:%s matches the price list's own total", (provider, model, usage) => {
    const expected = genai.calcPrice(
      {
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        cache_read_tokens: usage.cachedInputTokens ?? 0,
        cache_write_tokens: usage.cacheWriteInputTokens ?? 0,
      },
      model,
      { providerId: provider },
    )!.total_price;
    expect(callCost(book.lookup(hosted(provider, model)).price, usage)).toBeCloseTo(expected, 12);
  });

  it('prices batch calls at half, and an unknown price as null (not $0)', () => {
    const price = book.lookup(hosted('openai', 'gpt-4o-mini')).price;
    const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000 };
    expect(callCost(price, usage)).toBeCloseTo(0.75, 12);
    expect(callCost(price, usage, 'batch')).toBeCloseTo(0.375, 12);
    expect(callCost(undefined, usage)).toBeNull();
  });
});

describe('unknown prices and --max-cost (CLI)', () => {
  const spec = () => `openai-compatible:${server.url}/v1#ok`;

  it('warns naming every model without a price, and shows its cost as unknown', async () => {
    const db = join(dir, 'unknown.db');
    const r = await cli(['run', 'generated-tom', '--model', spec(), 'agent:oracle', '--limit', '3', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`warning: no price is known for ${spec()}: their cost is shown as unknown; give prices with --prices FILE`);
    expect(r.stdout).toMatch(new RegExp(`${spec().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+3\\s+120\\s+9\\s+0/3\\s+unknown`));
    expect(r.stdout).toMatch(/agent:oracle\s+3\s+0\s+0\s+0\/3\s+\$0\.0000/);
    expect(r.stdout).toContain(`cost unknown for ${spec()}`);
    const json = JSON.parse(
      (await cli(['run', 'generated-tom', '--model', spec(), '--limit', '3', '--db', db, '--json', '--no-cache'])).stdout,
    );
    expect(json.unpriced).toEqual([{ spec: spec() }]);
    expect(json.usage[0]).toMatchObject({ costUsd: null, unpricedCalls: 3 });
  });

  it('stops before the next trial would pass --max-cost, and continues when the limit is raised', async () => {
    const db = join(dir, 'budget.db');
    const prices = join(dir, 'prices.json');
    // 40 input + 3 output tokens a trial at $1,000 per million: $0.043 a trial.
    writeFileSync(prices, JSON.stringify({ [spec()]: { inputPerMTok: 1000, outputPerMTok: 1000 } }));
    const args = ['run', 'generated-tom', '--model', spec(), '--limit', '10', '--db', db, '--prices', prices, '--run-id', 'budget'];
    const first = await cli([...args, '--max-cost', '0.2']);
    expect(first.code).toBe(2);
    expect(first.stdout).toMatch(/run budget: 4 done, 0 failed, 0 already done/);
    expect(first.stdout).toContain(
      'stopped at the cost limit: $0.1720 spent of $0.2000; run the same command with a higher --max-cost to continue.',
    );
    expect(first.stderr).toMatch(
      /stopping at the cost limit: \$0\.1720 spent or in flight, and the next trial could pass --max-cost \$0\.2000/,
    );
    const second = await cli([...args, '--max-cost', '1']);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/run budget: 6 done, 0 failed, 4 already done/);
    const store = await openStore(db);
    try {
      expect((await store.status('budget'))[0]).toMatchObject({ planned: 10, done: 10, pending: 0 });
      expect((await store.usage('budget'))[0]!.costUsd).toBeCloseTo(0.43, 12);
    } finally {
      await store.close();
    }
    const refused = await cli(['run', 'generated-tom', '--model', spec(), '--limit', '2', '--db', db, '--max-cost', '1']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`--max-cost needs a price for every model; none is known for ${spec()}: give them in a --prices file`);
  });
});
