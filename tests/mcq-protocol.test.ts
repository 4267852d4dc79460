// Answer extraction, templates, option shuffling, and small core pieces (hashing, seeded
// randomness, the Wilson interval).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as stats from '../src/stats/index.js';
import type { Item } from '../src/index.js';
import { canonicalJson, contentHash, createRng, type McqPayload } from '../src/core/index.js';
import { extractAnswer, loadMcqTemplate, presentOptions, renderMcq } from '../src/protocols/index.js';

const OPTS = [
  { label: 'A', text: 'the red box' },
  { label: 'B', text: 'the blue basket' },
  { label: 'C', text: 'the green jar' },
];

describe('extractAnswer', () => {
  it.each([
    ['Answer: B', 'B', 'answer-tag'],
    ['The answer is (C).', 'C', 'answer-tag'],
    ['I think A... no. Final answer: C', 'C', 'answer-tag'],
    ['**Answer:** B', 'B', 'answer-tag'],
    ['B. the blue basket', 'B', 'leading-label'],
    ['(A) because she left', 'A', 'leading-label'],
    ['c', 'C', 'bare-label'],
    ['the green jar', 'C', 'option-text'],
    ['She will look in the blue basket.', 'B', 'option-text'],
  ])('%s -> %s', (reply, label, method) => {
    expect(extractAnswer(reply, OPTS)).toEqual({ label, method });
  });

  it.each(['', 'Once upon a time there was a little girl.', 'Answer: E', 'the answer is a cat', 'the red box or the green jar'])(
    'unparseable: %s',
    (reply) => {
      expect(extractAnswer(reply, OPTS)).toEqual({ label: null, method: 'none' });
    },
  );
});

describe('templates and options', () => {
  it('renders the placeholders and checks user templates', () => {
    expect(
      renderMcq('{context}\nQ: {question}\n{options}\n({labels})', { context: 'S', question: 'Where?', options: OPTS.slice(0, 2) }),
    ).toBe('S\nQ: Where?\nA. the red box\nB. the blue basket\n(A, B)');
    // Placeholders it does not know stay as written (in the text and in the option format); item
    // fields fill only when declared; a value is not read again for placeholders; leading white
    // space goes unless verbatim.
    const fields = { context: '', question: '{context}', options: OPTS.slice(0, 2), meta: { grade: 3 } };
    expect(
      renderMcq(
        { user: '\n {context}{{question}} {grade} {x}\n{options}', option: '({label}) {text} {y}', optionSeparator: ' / ' },
        fields,
      ),
    ).toBe('{{context}} {grade} {x}\n(A) the red box {y} / (B) the blue basket {y}');
    expect(renderMcq({ user: ' {grade}|{options}', option: '{label}', itemFields: ['grade'], verbatim: true }, fields)).toBe(' 3|A\nB');
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-tpl-'));
    writeFileSync(join(dir, 't.yaml'), 'system: Be careful.\nuser: "{context} {question} {options} {oops}"\n');
    expect(() => loadMcqTemplate(join(dir, 't.yaml'))).toThrow(/t\.yaml: unknown placeholder \{oops\}/);
    writeFileSync(join(dir, 't.txt'), '{context}\n{question}\n{options}');
    expect(loadMcqTemplate(join(dir, 't.txt'))).toEqual({ user: '{context}\n{question}\n{options}' });
  });

  it('shuffles options per replicate seed, deterministically', () => {
    const item: Item<McqPayload> = {
      suite: 's',
      id: 'i',
      category: 'belief',
      payload: { context: '', question: 'q', options: ['a', 'b', 'c', 'd'], answerIndex: 0 },
      answer: 'a',
      meta: {},
    };
    const order = (seed: number) =>
      presentOptions(item, { replicate: 0, seed }, true)
        .map((o) => o.text)
        .join('');
    expect(order(1)).toBe(order(1));
    expect(new Set([1, 2, 3, 4, 5, 6, 7, 8].map(order)).size).toBeGreaterThan(3);
    expect(presentOptions(item, { replicate: 0, seed: 1 }, false).map((o) => o.text)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('core', () => {
  it('hashes content independently of key order', () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 2, c: undefined }] })).toBe('{"a":[1,{"d":2}],"b":1}');
    expect(contentHash({ a: 1, b: 2 })).toBe(contentHash({ b: 2, a: 1 }));
  });
  it('seeded randomness is reproducible', () => {
    const a = createRng(42);
    const b = createRng(42);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(createRng('x').next()).not.toBe(createRng('y').next());
    const counts = [0, 0, 0, 0];
    const r = createRng(7);
    for (let i = 0; i < 40000; i++) counts[r.int(4)]!++;
    counts.forEach((c) => expect(Math.abs(c - 10000)).toBeLessThan(400));
  });
  it('Wilson interval', () => {
    // Textbook values (Newcombe 1998, Table I style): 0/10 -> [0, 0.2775]; 5/10 -> [0.2366, 0.7634].
    const a = stats.wilsonInterval(0, 10);
    expect(a.lower).toBe(0);
    expect(a.upper).toBeCloseTo(0.27753279, 7);
    const b = stats.wilsonInterval(5, 10);
    expect(b.lower).toBeCloseTo(0.2366, 4);
    expect(b.upper).toBeCloseTo(0.7634, 4);
  });
});

describe('fillInts', () => {
  it('draws exactly what int(n) would', () => {
    const a = createRng(99);
    const b = createRng(99);
    const bulk = Array.from(a.fillInts(new Int32Array(1000), 37));
    expect(bulk).toEqual(Array.from({ length: 1000 }, () => b.int(37)));
    expect(a.next()).toBe(b.next());
  });

  it('fillUniform draws exactly what next() would, and skip advances as next() would', () => {
    const a = createRng(7);
    const b = createRng(7);
    expect(Array.from(a.fillUniform(new Float64Array(999)))).toEqual(Array.from({ length: 999 }, () => b.next()));
    a.skip(12345);
    for (let k = 0; k < 12345; k++) b.next();
    expect(a.next()).toBe(b.next());
  });
});
