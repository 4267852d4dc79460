// Call-cache keys are what a store's cache is addressed by: a change of how they are computed
// would silently turn every stored reply into a miss (and a paid call). These keys were written
// by mindscope before the key was hashed in one go (parts hashed one after the other), and must
// stay as they are; lone surrogates included, which UTF-8 encodes the same either way.

import { describe, expect, it } from 'vitest';
import type { ChatModel } from '../src/models/index.js';
import { callCacheKey } from '../src/runner/recording-model.js';

const model = { provider: 'openai-compatible', spec: 'openai-compatible:http://127.0.0.1:1/v1#m' } as ChatModel;
const settings = { temperature: 0, maxTokens: 256 };

describe('call-cache keys', () => {
  it('are the keys earlier versions stored', () => {
    expect(
      callCacheKey(model, 'chat', settings, [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Sally put the ball in the basket.\n\nWhere will she look? é 漢 \ud83d\ude00' },
      ]),
    ).toBe('4e5c9789c837ee76aa514eb9138574c637e084254ca8ba064715d3d5daab7487');
    expect(
      callCacheKey(model, 'chat', settings, [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'data:x' } },
          ],
        },
      ] as never),
    ).toBe('8e0a9513368c587b31b45aa8852d04093f8fc42fd89563629430707ae8498e13');
    expect(callCacheKey(model, 'loglik', {}, ['context', ' A', ' B'])).toBe(
      '1e5b29540010ba3806a8a1246f6f4d93c5198c29f2ba8c95faa10bf65eaee7db',
    );
    expect(
      callCacheKey(model, 'chat', settings, [
        { role: 'user', content: 'lone \ud83d' },
        { role: 'assistant', content: '\ude00 low' },
      ]),
    ).toBe('8243279fb1bfd8620c51d13ace84eaf56a0bf19b472361ee68d263c05da34a6f');
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
