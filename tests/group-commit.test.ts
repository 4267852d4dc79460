import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../src/store/sql/group-commit.js';

describe('the group commit', () => {
  it("tells each write's bookkeeping whether it was committed, before the write's promise settles", async () => {
    const stored: string[] = [];
    // A batch holding 'bad' fails; its writes are then tried one at a time, and only 'bad' fails again.
    const commits = new GroupCommit<string>(async (writes) => {
      if (writes.includes('bad')) throw new Error('refused');
      stored.push(...writes);
    }, 'test.db');
    const seen: Array<[string, boolean]> = [];
    const settled: string[] = [];
    const add = (w: string) =>
      commits
        .add(w, w, (committed) => {
          // Called before the promise settles: nothing has settled for this write yet.
          expect(settled).not.toContain(w);
          seen.push([w, committed]);
        })
        .then(
          () => settled.push(w),
          () => settled.push(w),
        );
    const all = Promise.all(['a', 'bad', 'c'].map(add));
    await commits.flush().catch(() => {});
    await all;
    expect(stored).toEqual(['a', 'c']);
    expect(seen).toEqual([
      ['a', true],
      ['bad', false],
      ['c', true],
    ]);
  });

  it("makes a write's name only for an error that names it", async () => {
    const commits = new GroupCommit<string>(async (writes) => {
      if (writes.includes('bad')) throw new Error('refused');
    }, 'test.db');
    const named: string[] = [];
    const name = (w: string) => () => {
      named.push(w);
      return `write ${w}`;
    };
    const good = commits.add(name('good'), 'good');
    const bad = commits.add(name('bad'), 'bad');
    await expect(bad).rejects.toThrow('test.db: could not store write bad: refused');
    await good;
    await expect(commits.flush()).rejects.toThrow('test.db: could not store 1 write(s): write bad: refused');
    expect(named).toEqual(['bad']);
  });
});
