// A run's trials streamed in keyset pages (Store.runTrials, runTrialSummaries and the exports
// built on them), on both backends: every batch size gives exactly the run's N trials, in the
// order stored (with their transcripts, or as summaries without), the same records the
// whole-store export holds, whatever other runs are interleaved with it; and a run copied from
// SQLite to PostgreSQL exports byte for byte the same JSONL and Inspect logs.

import fc from 'fast-check';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportInspectLogs, exportTrials, openStore, runTrialRows } from '../src/index.js';
import type { Item, TrialKey, TrialOutcome } from '../src/core/index.js';
import { collect, copyStore, type RunTrial, type Store } from '../src/store/index.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-run-trials-'));
afterAll(() => dropTestDatabases());

const item = (i: number): Item => ({
  suite: 'toy',
  id: `i${i}`,
  category: i % 2 ? 'belief' : 'control',
  payload: { context: `Story ${i}.\n\nAnother paragraph of story ${i}.` },
  answer: 'A',
  meta: { originalLabel: i % 3 ? 'first-order' : 'reality' },
});

/** A done trial's outcome with one chat call (its prompt goes through the packed blobs). */
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
        settings: { temperature: 0, maxTokens: 16, seed: i * 7 + replicate },
        response: { text: 'Answer: A', usage: { inputTokens: 40 + i, outputTokens: 3 }, latencyMs: 12.345, finishReason: 'stop' },
        cached: false,
        attempts: 1,
        costUsd: 0,
      },
    ],
    detail: { parsed: 'A', options: ['box', 'basket'], reply: 'Answer: A' },
  },
  score: { scorer: 'mcq-exact', value: (i + replicate) % 2, detail: { parsed: 'A', correctLabel: 'A', parseFailed: false } },
  usage: { inputTokens: 40 + i, outputTokens: 3 },
  costUsd: 0.0001 * i,
  latencyMs: 12.345,
  cachedCalls: 0,
  totalCalls: 1,
});

/** A store holding `n` trials of run "a" interleaved with trials of run "b" (and one failure in each). */
async function fill(store: Store, n: number): Promise<void> {
  const items = Array.from({ length: Math.max(n, 2) }, (_, i) => item(i));
  await store.putItems(items.map((it, i) => ({ hash: `h${i}`, item: it })));
  for (const runId of ['a', 'b']) await store.createRun({ id: runId, createdAt: '2026-01-01T00:00:00.000Z', config: { runId } });
  await store.upsertSubject({ id: 's1', spec: 'agent:oracle', settings: {} });
  const key = (runId: string, i: number): TrialKey => ({
    runId,
    subjectId: 's1',
    suite: 'toy',
    itemId: `i${i % items.length}`,
    replicate: i,
  });
  // Queued together (one group commit): the order stored is the order recorded.
  const writes: Array<Promise<void>> = [];
  for (let i = 0; i < n; i++) {
    const k = key('a', i);
    if (i === 1) writes.push(store.recordFailed(k, `h${i % items.length}`, 'HTTP 500', 3));
    else writes.push(store.recordDone(k, `h${i % items.length}`, outcome(i % items.length, i), 1));
    if (i % 3 === 0) writes.push(store.recordDone(key('b', i), `h${i % items.length}`, outcome(i % items.length, i), 1));
  }
  await Promise.all(writes);
}

/** The run's trials as the whole-store export holds them, transcripts parsed (as runTrials gives them). */
const fromExport = async (store: Store, runId: string): Promise<RunTrial[]> =>
  (await collect(store.exportRecords())).flatMap((r) =>
    r.kind === 'trial' && r.trial.runId === runId
      ? [{ ...r.trial, transcript: r.trial.transcript === null ? null : (JSON.parse(r.trial.transcript) as unknown) }]
      : [],
  );

interface Backend {
  name: string;
  skip: boolean;
  fresh(tag: string): Promise<string>;
  runs: number;
}
const backends: Backend[] = [
  { name: 'SQLite', skip: false, fresh: async (tag) => join(mkdtempSync(join(dir, `${tag}-`)), 'store.db'), runs: 20 },
  { name: `PostgreSQL${pgSkipNote}`, skip: !pgAvailable, fresh: () => createTestSchema(), runs: 6 },
];

for (const b of backends) {
  describe.skipIf(b.skip)(`a run's trials streamed in batches on ${b.name}`, () => {
    it('yields exactly the run’s N trials, in the order stored, for batch sizes around the boundaries', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 23 }),
          fc.integer({ min: -2, max: 2 }),
          fc.integer({ min: 1, max: 30 }),
          fc.boolean(),
          async (n, near, any, atBoundary) => {
            const store = await openStore(await b.fresh('prop'));
            try {
              await fill(store, n);
              const batchSize = atBoundary ? Math.max(1, n + near) : any;
              const streamed = await collect(store.runTrials('a', { batchSize }));
              expect(streamed).toHaveLength(n);
              expect(streamed.map((t) => t.replicate)).toEqual(Array.from({ length: n }, (_, i) => i));
              expect(streamed).toEqual(await fromExport(store, 'a'));
              // The same trials a few at a time (those unpacked together): no batch empty, none over 25.
              const batches = await collect(store.runTrialBatches!('a', { batchSize }));
              expect(batches.every((x) => x.length > 0 && x.length <= 25)).toBe(true);
              expect(batches.flat()).toEqual(streamed);
              const rows = await collect(runTrialRows(store, 'a', undefined, batchSize));
              expect(rows.map((r) => [r.itemId, r.replicate, r.status, r.score])).toEqual(
                streamed.map((t) => [t.itemId, t.replicate, t.status, t.scores[0]?.value ?? null]),
              );
              // A store without runTrialBatches and itemReader is read through runTrials and getItem: the same rows.
              const oneByOne = {
                exportRecords: () => store.exportRecords(),
                runTrials: (runId: string, options?: { batchSize?: number }) => store.runTrials(runId, options),
                getItem: (hash: string) => store.getItem(hash),
              } as unknown as Store;
              expect(await collect(runTrialRows(oneByOne, 'a', undefined, batchSize))).toEqual(rows);
              // The same trials without transcripts or score details.
              expect(await collect(store.runTrialSummaries('a', { batchSize }))).toEqual(
                streamed.map((t) => ({
                  subjectId: t.subjectId,
                  suite: t.suite,
                  itemId: t.itemId,
                  replicate: t.replicate,
                  status: t.status,
                  inputTokens: t.inputTokens,
                  outputTokens: t.outputTokens,
                  costUsd: t.costUsd,
                  unpricedCalls: t.unpricedCalls,
                  finishedAt: t.finishedAt,
                  scores: t.scores.map((s) => ({ scorer: s.scorer, value: s.value })),
                })),
              );
            } finally {
              await store.close();
            }
          },
        ),
        { numRuns: b.runs, seed: 33 },
      );
    });

    it('gives trials that sent the same prompt one message list, frozen: no reader changes another trial’s', async () => {
      const store = await openStore(await b.fresh('shared'));
      try {
        await fill(store, 6);
        // Items i0..i5 once each in run "a"; run "b" sent i0 and i3 again: the same prompts.
        const a = await collect(store.runTrials('a', { batchSize: 2 }));
        const bs = await collect(store.runTrials('b', { batchSize: 1 }));
        type Calls = { calls: Array<{ messages: Array<{ content: string }> }> };
        const messagesOf = (t: RunTrial) => (t.transcript as Calls).calls[0]!.messages;
        const a0 = messagesOf(a.find((t) => t.itemId === 'i0')!);
        expect(messagesOf(bs.find((t) => t.itemId === 'i0')!)).toEqual(a0);
        expect(Object.isFrozen(a0) && a0.every((m) => Object.isFrozen(m))).toBe(true);
        expect(() => {
          a0[0]!.content = 'changed';
        }).toThrow(TypeError);
        expect(() => a0.push({ content: 'more' })).toThrow(TypeError);
        expect(a0[0]!.content).toBe('Answer with a letter.');
      } finally {
        await store.close();
      }
    });

    it('refuses a batch size that is not a positive integer', async () => {
      const store = await openStore(await b.fresh('bad'));
      try {
        await expect(collect(store.runTrials('a', { batchSize: 0 }))).rejects.toThrow(/batch size 0/);
        await expect(collect(store.runTrialSummaries('a', { batchSize: 0 }))).rejects.toThrow(/batch size 0/);
      } finally {
        await store.close();
      }
    });
  });
}

describe.skipIf(!pgAvailable)(`the same run exported from SQLite and PostgreSQL${pgSkipNote}`, () => {
  it('gives byte-identical JSONL and Inspect logs', async () => {
    const from = await backends[0]!.fresh('same');
    const to = await createTestSchema();
    const source = await openStore(from);
    await fill(source, 17);
    await source.close();
    await copyStore(from, to);
    const sqlite = await openStore(from);
    const pg = await openStore(to);
    const out = mkdtempSync(join(dir, 'same-'));
    for (const [name, s] of [
      ['sqlite', sqlite],
      ['pg', pg],
    ] as const) {
      await exportTrials(s, 'a', join(out, `${name}.jsonl`));
      await exportInspectLogs(s, 'a', join(out, `${name}-logs`));
    }
    const jsonl = readFileSync(join(out, 'sqlite.jsonl'), 'utf8');
    expect(jsonl.trim().split('\n')).toHaveLength(17);
    expect(readFileSync(join(out, 'pg.jsonl'), 'utf8')).toBe(jsonl);
    const logs = (name: string) => readdirSync(join(out, name)).map((f) => readFileSync(join(out, name, f), 'utf8'));
    expect(logs('pg-logs')).toEqual(logs('sqlite-logs'));
    await sqlite.close();
    await pg.close();
  });
});
