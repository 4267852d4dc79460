// BlockInflater reads what zlib's raw DEFLATE writes, against a dictionary or none, at every
// level and strategy (stored, fixed and dynamic blocks, matches reaching into the dictionary),
// gives the same text as zlib's inflate for any text, keeps working across values and
// dictionaries, and refuses data that does not inflate with a MindscopeError.

import fc from 'fast-check';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MindscopeError } from '../src/core/index.js';
import { BlockInflater } from '../src/store/sql/block-inflate.js';

const dictionary = Buffer.from('Sally put the marble in the basket. Anne moved the marble to the box. Where will Sally look? '.repeat(40));
const words = ['Sally', 'Anne', 'marble', 'basket', 'box', ' ', '\n', 'é', '漢字', '🙂', 'look', 'the', '"', '{', '}'];

/** A text of `n` pieces from `seed`: words, with now and then a character from anywhere in the BMP. */
function text(seed: number, n: number): string {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  let s = '';
  for (let i = 0; i < n; i++)
    s += next() < 0.05 ? String.fromCharCode(0x20 + Math.floor(next() * 0xd000)) : words[Math.floor(next() * words.length)];
  return s;
}

describe('BlockInflater', () => {
  it('inflates what zlib deflates at every level and strategy, with and without a dictionary', () => {
    const inflater = new BlockInflater();
    const none = Buffer.alloc(0);
    let values = 0;
    for (let level = 0; level <= 9; level++)
      for (const strategy of [0, 1, 2, 3, 4])
        for (const n of [0, 1, 50, 5000, 60_000]) {
          const t = text(level * 1000 + strategy * 100 + n, n);
          const withDictionary = deflateRawSync(t, { level, strategy, dictionary });
          expect(inflater.inflateText(withDictionary, dictionary)).toBe(t);
          expect(inflater.inflateText(deflateRawSync(t, { level, strategy }), none)).toBe(t);
          values += 2;
        }
    expect(values).toBe(500);
  });

  it('gives the text zlib gives for any text, value after value', () => {
    const inflater = new BlockInflater();
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.boolean(), (t, useDictionary) => {
        const data = useDictionary ? deflateRawSync(t, { dictionary }) : deflateRawSync(t);
        const dict = useDictionary ? dictionary : Buffer.alloc(0);
        const expected = inflateRawSync(data, useDictionary ? { dictionary } : {}).toString('utf8');
        expect(inflater.inflateText(data, dict)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('uses only the last 32 KiB of a longer dictionary, as zlib does', () => {
    const long = Buffer.concat([Buffer.alloc(50_000, 0x41), dictionary]);
    const t = `${dictionary.toString('utf8').slice(100, 3000)} and more`;
    const data = deflateRawSync(t, { dictionary: long });
    expect(new BlockInflater().inflateText(data, long)).toBe(t);
  });

  it('refuses data cut short, corrupted or of a reserved block type', () => {
    const inflater = new BlockInflater();
    const data = deflateRawSync(text(7, 4000), { dictionary });
    expect(() => inflater.inflateText(data.subarray(0, data.length >> 1), dictionary)).toThrow(MindscopeError);
    expect(() => inflater.inflateText(Uint8Array.from([0x07]), dictionary)).toThrow(MindscopeError);
    // A stored block whose length and its complement disagree.
    expect(() => inflater.inflateText(Uint8Array.from([0x01, 0x05, 0x00, 0x00, 0x00]), dictionary)).toThrow(MindscopeError);
    // A match that reaches past the dictionary's start: inflated without it.
    expect(() => inflater.inflateText(data, Buffer.alloc(0))).toThrow(MindscopeError);
    // Still reads good data afterwards.
    expect(inflater.inflateText(data, dictionary)).toBe(text(7, 4000));
  });
});
