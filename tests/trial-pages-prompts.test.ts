// A pass over a run's trials reads the prompts they sent (message lists and their paragraphs,
// kept once as blobs) a page at a time where the run's trials of an item follow one another:
// the first rows of a page are unpacked with the first row of each later batch, so that the
// prompts those start with are read in the same statements; every trial is as stored.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import type { Item, TrialOutcome } from '../src/core/index.js';
import { collect, MIGRATIONS } from '../src/store/index.js';
import { SqliteDriver } from '../src/store/sqlite/sqlite-driver.js';
import { trialBatches } from '../src/store/sql/trial-pages.js';

const ITEMS = 6;
const REPLICATES = 50;
const PAGE = 100;

const item = (i: number): Item => ({
  suite: 'toy',
  id: `i${i}`,
  category: 'belief',
  payload: { context: `Story ${i}.` },
  answer: 'A',
  meta: {},
});

/** A done trial whose one chat call sent its item's prompt (the same for every replicate). */
const outcome = (i: number, replicate: number): TrialOutcome => ({
  transcript: {
    protocol: 'toy',
    calls: [
      {
        kind: 'chat',
        messages: [
          { role: 'system', content: 'Answer with a letter.' },
          { role: 'user', content: `Story ${i}.\n\nWhere is the ball?\nA. box\nB. basket` },
        ],
        settings: { temperature: 0, maxTokens: 16, seed: replicate },
        response: { text: 'Answer: A', usage: { inputTokens: 40, outputTokens: 3 }, latencyMs: 12, finishReason: 'stop' },
        cached: false,
        attempts: 1,
        costUsd: 0,
      },
    ],
    detail: { parsed: 'A' },
  },
  score: { scorer: 'mcq-exact', value: 1, detail: { parseFailed: false } },
  usage: { inputTokens: 40, outputTokens: 3 },
  costUsd: 0,
  latencyMs: 12,
  cachedCalls: 0,
  totalCalls: 1,
});

describe("a pass over a run's trials", () => {
  it('reads the prompts of a page whose items start where its batches do in two statements, every trial as stored', async () => {
    const location = join(mkdtempSync(join(tmpdir(), 'mindscope-page-prompts-')), 'store.db');
    const store = await openStore(location);
    await store.putItems(Array.from({ length: ITEMS }, (_, i) => ({ hash: `h${i}`, item: item(i) })));
    await store.createRun({ id: 'a', createdAt: '2026-01-01T00:00:00.000Z', config: {} });
    await store.upsertSubject({ id: 's1', spec: 'agent:oracle', settings: {} });
    const writes: Array<Promise<void>> = [];
    for (let i = 0; i < ITEMS; i++)
      for (let r = 0; r < REPLICATES; r++)
        writes.push(
          store.recordDone({ runId: 'a', subjectId: 's1', suite: 'toy', itemId: `i${i}`, replicate: r }, `h${i}`, outcome(i, r), 1),
        );
    await Promise.all(writes);
    const expected = await collect(store.runTrials('a'));
    await store.close();

    const db = new SqliteDriver(location, MIGRATIONS);
    let promptReads = 0;
    const counted = new Proxy(db, {
      get(target, key) {
        if (key === 'rows')
          return (sql: string, params?: unknown[]) => {
            if (sql.includes('FROM prompt_texts')) promptReads++;
            return target.rows(sql, params);
          };
        const v = Reflect.get(target, key);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    try {
      const trials = (await collect(trialBatches(counted, 'a', PAGE))).flat();
      expect(trials).toEqual(expected);
      expect(trials).toHaveLength(ITEMS * REPLICATES);
      for (const t of trials) {
        const calls = (t.transcript as { calls: Array<{ messages: Array<{ content: string }> }> }).calls;
        expect(calls[0]!.messages[1]!.content).toBe(`Story ${t.itemId.slice(1)}.\n\nWhere is the ball?\nA. box\nB. basket`);
      }
      // Each page holds two items' trials: their lists in one statement, their paragraphs in
      // another (and the transcripts' shape once), where each item took two of its own.
      const pages = (ITEMS * REPLICATES) / PAGE;
      expect(promptReads).toBeLessThanOrEqual(2 * pages + 1);
      // A transcript that does not unpack, read ahead with the page's first rows: the trials
      // before its batch are given first, and its own batch reports it.
      await db.run(
        "UPDATE transcripts SET body = 'not json', packed = 1 WHERE trial_id = (SELECT id FROM trial_rows ORDER BY id LIMIT 1 OFFSET 50)",
      );
      const given: unknown[] = [];
      await expect(
        (async () => {
          for await (const batch of trialBatches(db, 'a', PAGE)) given.push(...batch);
        })(),
      ).rejects.toThrow();
      expect(given).toEqual(expected.slice(0, 50));
    } finally {
      await db.close();
    }
  });
});
