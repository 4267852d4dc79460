// Anthropic through the official SDK against a local server that answers as /v1/messages does:
// extended thinking (budget rules, no temperature, thinking blocks), structured output as a
// forced tool call, prompt caching with cache_control, and its errors.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../src/store/index.js';
import { createModel, evaluate, openStore, type ModelCallError, type Store } from '../src/index.js';
import { AnthropicChatModel } from '../src/models/index.js';
import { CallerFactory } from '../src/runner/index.js';
import { parseRubric, scoreWithPanel } from '../src/judges/index.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

let server: ModelServer;
const dir = mkdtempSync(join(tmpdir(), 'mindscope-anthropic-'));
const KEY = 'sk-ant-test-SECRET-5678';
const MCQ = [{ role: 'user' as const, content: 'Story.\n\nQuestion: where?\nA. box\nB. bag\n\nReply "Answer: X".' }];
const saved = { ...process.env };

beforeAll(async () => {
  server = await startModelServer({ MODEL_SERVER_KEY: KEY });
  process.env.ANTHROPIC_BASE_URL = server.url;
  process.env.ANTHROPIC_API_KEY = KEY;
});
afterAll(async () => {
  process.env = saved;
  await server.stop();
});

const lastBody = async () => (await server.stats()).bodies.at(-1)!;
async function firstCalls(store: Store, runId: string) {
  const row = (await collect(store.responses(runId)))[0]!;
  return (await store.transcript({ runId, subjectId: row.subjectId, suite: row.suite, itemId: row.itemId, replicate: row.replicate }))!
    .transcript.calls;
}

describe('extended thinking', () => {
  it('sends --thinking-budget as thinking.budget_tokens with room to answer and no temperature, and keeps the thinking', async () => {
    const store = await openStore(join(dir, 'thinking.db'));
    const warnings: string[] = [];
    const r = await evaluate(
      { suites: ['generated-tom'], limit: 3, models: ['anthropic:claude-sonnet-4-5'], settings: { thinkingBudget: 2048, temperature: 0 } },
      { store, onWarning: (w) => warnings.push(w) },
    );
    expect(r).toMatchObject({ done: 3, failed: 0, truncated: 0 });
    expect(warnings).toEqual([expect.stringMatching(/claude-sonnet-4-5 takes no temperature while thinking/)]);
    const { body, headersSeen } = await lastBody();
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.max_tokens).toBe(2048 + 1024);
    expect(body).not.toHaveProperty('temperature');
    expect(headersSeen).toEqual(expect.arrayContaining(['authorization', 'anthropic-version']));
    const call = (await firstCalls(store, r.runId))[0]!;
    expect(call.settings).toMatchObject({ thinkingBudget: 2048, maxTokens: 3072, temperature: 1 });
    expect(call.response).toMatchObject({ text: 'Answer: A', reasoning: { text: 'I weigh who saw the move (600 tokens).' } });
    expect(call.response?.usage.outputTokens).toBe(604);
    await store.close();
  });

  it('refuses budgets Anthropic refuses, naming the flags', async () => {
    const store = await openStore(join(dir, 'bad-budget.db'));
    const run = (settings: object) =>
      evaluate({ suites: ['generated-tom'], limit: 1, models: ['anthropic:claude-opus-4-1'], settings }, { store });
    await expect(run({ thinkingBudget: 500 })).rejects.toThrow(/--thinking-budget must be at least 1024 tokens, got 500/);
    await expect(run({ thinkingBudget: 2048, maxTokens: 1500 })).rejects.toThrow(
      /--max-tokens \(1500\) must exceed --thinking-budget \(2048\)/,
    );
    await store.close();
  });

  it('marks a reply cut off at max_tokens', async () => {
    const m = new AnthropicChatModel({ model: 'claude-3-5-haiku-latest', baseUrl: server.url, apiKey: KEY });
    const r = await m.chat({ messages: MCQ, settings: { temperature: 0, maxTokens: 2 }, timeoutMs: 5000 });
    expect(r).toMatchObject({ truncated: true, finishReason: 'max_tokens' });
  });
});

describe('structured judge output', () => {
  const rubric = parseRubric(
    'name: open answer\nprompt: "Response: {response}\\nExpected: {expected}"\nfields:\n  - { name: score, min: 0, max: 5, integer: true }\n',
    'r.yaml',
  );

  it('forces a tool whose input_schema is the rubric, and reads its input as the reply', async () => {
    const store = await openStore(join(dir, 'judge.db'));
    const caller = new CallerFactory({ store }).caller(createModel('anthropic:judge-exact'), 'judge:x', { temperature: 0, maxTokens: 64 });
    expect(caller.structuredOutput).toBe(true);
    const panel = await scoreWithPanel([caller], rubric, { subject: 's-1', response: 'in the box', vars: { expected: 'box' } });
    expect(panel.judges[0]).toMatchObject({ raw: ['{"score":5}'], values: { score: 5 } });
    const { body } = await lastBody();
    expect(body.tools).toEqual([
      {
        name: 'open_answer',
        description: 'Record the answer in this exact structure.',
        input_schema: { type: 'object', required: ['score'], properties: { score: { type: 'integer', minimum: 0, maximum: 5 } } },
      },
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'open_answer' });
    await store.close();
  });

  it('asks rather than forces the tool while thinking (Anthropic refuses a forced tool then)', async () => {
    const m = createModel('anthropic:claude-sonnet-4-5');
    const r = await m.chat({
      messages: MCQ,
      settings: {
        temperature: 1,
        maxTokens: 3072,
        thinkingBudget: 2048,
        responseSchema: { name: 'score', schema: { type: 'object', properties: {} } },
      },
      timeoutMs: 5000,
    });
    expect((await lastBody()).body.tool_choice).toEqual({ type: 'auto' });
    expect(r.reasoning?.text).toMatch(/weigh/);
  });
});

describe('prompt caching', () => {
  const system = { role: 'system' as const, content: `You are a careful reader. ${'Track who saw each move. '.repeat(200)}` };

  it('marks a long system prompt for caching, and prices the write and the reads', async () => {
    const store = await openStore(join(dir, 'cache.db'));
    const caller = new CallerFactory({ store, useCache: false }).caller(createModel('anthropic:claude-sonnet-4-5'), 's-c', {
      temperature: 0,
      maxTokens: 64,
    });
    await caller.chat([system, ...MCQ]);
    expect((await lastBody()).body.system).toEqual([{ type: 'text', text: system.content, cache_control: { type: 'ephemeral' } }]);
    await caller.chat([system, { role: 'user', content: 'Another story.\nA. x\nB. y' }]);
    const [first, second] = caller.calls.map((c) => c.response!.usage);
    const prefix = Math.ceil(system.content.length / 4);
    expect(first!.cacheWriteInputTokens).toBe(prefix);
    expect(first!.cachedInputTokens).toBeUndefined();
    expect(second!.cachedInputTokens).toBe(prefix);
    // input_tokens (what was neither read nor written) + cache reads + writes = every prompt token.
    expect(first!.inputTokens).toBeGreaterThan(prefix);
    // claude-sonnet-4-5: $3 input, $3.75 cache write, $0.30 cache read, $15 output per million tokens.
    const cost = (u: typeof first) =>
      ((u!.inputTokens - (u!.cachedInputTokens ?? 0) - (u!.cacheWriteInputTokens ?? 0)) * 3 +
        (u!.cacheWriteInputTokens ?? 0) * 3.75 +
        (u!.cachedInputTokens ?? 0) * 0.3 +
        u!.outputTokens * 15) /
      1e6;
    expect(caller.calls[0]!.costUsd).toBeCloseTo(cost(first), 15);
    expect(caller.calls[1]!.costUsd).toBeCloseTo(cost(second), 15);
    expect(caller.calls[1]!.costUsd!).toBeLessThan(caller.calls[0]!.costUsd!);
    await store.close();
  });

  it('marks the end of a long conversation, so that its next turn reads the earlier turns from the cache', async () => {
    const m = createModel('anthropic:claude-haiku-4-5');
    const long = `Episode log. ${'Agent 1 moved the cup to the shelf. '.repeat(140)}`;
    const turn1 = [{ role: 'user' as const, content: long }];
    const settings = { temperature: 0, maxTokens: 64 };
    await m.chat({ messages: turn1, settings, timeoutMs: 5000 });
    expect(JSON.stringify((await lastBody()).body)).not.toContain('cache_control');
    const turn2 = [...turn1, { role: 'assistant' as const, content: 'Wait' }, { role: 'user' as const, content: 'Your action?' }];
    const r2 = await m.chat({ messages: turn2, settings, timeoutMs: 5000 });
    const sent = (await lastBody()).body.messages;
    expect(sent.at(-1).content).toEqual([{ type: 'text', text: 'Your action?', cache_control: { type: 'ephemeral' } }]);
    expect(r2.usage.cacheWriteInputTokens).toBeGreaterThan(1024);
    const turn3 = [...turn2, { role: 'assistant' as const, content: 'Wait' }, { role: 'user' as const, content: 'Your action?' }];
    const r3 = await m.chat({ messages: turn3, settings, timeoutMs: 5000 });
    expect(r3.usage.cachedInputTokens).toBe(r2.usage.cacheWriteInputTokens);
  });
});

describe('errors through the SDK', () => {
  it('maps 429 (Retry-After), 500, a rejected key, a timeout and a dead server onto the runner kinds, never showing the key', async () => {
    const err = (model: string, apiKey = KEY, baseUrl = server.url, timeoutMs = 5000) =>
      new AnthropicChatModel({ model, baseUrl, apiKey })
        .chat({ messages: MCQ, settings: { temperature: 0, maxTokens: 16 }, timeoutMs })
        .then(
          () => undefined,
          (e: unknown) => e as ModelCallError,
        );
    expect(await err('flaky-429-1')).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 1000 });
    expect(await err('flaky-500-1')).toMatchObject({ kind: 'server', status: 500 });
    const wrong = 'sk-ant-wrong-999999';
    const auth = await err('ok', wrong);
    expect(auth).toMatchObject({ kind: 'auth', status: 401 });
    expect(auth!.message).not.toContain(wrong);
    expect(await err('hang-1', KEY, server.url, 300)).toMatchObject({ kind: 'timeout' });
    expect(await err('ok', KEY, 'http://127.0.0.1:9')).toMatchObject({ kind: 'network' });
    expect(await err('bad-shape-1')).toMatchObject({ kind: 'malformed' });
  });
});
