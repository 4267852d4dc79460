// Gemini through the official SDK (@google/genai) against a local server that answers as
// generateContent does: thinking by default inside maxOutputTokens (MAX_TOKENS when it runs
// out), thought summaries, thinking budgets, responseSchema, implicit caching, and Google's
// error bodies (RetryInfo instead of a Retry-After header).

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../src/store/index.js';
import { createModel, evaluate, openStore, type ModelCallError, type Store } from '../src/index.js';
import { GoogleChatModel, REASONING_MAX_TOKENS } from '../src/models/index.js';
import { CallerFactory } from '../src/runner/index.js';
import { parseRubric, scoreWithPanel } from '../src/judges/index.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

let server: ModelServer;
const dir = mkdtempSync(join(tmpdir(), 'mindscope-google-'));
const KEY = 'AIza-test-SECRET-0000';
const MCQ = [{ role: 'user' as const, content: 'Story.\n\nQuestion: where?\nA. box\nB. bag\n\nReply "Answer: X".' }];
const saved = { ...process.env };

beforeAll(async () => {
  server = await startModelServer({ MODEL_SERVER_KEY: KEY });
  process.env.GOOGLE_BASE_URL = server.url;
  process.env.GOOGLE_API_KEY = KEY;
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

describe('thinking', () => {
  it('gives a thinking model room to think by default, and keeps its thought summary and thought tokens', async () => {
    const store = await openStore(join(dir, 'flash.db'));
    const r = await evaluate({ suites: ['generated-tom'], limit: 4, models: ['google:gemini-2.5-flash'] }, { store });
    expect(r).toMatchObject({ done: 4, failed: 0, truncated: 0 });
    const { url, body, headersSeen } = await lastBody();
    expect(url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(headersSeen).toContain('x-goog-api-key');
    expect(body.generationConfig).toMatchObject({ maxOutputTokens: REASONING_MAX_TOKENS, thinkingConfig: { includeThoughts: true } });
    const call = (await firstCalls(store, r.runId))[0]!;
    expect(call.response).toMatchObject({
      text: 'Answer: A',
      reasoning: { text: '**Tracking beliefs** She did not see the move.', tokens: 600 },
      usage: { inputTokens: 42, outputTokens: 605 },
    });
    await store.close();
  });

  it('counts the replies a too small --max-tokens cuts off while thinking', async () => {
    const store = await openStore(join(dir, 'cut.db'));
    const r = await evaluate(
      { suites: ['generated-tom'], limit: 3, models: ['google:gemini-2.5-pro'], settings: { maxTokens: 256 } },
      { store },
    );
    expect(r.truncated).toBe(3);
    const call = (await firstCalls(store, r.runId))[0]!;
    expect(call.response).toMatchObject({ text: '', finishReason: 'MAX_TOKENS', truncated: true });
    expect((await store.status(r.runId))[0]!.truncated).toBe(3);
    await store.close();
  });

  it('sends --thinking-budget as thinkingConfig.thinkingBudget; 0 turns Flash thinking off and is refused for Pro', async () => {
    const store = await openStore(join(dir, 'budget.db'));
    await evaluate(
      { suites: ['generated-tom'], limit: 1, models: ['google:gemini-2.5-flash'], settings: { thinkingBudget: 0 } },
      { store },
    );
    expect((await lastBody()).body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 0 });
    const r = await evaluate(
      { suites: ['generated-tom'], limit: 1, models: ['google:gemini-2.5-pro'], settings: { thinkingBudget: 300 } },
      { store },
    );
    expect((await lastBody()).body.generationConfig).toMatchObject({
      thinkingConfig: { thinkingBudget: 300, includeThoughts: true },
      maxOutputTokens: REASONING_MAX_TOKENS,
    });
    expect((await firstCalls(store, r.runId))[0]!.response?.reasoning?.tokens).toBe(300);
    await expect(
      evaluate({ suites: ['generated-tom'], limit: 1, models: ['google:gemini-2.5-pro'], settings: { thinkingBudget: 0 } }, { store }),
    ).rejects.toThrow(/google:gemini-2.5-pro: thinking cannot be turned off/);
    await store.close();
  });
});

describe('structured judge output', () => {
  it('sends the rubric as responseSchema with Gemini type names', async () => {
    const rubric = parseRubric(
      'name: r\nprompt: "Response: {response}\\nExpected: {expected}"\nfields:\n  - { name: score, min: 0, max: 5, integer: true }\n  - { name: confidence, min: 0, max: 1, integer: false }\n',
      'r.yaml',
    );
    const store = await openStore(join(dir, 'judge.db'));
    const caller = new CallerFactory({ store }).caller(createModel('google:judge-repair'), 'judge:g', { temperature: 0, maxTokens: 64 });
    const panel = await scoreWithPanel([caller], rubric, { subject: 's-1', response: 'x', vars: { expected: 'y' } });
    expect(panel.judges[0]).toMatchObject({ raw: ['{"score":0,"confidence":0}'], values: { score: 0, confidence: 0 } });
    expect((await lastBody()).body.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'OBJECT',
        required: ['score', 'confidence'],
        propertyOrdering: ['score', 'confidence'],
        properties: { score: { type: 'INTEGER', minimum: 0, maximum: 5 }, confidence: { type: 'NUMBER', minimum: 0, maximum: 1 } },
      },
    });
    await store.close();
  });
});

describe('implicit caching', () => {
  it('records cachedContentTokenCount and prices it at the cached-input rate', async () => {
    const store = await openStore(join(dir, 'cache.db'));
    const caller = new CallerFactory({ store, useCache: false }).caller(createModel('google:gemini-2.0-flash'), 's-g', {
      temperature: 0,
      maxTokens: 64,
    });
    const long = { role: 'user' as const, content: `A long shared story. ${'The ball rolled under the bed. '.repeat(150)}` };
    await caller.chat([long]);
    await caller.chat([long]);
    const u = caller.calls[1]!.response!.usage;
    expect(u.cachedInputTokens).toBe(Math.floor(Math.ceil(long.content.length / 4) / 128) * 128);
    // gemini-2.0-flash: $0.10 input, $0.025 cached input, $0.40 output per million tokens.
    expect(caller.calls[1]!.costUsd).toBeCloseTo(
      ((u.inputTokens - u.cachedInputTokens!) * 0.1 + u.cachedInputTokens! * 0.025 + 5 * 0.4) / 1e6,
      15,
    );
    await store.close();
  });
});

describe('errors through the SDK', () => {
  it("reads Google's RetryInfo as the delay of a 429 and maps the other failures onto the runner kinds", async () => {
    const err = (model: string, apiKey = KEY, baseUrl = server.url, timeoutMs = 5000) =>
      new GoogleChatModel({ model, baseUrl, apiKey }).chat({ messages: MCQ, settings: { temperature: 0, maxTokens: 16 }, timeoutMs }).then(
        () => undefined,
        (e: unknown) => e as ModelCallError,
      );
    expect(await err('flaky-429-1')).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 1000 });
    expect(await err('flaky-500-1')).toMatchObject({ kind: 'server', status: 500 });
    expect(await err('unknown-model')).toMatchObject({ kind: 'not_found', status: 404 });
    expect(await err('malformed-1')).toMatchObject({ kind: 'malformed' });
    expect(await err('bad-shape-1')).toMatchObject({ kind: 'malformed' });
    expect(await err('hang-1', KEY, server.url, 300)).toMatchObject({ kind: 'timeout' });
    expect(await err('reset-1')).toMatchObject({ kind: 'network' });
    expect(await err('ok', KEY, 'http://127.0.0.1:9')).toMatchObject({ kind: 'network' });
    const wrong = 'AIza-wrong-77777777';
    const auth = await err('ok', wrong);
    expect(auth).toMatchObject({ kind: 'auth', status: 401 });
    expect(auth!.message).not.toContain(wrong);
  });
});
