// Call-cache keys are what a store's cache is addressed by: a change of how they are computed
// would silently turn every stored reply into a miss (and a paid call), so the keys below are
// pinned. A key names the request (provider, spec, endpoint, API, revision, settings, every
// message) and the draw (the unit of work and how many identical requests it made before), so
// that a reply is reused only by the same call of the same trial (lone surrogates included,
// which UTF-8 encodes the same either way). The properties check every part of that identity.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatModel } from '../src/models/index.js';
import { callCacheKey, type CallDraw } from '../src/runner/recording-model.js';

const model = {
  provider: 'openai-compatible',
  spec: 'openai-compatible:http://127.0.0.1:1/v1#m',
  endpoint: 'http://127.0.0.1:1/v1',
  wire: { api: '/v1/chat/completions' },
} as ChatModel;
const settings = { temperature: 0, maxTokens: 256 };
const draw: CallDraw = { unit: 'tombench\u0000item-1\u00000', occurrence: 0 };

describe('call-cache keys', () => {
  // The SHA-256 of the request's parts (NUL-separated, messages with their UTF-16 lengths), then
  // of that hex digest, U+0002, the unit's length, NUL, the unit, NUL and the occurrence: the
  // value below was recomputed from that layout with Python's hashlib.
  it('are the keys this version stores', () => {
    expect(
      callCacheKey(
        model,
        'chat',
        settings,
        [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Sally put the ball in the basket.\n\nWhere will she look? é 漢 \ud83d\ude00' },
        ],
        draw,
      ),
    ).toBe('005ff73b6481d06d39c35d44a1403216b83c8fe2b3f1bcc1f279d493f18b176a');
  });

  it('differ when any part differs', () => {
    const base = callCacheKey(model, 'chat', settings, [{ role: 'user', content: 'a' }]);
    expect(callCacheKey(model, 'chat', { ...settings, temperature: 1 }, [{ role: 'user', content: 'a' }])).not.toBe(base);
    expect(callCacheKey(model, 'chat', settings, [{ role: 'assistant', content: 'a' }])).not.toBe(base);
    expect(callCacheKey({ ...model, spec: 'x' } as ChatModel, 'chat', settings, [{ role: 'user', content: 'a' }])).not.toBe(base);
    // A separator inside a message cannot make two message lists one.
    expect(callCacheKey(model, 'chat', settings, [{ role: 'user', content: 'a\u0001user\u00001\u0000b' }])).not.toBe(
      callCacheKey(model, 'chat', settings, [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ]),
    );
  });
});

/** Any short text, separators and surrogates included. */
const text = fc.string({ unit: fc.constantFrom('a', 'b', '\u0000', '\u0001', '\u0002', 'é', '\ud83d', '\ude00', '#', '/'), maxLength: 6 });
const modelArb = fc.record({
  provider: fc.constantFrom('openai', 'openai-compatible', 'anthropic', 'google', 'llamacpp'),
  spec: text,
  endpoint: text,
  api: fc.option(text, { nil: undefined }),
  revision: fc.option(text, { nil: undefined }),
});
type ModelParts = { provider: string; spec: string; endpoint: string; api?: string; revision?: string };
const asModel = (m: ModelParts) =>
  ({
    provider: m.provider,
    spec: m.spec,
    endpoint: m.endpoint,
    revision: m.revision,
    wire: m.api === undefined ? undefined : { api: m.api },
  }) as ChatModel;
const callArb = fc.record({
  model: modelArb,
  temperature: fc.constantFrom<number>(0, 0.7, 1),
  messages: fc.array(fc.record({ role: fc.constantFrom('system', 'user', 'assistant'), content: text }), { minLength: 1, maxLength: 3 }),
  unit: text,
  occurrence: fc.nat(3),
});
type Call = typeof callArb extends fc.Arbitrary<infer T> ? T : never;
const keyOf = (c: Call) =>
  callCacheKey(asModel(c.model), 'chat', { temperature: c.temperature }, c.messages as never, { unit: c.unit, occurrence: c.occurrence });
/** What a call's identity is made of; two calls with equal identities are the same draw of the same request. */
const identity = (c: Call) =>
  JSON.stringify([
    c.model.provider,
    c.model.spec,
    c.model.endpoint,
    c.model.api ?? '',
    c.model.revision ?? '',
    c.temperature,
    c.messages,
    c.unit,
    c.occurrence,
  ]);

describe('call-cache key properties', () => {
  it('the same call gives the same key (a resumed trial finds its replies)', () => {
    fc.assert(
      fc.property(callArb, (c) => keyOf(c) === keyOf(structuredClone(c))),
      { seed: 42, numRuns: 300 },
    );
  });

  it('two calls share a key only when endpoint, API, revision, model, settings, messages, unit and occurrence are all equal', () => {
    fc.assert(
      fc.property(callArb, callArb, (a, b) => (keyOf(a) === keyOf(b)) === (identity(a) === identity(b))),
      { seed: 42, numRuns: 2000 },
    );
  });

  it('changing any one part changes the key', () => {
    const parts: Array<[string, (c: Call) => Call]> = [
      ['endpoint', (c) => ({ ...c, model: { ...c.model, endpoint: `${c.model.endpoint}x` } })],
      ['API', (c) => ({ ...c, model: { ...c.model, api: `${c.model.api ?? ''}x` } })],
      ['revision', (c) => ({ ...c, model: { ...c.model, revision: `${c.model.revision ?? ''}x` } })],
      ['model', (c) => ({ ...c, model: { ...c.model, spec: `${c.model.spec}x` } })],
      ['settings', (c) => ({ ...c, temperature: c.temperature + 0.5 })],
      [
        'message',
        (c) => ({ ...c, messages: [...c.messages.slice(0, -1), { ...c.messages.at(-1)!, content: `${c.messages.at(-1)!.content}x` }] }),
      ],
      ['item or replicate (the unit)', (c) => ({ ...c, unit: `${c.unit}x` })],
      ['turn (occurrence)', (c) => ({ ...c, occurrence: c.occurrence + 1 })],
    ];
    for (const [what, change] of parts)
      fc.assert(
        fc.property(callArb, (c) => {
          if (keyOf(c) === keyOf(change(c))) throw new Error(`the key did not change with the ${what}`);
        }),
        { seed: 42, numRuns: 200 },
      );
  });
});
