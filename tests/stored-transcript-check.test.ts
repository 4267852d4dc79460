// The quick reading of stored transcripts the exports use gives exactly what the transcript
// schema's parse gives (success, the value with its keys in the same order, the first issue),
// for transcripts as the runner writes them and for values the check is not sure of (unknown
// keys, keys out of order, wrong types, rare parts); the common case is the value itself.

import fc from 'fast-check';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStoredTranscript } from '../src/app/stored-transcript-check.js';
import { TextFileWriter } from '../src/app/text-file-writer.js';
import { StoredTranscriptSchema } from '../src/core/index.js';

const message = fc.record({ role: fc.constantFrom('system', 'user', 'assistant', 'tool'), content: fc.oneof(fc.string(), fc.constant(1)) });
const settings = fc.record(
  {
    temperature: fc.oneof(fc.double({ noNaN: true, min: 0, max: 2 }), fc.constant('0')),
    maxTokens: fc.oneof(fc.integer({ min: -1, max: 4096 }), fc.constant(1.5)),
    topP: fc.double({ noNaN: true, min: 0, max: 1 }),
    seed: fc.integer(),
    reasoningEffort: fc.constantFrom('low', 'high', 'extreme'),
    thinkingBudget: fc.integer({ min: -5, max: 100 }),
    stop: fc.array(fc.string(), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const response = fc.record(
  {
    text: fc.string(),
    usage: fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat(), cachedInputTokens: fc.nat() }, { requiredKeys: [] }),
    latencyMs: fc.double({ noNaN: true, min: 0, max: 1e5 }),
    finishReason: fc.constantFrom('stop', 'length'),
    truncated: fc.boolean(),
    reasoning: fc.record({ text: fc.string(), tokens: fc.nat() }, { requiredKeys: [] }),
    batch: fc.boolean(),
    extra: fc.string(),
  },
  { requiredKeys: [] },
);
const call = fc.record(
  {
    kind: fc.constantFrom('chat', 'loglik', 'other'),
    messages: fc.array(message, { maxLength: 3 }),
    settings,
    response,
    cached: fc.boolean(),
    attempts: fc.integer({ min: 0, max: 5 }),
    costUsd: fc.oneof(fc.constant(null), fc.double({ noNaN: true, min: 0, max: 1 })),
  },
  { requiredKeys: [] },
);
/** A transcript's keys in a shuffled order, sometimes with a key of its own. */
const reordered = <T extends object>(arb: fc.Arbitrary<T>) =>
  fc.tuple(arb, fc.boolean(), fc.boolean()).map(([v, shuffle, extra]) => {
    const entries = Object.entries(v);
    if (shuffle) entries.reverse();
    if (extra) entries.push(['unexpected', 1]);
    return Object.fromEntries(entries);
  });
const transcript = fc.record(
  {
    protocol: fc.constantFrom('mcq', 'open'),
    calls: fc.array(reordered(call), { maxLength: 3 }),
    detail: fc.oneof(fc.constant(null), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

/** Success, the value (its key order included) and the first issue, as text. */
const outcome = (r: { success: boolean; data?: unknown; error?: { issues: Array<{ message: string }> } }) =>
  r.success ? `ok ${JSON.stringify(r.data)}` : `error ${r.error!.issues[0]!.message}`;

describe('the quick reading of stored transcripts', () => {
  it('gives what the schema gives, for any value near a transcript', () => {
    fc.assert(
      fc.property(fc.oneof(transcript, reordered(transcript)), (v) => {
        // Through JSON, as the store gives them.
        const value = JSON.parse(JSON.stringify(v)) as unknown;
        expect(outcome(readStoredTranscript(value))).toBe(outcome(StoredTranscriptSchema.safeParse(value)));
      }),
      { numRuns: 2000, seed: 3 },
    );
  });

  it('gives a transcript as the runner writes it back as it is', () => {
    const value = {
      protocol: 'mcq',
      calls: [
        {
          kind: 'chat',
          messages: [
            { role: 'system', content: 'Answer with a letter.' },
            { role: 'user', content: 'Where is the ball?\nA. box\nB. basket' },
          ],
          settings: { temperature: 0, maxTokens: 16, seed: 3 },
          response: { text: 'Answer: A', usage: { inputTokens: 40, outputTokens: 3 }, latencyMs: 12.5, finishReason: 'stop' },
          cached: false,
          attempts: 1,
          costUsd: 0,
        },
      ],
      detail: { parsed: 'A', presented: [{ label: 'A', text: 'box' }] },
    };
    const read = readStoredTranscript(value);
    expect(read.success && read.data).toBe(value);
    expect(outcome(read)).toBe(outcome(StoredTranscriptSchema.safeParse(value)));
  });
});

describe('the text file writer', () => {
  it('writes every piece, in order, whatever their sizes (ASCII, multi-byte, larger than its buffer)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-text-writer-'));
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            fc.string({ unit: 'grapheme' }),
            fc.nat({ max: 400_000 }).map((n) => 'é'.repeat(n)),
          ),
          {
            maxLength: 20,
          },
        ),
        (pieces) => {
          const path = join(dir, 'out.txt');
          const out = new TextFileWriter(path);
          for (const p of pieces) out.write(p);
          out.close();
          expect(readFileSync(path, 'utf8')).toBe(pieces.join(''));
          // Appending keeps what the file holds.
          const more = new TextFileWriter(path, { append: true });
          more.write('tail');
          more.close();
          expect(readFileSync(path, 'utf8')).toBe(`${pieces.join('')}tail`);
        },
      ),
      { numRuns: 60, seed: 5 },
    );
  });
});
