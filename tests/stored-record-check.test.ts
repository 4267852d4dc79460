// The quick reading of multiple-choice records the exports use gives exactly what the record
// schema's parse gives (the value with its keys in the same order, or the same error naming
// the trial), for records as the protocol writes them and for records the check is not sure
// of (unknown keys, keys out of order, wrong types); the common case is the record itself.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRecordAgain } from '../src/app/stored-record.js';
import { MCQ_RECORDS, readRecord, type StoredTranscript } from '../src/core/index.js';

const option = fc.record(
  { label: fc.oneof(fc.constantFrom('A', 'B', 'C'), fc.constant(1)), text: fc.string(), note: fc.string() },
  {
    requiredKeys: ['label', 'text'],
  },
);
const detail = fc.record(
  {
    presented: fc.oneof(fc.array(option, { maxLength: 4 }), fc.constant('A')),
    correctLabel: fc.oneof(fc.constantFrom('A', 'B'), fc.constant(null)),
    reply: fc.string(),
    parsed: fc.oneof(fc.constantFrom('A', 'B'), fc.constant(null), fc.constant(2)),
    parseMethod: fc.constantFrom('answer-tag', 'leading-label', 'bare-label', 'option-text', 'none', 'guess'),
    traceMasks: fc.oneof(fc.nat(5), fc.constant(-1), fc.constant(1.5)),
    logprobs: fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 3 }),
    tokenCounts: fc.array(fc.nat(), { maxLength: 3 }),
    logprobsPerByte: fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant('x')), { maxLength: 3 }),
    extra: fc.string(),
  },
  { requiredKeys: [] },
);
/** The record's keys shuffled (or not): the check takes only the schema's order. */
const shuffled = detail.chain((d) => fc.boolean().map((reverse) => (reverse ? Object.fromEntries(Object.entries(d).reverse()) : d)));

function transcript(d: unknown, protocol: string | undefined = 'mcq'): StoredTranscript {
  return { ...(protocol ? { protocol } : {}), calls: [], detail: d } as unknown as StoredTranscript;
}

/** What a read gives: the record (as JSON, keys in order) or the error's message. */
function outcome(read: () => unknown): string {
  try {
    return `ok ${JSON.stringify(read())}`;
  } catch (err) {
    return `error ${(err as Error).message}`;
  }
}

describe('the quick reading of multiple-choice records', () => {
  it('gives what the record schema gives, for any record', () => {
    fc.assert(
      fc.property(shuffled, (d) => {
        const t = transcript(d);
        expect(outcome(() => readRecordAgain(MCQ_RECORDS, t, 'trial x'))).toBe(outcome(() => readRecord(MCQ_RECORDS, t, 'trial x')));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives a record as the protocol writes it back as it is', () => {
    const d = {
      presented: [
        { label: 'A', text: 'the box' },
        { label: 'B', text: 'the basket' },
      ],
      correctLabel: 'B',
      reply: 'Answer: B',
      parsed: 'B',
      parseMethod: 'answer-tag',
    };
    const t = transcript(d);
    expect(readRecordAgain(MCQ_RECORDS, t, 'trial x')).toBe(d);
    expect(readRecordAgain(MCQ_RECORDS, transcript(d, 'other'), 'trial x')).toBeUndefined();
  });

  it('names the trial when a record of the protocol does not parse', () => {
    const t = transcript({ presented: 'A', correctLabel: 'B' });
    expect(() => readRecordAgain(MCQ_RECORDS, t, 'trial s/i#0')).toThrow(/trial s\/i#0: stored mcq record does not parse/);
  });

  it('names the trial through a function, called for the error only', () => {
    let named = 0;
    const where = () => {
      named++;
      return 'trial s/i#1';
    };
    const good = { presented: [{ label: 'A', text: 'the box' }], correctLabel: 'A' };
    // Read quickly, read through the schema (a key the check does not know), another protocol's: no name made.
    expect(readRecordAgain(MCQ_RECORDS, transcript(good), where)).toEqual(good);
    expect(readRecordAgain(MCQ_RECORDS, transcript({ ...good, note: 'x' }), where)).toEqual(good);
    expect(readRecord(MCQ_RECORDS, transcript({ ...good, note: 'y' }), where)).toEqual(good);
    expect(readRecordAgain(MCQ_RECORDS, transcript(good, 'other'), where)).toBeUndefined();
    expect(named).toBe(0);
    expect(() => readRecordAgain(MCQ_RECORDS, transcript({ presented: 'A', correctLabel: 'B' }), where)).toThrow(
      /trial s\/i#1: stored mcq record does not parse/,
    );
    expect(named).toBe(1);
  });
});
