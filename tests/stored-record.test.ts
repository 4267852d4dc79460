// A stored trial's record is read through its protocol's schemas; readers of a run's trials get
// details that share an item's presented options (frozen by the store's reader), and such a
// record is parsed once per distinct detail: what the schema gives, whatever the detail's object.

import { describe, expect, it } from 'vitest';
import { readRecordAgain } from '../src/app/stored-record.js';
import { MCQ_RECORDS, readRecord, type StoredTranscript } from '../src/core/index.js';

const presented = Object.freeze([Object.freeze({ label: 'A', text: 'box' }), Object.freeze({ label: 'B', text: 'basket' })]);
const transcript = (detail: Record<string, unknown>): StoredTranscript => ({ protocol: 'mcq', calls: [], detail });

describe('a record read again', () => {
  it('gives what the schema gives, for details that share a frozen value and for details that do not', () => {
    const details = [
      { presented, correctLabel: 'A', reply: 'Answer: A', parsed: 'A', parseMethod: 'answer-tag' },
      { presented, correctLabel: 'A', reply: 'Answer: B', parsed: 'B', parseMethod: 'answer-tag' },
      { presented, correctLabel: 'A', reply: 'Answer: A', parsed: 'A', parseMethod: 'answer-tag' },
      { presented, correctLabel: 'A', reply: 'Answer: A', parsed: null, parseMethod: 'none' },
      { presented: [...presented], correctLabel: 'A', reply: 'Answer: A', parsed: 'A', parseMethod: 'answer-tag' },
      { presented, correctLabel: 'A', reply: 'Answer: A', parsed: 'A' },
    ];
    const records = details.map((d) => readRecordAgain(MCQ_RECORDS, transcript({ ...d }), 'trial'));
    details.forEach((d, i) => expect(records[i]).toEqual(readRecord(MCQ_RECORDS, transcript({ ...d }), 'trial')));
    // The same shared value beside the same plain values: one record, read once.
    expect(records[2]).toBe(records[0]);
    expect(records[1]).not.toBe(records[0]);
    expect(records[5]).not.toEqual(records[0]);
  });

  it('refuses a detail of the protocol that does not parse, every time it is asked', () => {
    const bad = () => readRecordAgain(MCQ_RECORDS, transcript({ presented, correctLabel: 7 }), 'trial t1');
    expect(bad).toThrow(/trial t1: stored mcq record does not parse/);
    expect(bad).toThrow(/trial t1/);
  });
});
