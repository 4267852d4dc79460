// Prompt texts PostgreSQL's text type cannot keep as they are, on a real PostgreSQL store: a
// story paragraph holding a lone UTF-16 surrogate (which a text column would turn into U+FFFD)
// or a NUL (which it refuses). Prompt texts are raw text (item bodies and transcripts are JSON,
// their escapes plain ASCII): PostgreSQL keeps such a text escaped in a block's JSON and reads it
// back in JS (SQL's `->>` refuses the escape, and with it every text of its block). A run of such
// items works end to end as on SQLite: every trial done, the trial page and search of the viewer
// as SQLite's, and exports the bytes of the SQLite store's, through copies either way.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { collect, copyStore, type SqlStore } from '../src/store/index.js';
import { startViewer } from '../src/view/index.js';
import { evaluate } from './helpers/evaluate.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';
import { exportRun } from './helpers/store-exports.js';

afterAll(() => dropTestDatabases());

const dir = mkdtempSync(join(tmpdir(), 'mindscope-pg-odd-texts-'));
const RUN = 'odd';
const ODD: Record<string, string> = { surrogate: 'a lone \ud800x surrogate', nul: 'a NUL \u0000 here' };

/** Items: every tenth one's story with a paragraph holding a lone surrogate, the one after it a NUL. */
function itemsFile(): string {
  const file = join(dir, 'items.jsonl');
  const lines = Array.from({ length: 40 }, (_, i) => {
    const odd = i % 10 === 0 ? `Sally saw ${ODD.surrogate} ${i}.` : i % 10 === 1 ? `Sally saw ${ODD.nul} ${i}.` : '';
    const context = `${odd}\n\nSally put marble ${i} in the basket and left the room for a long while.\n\nAnne moved it to the box.`;
    return JSON.stringify({ id: `it-${i}`, context, q: 'Where will Sally look?', options: ['basket', 'box'], answer: 'A' });
  });
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The run, written into a store; every trial done. */
async function run(location: string, data: string): Promise<void> {
  const store = await openStore(location);
  try {
    await evaluate({
      store,
      suites: ['mcq'],
      data,
      fields: { id: 'id', context: 'context', question: 'q', options: 'options', answer: 'answer', defaultCategory: 'belief' },
      models: ['agent:answer-key', 'agent:random'],
      trials: 3,
      runId: RUN,
    });
    const trials = await collect(store.runTrials(RUN));
    expect(trials.length).toBe(240);
    expect(trials.filter((t) => t.status !== 'done').map((t) => t.error)).toEqual([]);
  } finally {
    await store.close();
  }
}

/** What the viewer shows: a trial page of each odd item (its prompt as text), and the counts of its searches. */
async function viewed(location: string) {
  const viewer = await startViewer({ db: location });
  const store = (await openStore(location)) as SqlStore;
  try {
    const pages: Record<string, string> = {};
    for (const item of ['it-0', 'it-1', 'it-10', 'it-11']) {
      const res = await fetch(`${viewer.url}api/runs/${RUN}/trial?subject=agent:random&suite=mcq&item=${item}&replicate=2`);
      expect(res.status, await res.clone().text()).toBe(200);
      pages[item] = JSON.stringify(await res.json());
    }
    // The trial list and its facets read fields of every item's JSON (the odd ones escape a NUL
    // or a lone surrogate, which a plain cast to json refuses on PostgreSQL).
    const list = await fetch(`${viewer.url}api/runs/${RUN}/trials?limit=500`);
    expect(list.status, await list.clone().text()).toBe(200);
    const { total, rows } = (await list.json()) as { total: number; rows: Array<Record<string, unknown>> };
    pages.list = JSON.stringify({
      total,
      items: rows.map((r) => `${r.subjectId} ${r.itemId} ${r.replicate} ${r.score} ${r.originalLabel} ${r.parseFailed}`).sort(),
    });
    const facets = await fetch(`${viewer.url}api/runs/${RUN}/facets`);
    expect(facets.status, await facets.clone().text()).toBe(200);
    pages.facets = JSON.stringify(await facets.json());
    const searches: Record<string, number> = {};
    for (const q of ['lone', 'a nul', 'marble 1 ', 'zebra-none']) searches[q] = await store.browser().count({ runId: RUN, search: q });
    return { pages, searches };
  } finally {
    await store.close();
    await viewer.close();
  }
}

describe('prompt texts a PostgreSQL text cannot keep', () => {
  it.skipIf(!pgAvailable)(`a run of items with a lone surrogate or a NUL works as on SQLite${pgSkipNote}`, async () => {
    const data = itemsFile();
    const lite = join(dir, 'run.db');
    await run(lite, data);
    const truth = await viewed(lite);
    // Each page shows its paragraph as written (JSON escapes the surrogate and the NUL).
    expect(truth.pages['it-10']).toContain(JSON.stringify(ODD.surrogate).slice(1, -1));
    expect(truth.pages['it-11']).toContain(JSON.stringify(ODD.nul).slice(1, -1));
    expect(truth.searches).toMatchObject({ lone: 24, 'a nul': 24, 'zebra-none': 0 });
    const expected = (await exportRun(lite, RUN, dir)).exports;

    // Written by the run on PostgreSQL.
    const direct = await createTestSchema();
    await run(direct, data);
    const shown = await viewed(direct);
    // The same pages but for the time each trial took and finished.
    const timeless = (page: string) => page.replace(/"(finishedAt|latencyMs|startedAt)":[^,}]*/g, '');
    expect(Object.values(shown.pages).map(timeless)).toEqual(Object.values(truth.pages).map(timeless));
    expect(shown.searches).toEqual(truth.searches);
    // The odd texts in blocks, escaped; no row holds U+FFFD in their place.
    const [kept] = await pgQuery<{ odd: number; replaced: number }>(
      direct,
      `SELECT COUNT(*) FILTER (WHERE b.body LIKE '%\\\\ud800x%' OR b.body LIKE '%\\\\u0000 here%')::int AS odd,
              (SELECT COUNT(*) FROM prompt_texts WHERE body LIKE '%' || chr(65533) || '%')::int AS replaced
       FROM text_blocks b`,
    );
    expect(kept).toEqual({ odd: expect.any(Number), replaced: 0 });
    expect(kept!.odd).toBeGreaterThan(0);

    // Copied from SQLite to PostgreSQL, back to SQLite and on to PostgreSQL: the SQLite store's exports.
    const copy = await createTestSchema();
    await copyStore(lite, copy);
    expect((await exportRun(copy, RUN, dir)).exports).toEqual(expected);
    expect(await viewed(copy)).toEqual(truth);
    const back = join(mkdtempSync(join(dir, 'back-')), 'store.db');
    await copyStore(copy, back);
    expect((await exportRun(back, RUN, dir)).exports).toEqual(expected);
    const again = await createTestSchema();
    await copyStore(back, again);
    expect((await exportRun(again, RUN, dir)).exports).toEqual(expected);
  });
});
