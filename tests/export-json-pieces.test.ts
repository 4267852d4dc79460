// The exports write a trial's JSONL line and its Inspect sample field by field: each must be
// JSON.stringify of the exported object to the byte, for rows as a run stores them and for rows
// holding what a store rarely does (text to escape, numbers JSON writes as null, values JSON
// leaves out, judge scores, failures).

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trialRecord } from '../src/app/export-trials.js';
import { json } from '../src/app/json-pieces.js';
import { trialToSample, writeSample } from '../src/app/inspect-sample.js';
import { TextFileWriter } from '../src/app/text-file-writer.js';
import { TrialJsonLines } from '../src/app/trial-json-line.js';
import { openStore, runTrialRows, type Store, type TrialRow } from '../src/index.js';
import { evaluate } from './helpers/evaluate.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-json-pieces-'));
let store: Store;
const rows: TrialRow[] = [];

beforeAll(async () => {
  store = await openStore(join(dir, 'runs.db'));
  await evaluate({ store, suites: ['generated-tom'], limit: 3, seed: 3, trials: 2, models: ['agent:oracle', 'agent:random'], runId: 'r' });
  for await (const r of runTrialRows(store, 'r')) rows.push(r);
}, 120_000);

afterAll(async () => {
  await store?.close();
});

/** Rows with values a store rarely holds, each a copy of a stored row with a few fields changed. */
function variants(r: TrialRow): TrialRow[] {
  const judges = [
    { scorer: '2', rubric: 'r', rubricSha256: 'ab', judge: 'j "one"', turn: null, values: { a: 1 }, error: null },
    { scorer: 'panel', rubric: 'r', rubricSha256: 'ab', judge: 'j2', turn: 3, values: null, error: 'timed out' },
  ];
  const odd: Array<Partial<TrialRow>> = [
    {},
    { reply: 'quote " backslash \\ newline \n tab \t nul \u0000 é ✓ \u2028 lone \ud800 end', parsedAnswer: '"A"' },
    { itemId: 'x\u007fy', suite: 'ü', category: '', originalLabel: '\ud83d\ude00', subject: 'agent:a"b' },
    { reply: null, parsedAnswer: null, gold: null, reasoning: 'thought\nabout it', reasoningTokens: 12 },
    { score: 0.5, parseFailed: true, scorer: 'mcq-exact' },
    { score: null, scorer: null, parseFailed: null },
    { scorer: '__proto__' },
    { scorer: '7' },
    { costUsd: null, latencyMs: Number.NaN, batchLatencyMs: 12.5, inputTokens: 1e21, outputTokens: -0 },
    { latencyMs: Number.POSITIVE_INFINITY, replicate: 300, calls: 255, cachedCalls: 256, attempts: 1.5 },
    { status: 'failed', error: 'provider said "no"' },
    { status: 'failed', error: null, reply: null },
    { judgeScores: { panel: 0.25, '2': 1 }, judges },
    { reply: undefined as unknown as string },
    { error: undefined as unknown as null, reasoning: undefined as unknown as null },
    { finishedAt: '2026-01-01T00:00:00.000Z"' },
    { messages: [...r.messages, [{ role: 'user', content: 'again' }]] },
    { messages: [] },
    { contextTruncation: [{ droppedMessages: 2 } as unknown as TrialRow['contextTruncation'][number]] },
  ];
  return odd.map((o) => ({ ...r, ...o }));
}

describe("a value's JSON", () => {
  it('is what JSON.stringify writes: short strings quoted as they are, empty lists and objects', () => {
    class Bare {}
    const withToJson = Object.assign([], { toJSON: () => 'list' });
    const inherited = Object.create({ a: 1 }) as object;
    const values: unknown[] = [
      '',
      'Answer: B',
      '2026-01-01T00:00:00.000Z',
      'x'.repeat(64),
      'x'.repeat(65),
      `${'x'.repeat(70)}"`,
      ...Array.from({ length: 128 }, (_, c) => `a${String.fromCharCode(c)}b`),
      'é',
      '\ud800',
      '\u2028',
      [],
      {},
      [1],
      { a: 1 },
      withToJson,
      { toJSON: () => 7 },
      Object.create(null),
      inherited,
      new Bare(),
      new Date(0),
      // Boxed primitives: JSON writes their values.
      Object(''),
      Object(5),
      Object(false),
    ];
    for (const v of values) expect(json(v)).toBe(JSON.stringify(v));
  });
});

describe('a trial written as a JSONL line', () => {
  it('is JSON.stringify of its record and a newline, byte for byte', () => {
    const path = join(dir, 'lines.jsonl');
    const out = new TextFileWriter(path);
    const lines = new TrialJsonLines();
    const expected: string[] = [];
    for (const r of rows)
      for (const v of variants(r)) {
        lines.write(out, v, trialRecord);
        expected.push(`${JSON.stringify(trialRecord(v))}\n`);
      }
    out.close();
    expect(expected.length).toBeGreaterThan(100);
    expect(readFileSync(path, 'utf8')).toBe(expected.join(''));
  });
});

describe('a trial written as an Inspect sample', () => {
  it('is JSON.stringify of its sample, byte for byte', () => {
    const path = join(dir, 'samples.txt');
    const out = new TextFileWriter(path);
    const expected: string[] = [];
    for (const r of rows)
      for (const v of variants(r)) {
        writeSample(out, v);
        out.write('\n');
        expected.push(`${JSON.stringify(trialToSample(v))}\n`);
      }
    out.close();
    expect(readFileSync(path, 'utf8')).toBe(expected.join(''));
  });
});

describe('a text file written through one buffer', () => {
  it('holds text, kept bytes and single bytes in the order queued, whatever the buffer size', () => {
    for (const bufferBytes of [4, 5, 7, 1 << 18])
      for (const holdOpen of [true, false]) {
        const path = join(dir, `writer-${bufferBytes}-${holdOpen}.txt`);
        const out = new TextFileWriter(path, { bufferBytes, holdOpen });
        let expected = '';
        for (let i = 0; i < 40; i++) {
          out.write(`é${i}`);
          out.writeByte(0x2c);
          out.writeBytes(Buffer.from(`[${i}]`, 'utf8'));
          out.writeByte(0x5d);
          expected += `é${i},[${i}]]`;
        }
        out.close();
        expect(readFileSync(path, 'utf8')).toBe(expected);
      }
  });
});
