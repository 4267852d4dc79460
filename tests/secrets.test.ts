// Scrubbing a process's secrets from what it keeps: no registered secret survives in any string
// of a value, however nested; a value without one comes back as it was (the same object).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerSecret, scrubSecrets } from '../src/core/index.js';

const SECRET = 'sk-test-SCRUB-ME-0042';
registerSecret(SECRET);
registerSecret('abc'); // too short to scrub from replies: ordinary words would match

const piece = fc.oneof(fc.string({ maxLength: 8 }), fc.constant(SECRET), fc.constant('abc'));
const text = fc.array(piece, { maxLength: 5 }).map((p) => p.join(''));
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 3 }),
  ),
})).node;

describe('scrubSecrets', () => {
  it('leaves no registered secret in any string, and keeps everything else', () => {
    fc.assert(
      fc.property(value, (v) => {
        const out = JSON.stringify(scrubSecrets(v));
        expect(out.includes(SECRET)).toBe(false);
        expect(out).toBe(JSON.stringify(v).split(SECRET).join('[REDACTED]'));
      }),
      { seed: 42, numRuns: 500 },
    );
  });

  it('returns a value without secrets as it is, and never changes its input', () => {
    const clean = { text: 'Answer: A', usage: { inputTokens: 3 }, list: ['abc'] };
    expect(scrubSecrets(clean)).toBe(clean);
    const dirty = { text: `key ${SECRET}`, keep: { n: 1 } };
    const out = scrubSecrets(dirty);
    expect(out).toEqual({ text: 'key [REDACTED]', keep: { n: 1 } });
    expect(out.keep).toBe(dirty.keep);
    expect(dirty.text).toBe(`key ${SECRET}`);
  });
});
