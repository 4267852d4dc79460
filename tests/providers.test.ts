// Providers against a real local HTTP server (a child process) that speaks OpenAI's,
// Anthropic's and Google's protocols and injects faults.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModel, ModelCallError } from '../src/index.js';
import { AnthropicChatModel, GoogleChatModel, OpenAiChatModel } from '../src/models/index.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

const SETTINGS = { temperature: 0, maxTokens: 16 };
const MCQ = [{ role: 'user' as const, content: 'Story.\n\nQuestion: where?\nA. box\nB. bag\n\nReply "Answer: X".' }];

let server: ModelServer;
let keyed: ModelServer;
const KEY = 'sk-test-SECRET-1234567890';

beforeAll(async () => {
  [server, keyed] = await Promise.all([startModelServer(), startModelServer({ MODEL_SERVER_KEY: KEY })]);
});
afterAll(async () => {
  await Promise.all([server.stop(), keyed.stop()]);
});

describe('openai-compatible', () => {
  it('sends settings and messages, reads text, usage and log-probabilities', async () => {
    const m = createModel(`openai-compatible:${server.url}/v1#ok`);
    const r = await m.chat({ messages: MCQ, settings: { ...SETTINGS, seed: 42, logprobs: true }, timeoutMs: 5000 });
    expect(r.text).toBe('Answer: A');
    expect(r.usage).toEqual({ inputTokens: 40, outputTokens: 3 });
    expect(r.logprobs?.length).toBeGreaterThan(0);
    expect(r.logprobs![0]!.logprob).toBe(-0.25);
    const last = (await server.stats()).bodies.at(-1)!;
    expect(last.body).toMatchObject({ model: 'ok', temperature: 0, max_tokens: 16, seed: 42, logprobs: true });
  });

  it('sends images as image_url parts', async () => {
    const m = createModel(`openai-compatible:${server.url}/v1#ok`);
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    await m.chat({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is shown?' },
            { type: 'image', url: png },
          ],
        },
      ],
      settings: SETTINGS,
      timeoutMs: 5000,
    });
    const last = (await server.stats()).bodies.at(-1)!;
    expect(last.body.messages[0].content).toEqual([
      { type: 'text', text: 'What is shown?' },
      { type: 'image_url', image_url: { url: png } },
    ]);
  });

  it('classifies 429 with Retry-After, 5xx, malformed bodies, timeouts and connection resets', async () => {
    const call = (model: string, timeoutMs = 5000) =>
      new OpenAiChatModel({ provider: 'openai-compatible', model, baseUrl: `${server.url}/v1` }).chat({
        messages: MCQ,
        settings: SETTINGS,
        timeoutMs,
      });
    const err = async (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => e as ModelCallError,
      );
    const e429 = await err(call('flaky-429-1'));
    expect(e429).toBeInstanceOf(ModelCallError);
    expect(e429).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 1000 });
    expect(await err(call('flaky-500-1'))).toMatchObject({ kind: 'server', status: 500 });
    expect(await err(call('malformed-1'))).toMatchObject({ kind: 'malformed' });
    expect(await err(call('bad-shape-1'))).toMatchObject({ kind: 'malformed' });
    expect(await err(call('hang-1', 300))).toMatchObject({ kind: 'timeout' });
    expect(await err(call('reset-1'))).toMatchObject({ kind: 'network' });
    expect(await err(call('unknown-model'))).toMatchObject({ kind: 'not_found', status: 404 });
  });

  it('reports a rejected key with the HTTP status and without the key', async () => {
    const wrong = 'sk-wrong-key-abcdef123456';
    const m = createModel(`openai-compatible:${keyed.url}/v1#ok`, { apiKeyEnv: 'TEST_KEY', env: { TEST_KEY: wrong } });
    const e = (await m.chat({ messages: MCQ, settings: SETTINGS, timeoutMs: 5000 }).catch((x) => x)) as ModelCallError;
    expect(e.kind).toBe('auth');
    expect(e.message).toContain('HTTP 401');
    expect(e.message).toContain('openai-compatible:');
    expect(e.message).not.toContain(wrong);
    const ok = createModel(`openai-compatible:${keyed.url}/v1#ok`, { apiKeyEnv: 'TEST_KEY', env: { TEST_KEY: KEY } });
    expect((await ok.chat({ messages: MCQ, settings: SETTINGS, timeoutMs: 5000 })).text).toBe('Answer: A');
  });

  it('reports an unreachable server as a network error', async () => {
    const m = new OpenAiChatModel({ provider: 'openai-compatible', model: 'ok', baseUrl: 'http://127.0.0.1:9/v1' });
    const e = (await m.chat({ messages: MCQ, settings: SETTINGS, timeoutMs: 2000 }).catch((x) => x)) as ModelCallError;
    expect(e.kind).toBe('network');
    expect(e.message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9\/v1/);
  });
});

describe('openai', () => {
  it('honours OPENAI_BASE_URL and OPENAI_API_KEY and sends max_completion_tokens', async () => {
    const m = createModel('openai:ok', { env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${keyed.url}/v1` } });
    expect(m.spec).toBe('openai:ok');
    expect((await m.chat({ messages: MCQ, settings: SETTINGS, timeoutMs: 5000 })).text).toBe('Answer: A');
    const last = (await keyed.stats()).bodies.at(-1)!;
    expect(last.body.max_completion_tokens).toBe(16);
  });
  it('needs a key', () => {
    expect(() => createModel('openai:gpt-4o-mini', { env: {} })).toThrow(/OPENAI_API_KEY/);
  });
});

describe('anthropic', () => {
  it('speaks the messages protocol: system apart, images as base64 sources, key header', async () => {
    const m = new AnthropicChatModel({ model: 'ok', baseUrl: keyed.url, apiKey: KEY });
    const r = await m.chat({
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: MCQ[0]!.content as string },
            { type: 'image', url: 'data:image/png;base64,AAAA' },
          ],
        },
      ],
      settings: SETTINGS,
      timeoutMs: 5000,
    });
    expect(r.text).toBe('Answer: A');
    expect(r.usage).toEqual({ inputTokens: 41, outputTokens: 4 });
    const last = (await keyed.stats()).bodies.at(-1)!;
    expect(last.url).toBe('/v1/messages');
    expect(last.headersSeen).toContain('anthropic-version');
    expect(last.body.system).toBe('Be brief.');
    expect(last.body.messages[0].content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } });
  });
  it('reports 429 and a rejected key', async () => {
    const bad = new AnthropicChatModel({ model: 'ok', baseUrl: keyed.url, apiKey: 'wrong-key-000000' });
    await expect(bad.chat({ messages: MCQ, settings: SETTINGS, timeoutMs: 5000 })).rejects.toMatchObject({ kind: 'auth', status: 401 });
    const limited = new AnthropicChatModel({ model: 'flaky-429-1', baseUrl: server.url, apiKey: 'k-123456' });
    await expect(limited.chat({ messages: MCQ, settings: SETTINGS, timeoutMs: 5000 })).rejects.toMatchObject({
      kind: 'rate_limit',
      retryAfterMs: 1000,
    });
  });
});

describe('google', () => {
  it('speaks generateContent', async () => {
    const m = new GoogleChatModel({ model: 'ok', baseUrl: keyed.url, apiKey: KEY });
    const r = await m.chat({ messages: [{ role: 'system', content: 'Be brief.' }, ...MCQ], settings: SETTINGS, timeoutMs: 5000 });
    expect(r.text).toBe('Answer: A');
    expect(r.usage).toEqual({ inputTokens: 42, outputTokens: 5 });
    const last = (await keyed.stats()).bodies.at(-1)!;
    expect(last.url).toBe('/v1beta/models/ok:generateContent');
    expect(last.body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(last.body.generationConfig).toMatchObject({ temperature: 0, maxOutputTokens: 16 });
  });
});

describe('model specs', () => {
  it('rejects unknown specs with the forms it knows', () => {
    expect(() => createModel('gpt4')).toThrow(/unknown model spec "gpt4".*openai:MODEL/);
    expect(() => createModel('agent:genius')).toThrow(/unknown reference agent "agent:genius"/);
    expect(() => createModel('openai-compatible:localhost#m')).toThrow(/BASE_URL must start with http/);
    expect(() => createModel('llamacpp:/nope.gguf')).toThrow(/no such GGUF file/);
  });
});
