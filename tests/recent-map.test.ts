// The store's memo of recently used entries (recent-map.ts): bounded to two generations, it keeps
// an entry that keeps being used however many others come and go, and lets go of one that is not.

import { expect, it } from 'vitest';
import { RecentMap } from '../src/store/sql/recent-map.js';

it('keeps what keeps being used across turnovers and lets go of the rest', () => {
  const memo = new RecentMap<string, number>(4);
  memo.set('template', 0);
  for (let i = 1; i <= 100; i++) {
    memo.set(`once-${i}`, i);
    // Used every few entries, as a template's paragraph is every trial.
    if (i % 3 === 0) expect(memo.get('template')).toBe(0);
  }
  expect(memo.has('template')).toBe(true);
  // The last entries are there; older ones used once are gone (at most two generations of four).
  expect(memo.get('once-100')).toBe(100);
  expect(memo.get('once-97')).toBe(97);
  expect(memo.has('once-90')).toBe(false);
  expect(memo.get('once-1')).toBeUndefined();
});

it('finds an entry of the previous generation and keeps it in the current one', () => {
  const memo = new RecentMap<string, string>(2);
  memo.set('a', 'A');
  memo.set('b', 'B');
  // 'c' starts a new generation: a and b are the previous one.
  memo.set('c', 'C');
  expect(memo.get('a')).toBe('A');
  // Two more turnovers of unused entries: 'a', used after the first, is still held; 'b' is not.
  memo.set('d', 'D');
  memo.set('e', 'E');
  expect(memo.get('a')).toBe('A');
  expect(memo.has('b')).toBe(false);
});
