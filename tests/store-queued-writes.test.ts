// A done trial waits in the store's group commit (up to 100 ms, longer when the database is
// busy) as what is to be written: its rows' values, its packed transcript. The outcome it was
// made from (the transcript's messages and replies as objects) is not kept meanwhile: a run
// with many trials in flight would otherwise carry each one's objects through the young
// generation's collections until its group commits. Garbage collection is asked for here
// (node:v8's flag, the function from a fresh context), and a weak reference says whether the
// outcome is still held while its write is queued.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import type { Item, TrialKey, TrialOutcome } from '../src/core/index.js';
import { openStore, type Store } from '../src/index.js';
import { sqliteQuery } from './helpers/sqlite.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const item = (id: string): Item => ({ suite: 'x', id, category: 'belief', payload: {}, answer: 'a', meta: {} });
const key = (itemId: string): TrialKey => ({ runId: 'r', subjectId: 's1', suite: 'x', itemId, replicate: 0 });

/** An outcome of one chat call, its objects made afresh (nothing else holds them). */
function outcome(n: number): TrialOutcome {
  const messages = [{ role: 'user' as const, content: `Question ${n}?\n\nA) yes\nB) no` }];
  const response = { text: 'A', usage: { inputTokens: 12, outputTokens: 1 }, latencyMs: 3.5 };
  return {
    transcript: {
      protocol: 'mcq',
      calls: [{ kind: 'chat', messages, settings: { temperature: 0, maxTokens: 16 }, response, cached: false, attempts: 1, costUsd: 0 }],
      detail: { chosen: 'A', options: ['yes', 'no'] },
    },
    score: { scorer: 'mcq', value: 1, detail: { correct: true } },
    usage: { inputTokens: 12, outputTokens: 1 },
    costUsd: 0,
    latencyMs: 3.5,
    cachedCalls: 0,
    totalCalls: 1,
  };
}

/** A done trial handed to the store, and a weak reference to its calls (nothing else here holds them). */
function record(store: Store): { calls: WeakRef<object>; committed: Promise<void> } {
  const made = outcome(1);
  return { calls: new WeakRef(made.transcript.calls), committed: store.recordDone(key('i1'), 'h1', made, 1) };
}

it('a queued done trial holds its values, not its outcome, until its group commits', async () => {
  const location = join(mkdtempSync(join(tmpdir(), 'mindscope-queued-')), 'store.db');
  const store = await openStore(location);
  await store.createRun({ id: 'r', createdAt: 'now', config: {} });
  await store.upsertSubject({ id: 's1', spec: 'agent:oracle', settings: {} });
  await store.putItems([{ hash: 'h1', item: item('i1') }]);

  const { calls, committed } = record(store);
  // Past the job that made the weak reference (its target is kept until then), still queued.
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  expect(calls.deref()).toBeUndefined();

  await committed;
  const rows = await sqliteQuery(location, "SELECT status FROM trials WHERE item_id = 'i1'");
  expect(rows).toEqual([{ status: 'done' }]);
  await store.close();
});
