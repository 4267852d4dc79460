// OpenAI through the official SDK against a local server that answers as OpenAI's chat
// completions API does: reasoning models that reject temperature and spend tokens reasoning
// before they answer, strict structured output, cached prompt tokens; and OpenAI-compatible
// servers reached through the SDK's baseURL.

import { mkdtempSync } from 'node:fs';
import { OpenAI } from 'openai';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../src/store/index.js';
import { createModel, evaluate, openStore, type ChatModel, type RunEvent, type Store } from '../src/index.js';
import { REASONING_MAX_TOKENS } from '../src/models/index.js';
import { leanFetch } from '../src/models/lean-fetch.js';
import { CallerFactory } from '../src/runner/index.js';
import { parseRubric, scoreWithPanel, type JudgeCaller } from '../src/judges/index.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

let server: ModelServer;
const dir = mkdtempSync(join(tmpdir(), 'mindscope-openai-'));
const MCQ = [{ role: 'user' as const, content: 'Story.\n\nQuestion: where?\nA. box\nB. bag\n\nReply "Answer: X".' }];
const saved = { ...process.env };

beforeAll(async () => {
  server = await startModelServer();
  process.env.OPENAI_BASE_URL = `${server.url}/v1`;
  process.env.OPENAI_API_KEY = 'sk-test-openai-0000';
});
afterAll(async () => {
  process.env = saved;
  await server.stop();
});

const lastBody = async () => (await server.stats()).bodies.at(-1)!;

// Counts the runs of the SDK's own (private) header builder, wrapped before any client is made:
// mindscope's client calls it once per kind of call.
let headerBuilds = 0;
const sdkProto = OpenAI.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
const sdkBuildHeaders = sdkProto.buildHeaders!;
sdkProto.buildHeaders = function (this: unknown, ...args: unknown[]) {
  headerBuilds++;
  return sdkBuildHeaders.apply(this, args);
};

/** The calls of a run's first stored trial. */
async function firstCalls(store: Store, runId: string) {
  const row = (await collect(store.responses(runId)))[0]!;
  return (await store.transcript({ runId, subjectId: row.subjectId, suite: row.suite, itemId: row.itemId, replicate: row.replicate }))!
    .transcript.calls;
}

describe('openai-compatible servers through the SDK', () => {
  it('sends no key and none of the environment when the server takes none', async () => {
    process.env.OPENAI_ORG_ID = 'org-must-not-leak';
    try {
      const m = createModel(`openai-compatible:${server.url}/v1#ok`);
      expect((await m.chat({ messages: MCQ, settings: { temperature: 0, maxTokens: 16 }, timeoutMs: 5000 })).text).toBe('Answer: A');
      const seen = (await lastBody()).headersSeen;
      expect(seen).not.toContain('authorization');
      expect(seen).not.toContain('openai-organization');
      expect(seen).toContain('x-stainless-retry-count');
    } finally {
      delete process.env.OPENAI_ORG_ID;
    }
  });

  it("sends the headers and body the SDK's own client sends (its User-Agent, the key as a bearer), call after call", async () => {
    const env = { TEST_KEY: 'sk-test-headers-0000' };
    const m = createModel(`openai-compatible:${server.url}/v1#ok`, { apiKeyEnv: 'TEST_KEY', env });
    // The stock client over the same fetch: any difference is the lighter header handling's.
    const stock = new OpenAI({
      baseURL: `${server.url}/v1`,
      apiKey: env.TEST_KEY,
      organization: null,
      project: null,
      maxRetries: 0,
      fetch: leanFetch,
    });
    const withoutLength = ({ 'content-length': _, ...rest }: Record<string, string>) => rest;
    // Headers are built once per kind of call: the second call at 5 s reuses the first's, the
    // call at 9 s (X-Stainless-Timeout: 9) is built anew.
    const builds: number[] = [];
    for (const timeoutMs of [5000, 5000, 9000]) {
      const before = headerBuilds;
      await m.chat({ messages: MCQ, settings: { temperature: 0, maxTokens: 16 }, timeoutMs });
      builds.push(headerBuilds - before);
      const { headers: ours, body: ourBody } = await lastBody();
      await stock.chat.completions.create({ model: 'ok', messages: MCQ, temperature: 0, max_tokens: 16 }, { timeout: timeoutMs });
      const { headers: theirs, body: theirBody } = await lastBody();
      expect(withoutLength(ours)).toEqual(withoutLength(theirs));
      // The body too, key for key in the same order (the server keeps it parsed).
      expect(JSON.stringify(ourBody)).toBe(JSON.stringify(theirBody));
      expect(ours['x-stainless-timeout']).toBe(String(timeoutMs / 1000));
      expect(ours['user-agent']).toMatch(/^OpenAI\/JS \d/);
      expect(ours.authorization).toBe(`<${'Bearer '.length + env.TEST_KEY.length} characters>`);
    }
    expect(builds).toEqual([1, 0, 1]);
  });

  it("keeps an open reasoning model's reasoning text", async () => {
    const m = createModel(`openai-compatible:${server.url}/v1#deepseek-r1`);
    const r = await m.chat({ messages: MCQ, settings: { temperature: 0.6, maxTokens: 64 }, timeoutMs: 5000 });
    expect(r.reasoning?.text).toMatch(/marble was moved/);
    expect(r.text).toBe('Answer: A');
  });
});

describe('OpenAI reasoning models', () => {
  it('the server refuses what OpenAI refuses: a temperature, and max_tokens', async () => {
    const post = (body: object) =>
      fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const t = await post({ model: 'gpt-5-mini', messages: MCQ, temperature: 0 });
    expect(t.status).toBe(400);
    expect((await t.json()).error.message).toMatch(/'temperature' does not support 0 with this model/);
    expect((await post({ model: 'o3', messages: MCQ, max_tokens: 100 })).status).toBe(400);
  });

  it('leaves out temperature and top_p, sends max_completion_tokens, and reads a reply cut off while reasoning', async () => {
    const m = createModel('openai:o3');
    expect(m.capabilities).toMatchObject({ sampling: false, reasons: true, maxTokensParam: 'max_completion_tokens' });
    const r = await m.chat({ messages: MCQ, settings: { temperature: 0, topP: 0.9, maxTokens: 256 }, timeoutMs: 5000 });
    const body = (await lastBody()).body;
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
    expect(body).not.toHaveProperty('max_tokens');
    expect(body.max_completion_tokens).toBe(256);
    // 600 reasoning tokens do not fit in 256: no text, finish_reason length.
    expect(r).toMatchObject({ text: '', finishReason: 'length', truncated: true, reasoning: { tokens: 256 } });
  });

  it('runs a reasoning model with the default settings: no temperature sent, room to reason, reasoning tokens in every transcript', async () => {
    const store = await openStore(join(dir, 'gpt5.db'));
    const events: RunEvent[] = [];
    const warnings: string[] = [];
    const r = await evaluate(
      { suites: ['generated-tom'], limit: 6, seed: 1, models: ['openai:gpt-5-mini'] },
      {
        store,
        retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
        onEvent: (e) => events.push(e),
        onWarning: (w) => warnings.push(w),
      },
    );
    expect(r).toMatchObject({ done: 6, failed: 0, truncated: 0 });
    expect(r.aborted).toEqual([]);
    const body = (await lastBody()).body;
    expect(body.max_completion_tokens).toBe(REASONING_MAX_TOKENS);
    expect(body).not.toHaveProperty('temperature');
    const call = (await firstCalls(store, r.runId))[0]!;
    expect(call.settings).toMatchObject({ temperature: 1, maxTokens: REASONING_MAX_TOKENS });
    expect(call.response?.reasoning).toEqual({ tokens: 600 });
    expect(call.response?.usage.outputTokens).toBe(603);
    // gpt-5-mini has a known price: the cost is counted, not unknown.
    expect(r.unpriced).toEqual([]);
    expect(r.usage[0]!.costUsd).toBeCloseTo((6 * 40 * 0.25 + 6 * 603 * 2) / 1e6, 12);
    await store.close();
  });

  it('warns about and counts replies cut off by a --max-tokens too small for the reasoning', async () => {
    const store = await openStore(join(dir, 'cut.db'));
    const events: RunEvent[] = [];
    const warnings: string[] = [];
    const r = await evaluate(
      { suites: ['generated-tom'], limit: 5, seed: 1, models: ['openai:gpt-5-mini'], settings: { maxTokens: 256, temperature: 0 } },
      { store, onEvent: (e) => events.push(e), onWarning: (w) => warnings.push(w) },
    );
    expect(warnings).toEqual([expect.stringMatching(/openai:gpt-5-mini takes no temperature .*--temperature 0 is not sent/)]);
    expect(r.truncated).toBe(5);
    expect(events.filter((e) => e.type === 'truncated')).toHaveLength(5);
    expect(events.find((e) => e.type === 'truncated')).toMatchObject({ spec: 'openai:gpt-5-mini', maxTokens: 256, calls: 1 });
    expect((await store.status(r.runId))[0]).toMatchObject({ done: 5, truncated: 5 });
    await store.close();
  });

  it('sends --reasoning-effort where the model takes it, refuses levels it does not, and warns where it is not sent', async () => {
    const store = await openStore(join(dir, 'effort.db'));
    const warnings: string[] = [];
    const high = await evaluate(
      { suites: ['generated-tom'], limit: 1, models: ['openai:o4-mini'], settings: { reasoningEffort: 'high' } },
      { store, onWarning: (w) => warnings.push(w) },
    );
    expect((await lastBody()).body.reasoning_effort).toBe('high');
    expect((await firstCalls(store, high.runId))[0]!.response?.reasoning?.tokens).toBe(1500);
    await expect(
      evaluate({ suites: ['generated-tom'], limit: 1, models: ['openai:o3'], settings: { reasoningEffort: 'minimal' } }, { store }),
    ).rejects.toThrow(/openai:o3: --reasoning-effort minimal is not accepted; use one of low, medium, high/);
    await evaluate(
      { suites: ['generated-tom'], limit: 1, models: ['openai:gpt-4o-mini'], settings: { reasoningEffort: 'low' } },
      { store, onWarning: (w) => warnings.push(w) },
    );
    expect(warnings).toContain('openai:gpt-4o-mini takes no reasoning effort: --reasoning-effort is not sent');
    expect((await lastBody()).body).not.toHaveProperty('reasoning_effort');
    await store.close();
  });
});

describe('structured judge output', () => {
  const rubric = parseRubric(
    'name: correctness\nprompt: "Response: {response}\\nExpected: {expected}\\nReply with JSON"\nfields:\n  - { name: score, min: 0, max: 5, integer: true }\n',
    'r.yaml',
  );
  const judge = (m: ChatModel): JudgeCaller => ({
    spec: m.spec,
    structuredOutput: m.capabilities?.structuredOutput,
    chat: (messages, settings) => m.chat({ messages, settings: { temperature: 0, maxTokens: 64, ...settings }, timeoutMs: 5000 }),
  });

  it('asks OpenAI for a strict json_schema built from the rubric, so a judge that rambles still answers in one call', async () => {
    const before = (await server.stats()).requests;
    const panel = await scoreWithPanel([judge(createModel('openai:judge-repair'))], rubric, {
      subject: 's-1',
      response: 'x',
      vars: { expected: 'y' },
    });
    expect(panel.failures).toBe(0);
    expect(panel.judges[0]!.raw).toHaveLength(1);
    expect(panel.judges[0]!.values).toEqual({ score: 0 });
    expect((await server.stats()).requests - before).toBe(1);
    expect((await lastBody()).body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'correctness',
        strict: true,
        schema: {
          type: 'object',
          required: ['score'],
          additionalProperties: false,
          properties: { score: { type: 'integer', minimum: 0, maximum: 5 } },
        },
      },
    });
  });

  it('keeps the prompt-only path (with its repair request) for compatible servers unless told they take a schema', async () => {
    const plain = createModel(`openai-compatible:${server.url}/v1#judge-repair`);
    const p = await scoreWithPanel([judge(plain)], rubric, { subject: 's-1', response: 'x', vars: { expected: 'y' } });
    expect(p.judges[0]).toMatchObject({ raw: ['It looks fine to me.', '{"score": 3}'], values: { score: 3 } });
    expect((await lastBody()).body).not.toHaveProperty('response_format');
    const structured = createModel(`openai-compatible:${server.url}/v1#judge-exact`, { structuredOutput: true });
    const s = await scoreWithPanel([judge(structured)], rubric, { subject: 's-1', response: 'the box', vars: { expected: 'box' } });
    expect(s.judges[0]).toMatchObject({ raw: ['{"score":5}'], values: { score: 5 } });
    expect((await lastBody()).body.response_format.type).toBe('json_schema');
  });
});

describe('prompt caching', () => {
  it('records cached prompt tokens and prices them at the cached-input rate', async () => {
    const store = await openStore(join(dir, 'cache.db'));
    const factory = new CallerFactory({ store, useCache: false });
    const model = createModel('openai:gpt-4.1-mini');
    const caller = factory.caller(model, 's-cache', { temperature: 0, maxTokens: 16 });
    const system = { role: 'system' as const, content: `You are careful. ${'Read every story twice. '.repeat(230)}` };
    await caller.chat([system, ...MCQ]);
    await caller.chat([system, ...MCQ]);
    const [first, second] = caller.calls;
    expect(first!.response!.usage.cachedInputTokens).toBeUndefined();
    const usage = second!.response!.usage;
    const promptTokens = Math.ceil((system.content.length + (MCQ[0]!.content as string).length) / 4);
    expect(usage.inputTokens).toBe(promptTokens);
    expect(usage.cachedInputTokens).toBe(Math.floor(Math.ceil(system.content.length / 4) / 128) * 128);
    // gpt-4.1-mini: $0.40 input, $0.10 cached input, $1.60 output per million tokens.
    const cached = usage.cachedInputTokens!;
    expect(second!.costUsd).toBeCloseTo(((promptTokens - cached) * 0.4 + cached * 0.1 + 3 * 1.6) / 1e6, 15);
    expect(first!.costUsd).toBeCloseTo((promptTokens * 0.4 + 3 * 1.6) / 1e6, 15);
    await store.close();
  });
});
