// A stored transcript reads back as the JSON text it was recorded as, whatever it holds: texts
// with NULs, lone surrogates and paragraph breaks (paragraphs are blobs), values whose type
// changes between consecutive transcripts of one key layout (a transcript checked against the
// last one's shape must not be given that shape), long and tiny doubles, -0, large detail
// fields (kept as blobs), empty texts, texts over a block's limit, one trial a group or many. A
// store opened again (nothing remembered of what is stored) writes the same blobs again and
// reads the same transcripts, on SQLite and PostgreSQL.

import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import type { Transcript, TrialOutcome } from '../src/core/index.js';
import { collect, copyStore, type Store } from '../src/store/index.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-transcript-trip-'));
afterAll(() => dropTestDatabases());

/** Paragraphs drawn from a small pool: trials share them (stored once), and odd ones among them. */
const paragraph = fc.oneof(
  fc.constantFrom('', 'Answer with a letter.', 'Sally puts the ball in the box.', 'a\u0000b', '\ud800', 'x\udc00', '😀é', '\n', ' '),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
const text = fc.array(paragraph, { maxLength: 4 }).map((ps) => ps.join('\n\n'));
const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, 12.345678901234567, 1e21, -1e-300, Number.MAX_SAFE_INTEGER + 2),
);
/** A leaf of any JSON type, or a small object or list: the same key with another type changes the shape. */
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  text,
  number,
  fc.constantFrom(null, true, false, undefined),
  fc.constant({}),
  fc.constant([]),
  fc.array(number, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', 'b', '1', '__proto__', ''), number, { maxKeys: 2 }),
);
/** A detail field long enough to be kept as a blob. */
const bigField = fc.array(text, { minLength: 1, maxLength: 3 }).map((ts) => ({ options: ts, pad: 'o'.repeat(330) }));

const message = fc.record({
  role: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const),
  content: fc.oneof({ weight: 4, arbitrary: text }, fc.constant([{ type: 'text' as const, text: 'part\n\nof a message' }])),
});
const call = fc.record({
  kind: fc.constant('chat' as const),
  messages: fc.array(message, { maxLength: 3 }),
  settings: fc.record({ temperature: number, maxTokens: fc.nat() }),
  response: fc.record({ text, latencyMs: number, usage: fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat() }) }),
  cached: fc.boolean(),
  attempts: fc.nat(3),
  costUsd: fc.option(number, { nil: null }),
});
/** Transcripts of one key layout, their leaves' types free, so that consecutive ones often share a shape. */
const transcript: fc.Arbitrary<Transcript> = fc.record({
  protocol: fc.constantFrom('mcq', ''),
  calls: fc.array(call, { maxLength: 2 }),
  detail: fc.oneof(fc.record({ parsed: leaf, reply: leaf, options: fc.oneof(leaf, bigField), extra: fc.oneof(leaf, bigField) }), leaf),
}) as fc.Arbitrary<Transcript>;

/** Transcripts that differ from one another by a key, a value's type or a list's length only. */
const small = fc.constantFrom<unknown>(0, 'x', null, true, 1.2345678901234567, -0, {}, [], [0], { a: 0 }, { b: 0 });
const smallTranscript: fc.Arbitrary<Transcript> = fc.record({
  protocol: fc.constant('mcq'),
  calls: fc.constant([]),
  detail: fc.oneof(fc.dictionary(fc.constantFrom('a', 'b', 'c'), small, { minKeys: 1, maxKeys: 2 }), small),
}) as fc.Arbitrary<Transcript>;

const outcome = (t: Transcript, value: number): TrialOutcome => ({
  transcript: t,
  score: { scorer: 'mcq', value, detail: { parsed: 'A' } },
  usage: { inputTokens: 1, outputTokens: 1 },
  costUsd: 0,
  latencyMs: 1,
  cachedCalls: 0,
  totalCalls: 1,
});

/** The transcripts of a run as the store reads them back, by replicate, as JSON text. */
async function readBack(store: Store, runId: string): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const batch of await collect(store.runTrialBatches!(runId, { batchSize: 7 })))
    for (const t of batch) out.set(t.replicate, JSON.stringify(t.transcript));
  return out;
}

const backends = [
  { name: 'SQLite', skip: false, fresh: async () => join(mkdtempSync(join(dir, 'db-')), 'store.db'), runs: 20 },
  { name: `PostgreSQL${pgSkipNote}`, skip: !pgAvailable, fresh: () => createTestSchema(), runs: 8 },
];

for (const b of backends) {
  describe.skipIf(b.skip)(`transcripts on ${b.name}`, () => {
    it('read back as the JSON text recorded, in groups of any size, from a store opened again too', async () => {
      const location = await b.fresh();
      let store = await openStore(location);
      await store.putItems([{ hash: 'h', item: { suite: 's', id: 'i', category: 'belief', payload: {}, answer: 'A' } as never }]);
      await store.upsertSubject({ id: 'sub', spec: 'agent:oracle', settings: {} });
      let run = 0;
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(
              fc.array(fc.tuple(transcript, fc.boolean()), { minLength: 1, maxLength: 8 }),
              fc.array(fc.tuple(smallTranscript, fc.boolean()), { minLength: 1, maxLength: 12 }),
            ),
            fc.boolean(),
            async (trials, reopen) => {
              if (reopen) {
                await store.close();
                store = await openStore(location);
              }
              const runId = `r${run++}`;
              await store.createRun({ id: runId, createdAt: '2026-01-01T00:00:00.000Z', config: {} });
              // Trials marked true wait for the ones before them to commit: groups of one and of several.
              let group: Array<Promise<void>> = [];
              for (const [i, [t, alone]] of trials.entries()) {
                if (alone) {
                  await Promise.all(group);
                  group = [];
                }
                group.push(store.recordDone({ runId, subjectId: 'sub', suite: 's', itemId: 'i', replicate: i }, 'h', outcome(t, i % 2), 1));
                if (alone) await group.at(-1);
              }
              await Promise.all(group);
              const got = await readBack(store, runId);
              expect(got.size).toBe(trials.length);
              for (const [i, [t]] of trials.entries()) expect(got.get(i)).toBe(JSON.stringify(t));
            },
          ),
          { numRuns: b.runs, seed: 2026 },
        );
        // Every transcript once more from a store that remembers nothing of them.
        await store.close();
        store = await openStore(location);
        const records = await collect(store.exportRecords());
        const stored = records.flatMap((r) => (r.kind === 'trial' && r.trial.transcript !== null ? [r.trial.transcript] : []));
        expect(stored.length).toBeGreaterThan(0);
        for (const r of records)
          if (r.kind === 'trial') expect((await readBack(store, r.trial.runId)).get(r.trial.replicate)).toBe(r.trial.transcript);
        // And from copies of the store, on each backend: the same transcripts.
        await store.close();
        const targets = [join(mkdtempSync(join(dir, 'copy-')), 'store.db'), ...(pgAvailable ? [await createTestSchema()] : [])];
        for (const target of targets) {
          await copyStore(location, target);
          const copy = await openStore(target);
          try {
            for (const r of records)
              if (r.kind === 'trial') expect((await readBack(copy, r.trial.runId)).get(r.trial.replicate)).toBe(r.trial.transcript);
          } finally {
            await copy.close();
          }
        }
        store = await openStore(location);
      } finally {
        await store.close();
      }
    });
  });
}

/** A message with a lone surrogate, short or longer than a block holds, beside short ones in its group. */
const oddMessages = (long: string): Transcript[] =>
  [0, 1, 2, 3].map((i) => ({
    protocol: 'mcq',
    calls: [
      {
        kind: 'chat',
        messages: [
          { role: 'system', content: 'Answer with a letter.' },
          { role: 'user', content: i === 2 ? long : i === 3 ? 'Where is the ball?\n\nx\udc00' : `short ${i}` },
        ],
        settings: { temperature: 0, maxTokens: 1 },
        cached: false,
        attempts: 1,
        costUsd: 0,
      },
    ],
    detail: i === 1 ? { options: [long] } : { parsed: 'A' },
  }));

const places = [
  { name: 'a SQLite file', skip: false, fresh: async () => join(mkdtempSync(join(dir, 'db-')), 'store.db') },
  { name: 'SQLite in memory', skip: false, fresh: async () => ':memory:' },
  { name: `PostgreSQL${pgSkipNote}`, skip: !pgAvailable, fresh: () => createTestSchema() },
];

for (const p of places) {
  describe.skipIf(p.skip)(`texts UTF-8 cannot hold on ${p.name}`, () => {
    it('a lone surrogate in a prompt reads back as itself, and the prompt stores again from a store opened again', async () => {
      const location = await p.fresh();
      let store = await openStore(location);
      try {
        await store.putItems([{ hash: 'h', item: { suite: 's', id: 'i', category: 'belief', payload: {}, answer: 'A' } as never }]);
        await store.upsertSubject({ id: 'sub', spec: 'agent:oracle', settings: {} });
        await store.createRun({ id: 'r', createdAt: '2026-01-01T00:00:00.000Z', config: {} });
        const ts = oddMessages(`${'story \ud800 '.repeat(12_000)}\n\n${'é'.repeat(70_000)}`);
        const record = (from: number) =>
          Promise.all(
            ts.map((t, i) =>
              store.recordDone({ runId: 'r', subjectId: 'sub', suite: 's', itemId: 'i', replicate: from + i }, 'h', outcome(t, 1), 1),
            ),
          );
        await record(0);
        // One trial a group: each prompt's blobs written alone.
        for (const [i, t] of ts.entries())
          await store.recordDone({ runId: 'r', subjectId: 'sub', suite: 's', itemId: 'i', replicate: 10 + i }, 'h', outcome(t, 1), 1);
        if (location !== ':memory:') {
          await store.close();
          store = await openStore(location);
          await record(20);
        }
        const got = await readBack(store, 'r');
        for (const [replicate, text] of got) expect(text === JSON.stringify(ts[replicate % 10]), `trial ${replicate}`).toBe(true);
        expect(got.size).toBe(location === ':memory:' ? 8 : 12);
      } finally {
        await store.close();
      }
    });
  });
}
