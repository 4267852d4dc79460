// Compact transcripts (prompts stored once as content-addressed blobs) on both backends: a
// transcript reads back as it was written, to the byte; rows written before packing (packed =
// 0, as a migrated store holds them) still read; `db copy` carries the blobs; and a run of MCQ
// trials stores its transcripts in a fraction of what the whole transcripts took.

import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/index.js';
import { StoredTranscriptSchema, type TrialKey, type TrialOutcome } from '../src/core/index.js';
import { collect, copyStore, type StoredTrial } from '../src/store/index.js';
import { evaluate } from './helpers/evaluate.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-compact-'));
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server?.stop();
  await dropTestDatabases();
});

interface Backend {
  name: string;
  skip: boolean;
  fresh(tag: string): Promise<string>;
  sql(location: string, sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
}
const sqlite: Backend = {
  name: 'SQLite',
  skip: false,
  fresh: async (tag) => join(mkdtempSync(join(dir, `${tag}-`)), 'store.db'),
  sql: async (location, sql, params = []) => {
    const db = new Database(location);
    try {
      const stmt = db.prepare(sql);
      if (stmt.reader) return stmt.all(...params) as Array<Record<string, unknown>>;
      stmt.run(...params);
      return [];
    } finally {
      db.close();
    }
  },
};
/** Varints (7 bits a byte, low first) from `at`. */
function varints(b: Buffer, at: number, n: number): number[] {
  const out: number[] = [];
  while (out.length < n) {
    let v = 0;
    let scale = 1;
    for (;;) {
      const byte = b[at++]!;
      v += (byte & 0x7f) * scale;
      scale *= 128;
      if (byte < 0x80) break;
    }
    out.push(v);
  }
  return out;
}

/**
 * The texts of prompt_texts as stored: SQLite keeps blobs written together in a block of
 * transcript_blocks, each its JSON string a line (deflated alone while the store has no blob
 * dictionary, as in these small stores), each row holding [0x0e, block id, index]; PostgreSQL
 * in a block of text_blocks, a JSON array, each row holding its block and place.
 */
async function promptTexts(backend: Backend, location: string): Promise<string[]> {
  const rows = await backend.sql(
    location,
    backend === postgres
      ? 'SELECT COALESCE(p.body, (SELECT (b.body::json) ->> p.place::int FROM text_blocks b WHERE b.id = p.block)) AS body FROM prompt_texts p'
      : 'SELECT body FROM prompt_texts',
  );
  const out: string[] = [];
  for (const r of rows) {
    const body = r.body;
    if (!Buffer.isBuffer(body) || body[0] !== 0x0e) {
      out.push(String(body));
      continue;
    }
    const [id, index] = varints(body, 1, 2);
    const [block] = await backend.sql(location, 'SELECT body FROM transcript_blocks WHERE id = ?', [id]);
    const lines = inflateRawSync(block!.body as Buffer)
      .toString('utf8')
      .split('\n');
    out.push(JSON.parse(lines[index!]!) as string);
  }
  return out;
}

const postgres: Backend = {
  name: `PostgreSQL${pgSkipNote}`,
  skip: !pgAvailable,
  fresh: () => createTestSchema(),
  sql: (location, sql, params = []) =>
    pgQuery(
      location,
      sql.replace(
        /\?/g,
        (() => {
          let n = 0;
          return () => `$${++n}`;
        })(),
      ),
      params,
    ),
};

const key = (itemId: string, replicate = 0, subjectId = 's1'): TrialKey => ({ runId: 'r', subjectId, suite: 'x', itemId, replicate });

/** A transcript with what packing must keep: paragraphs, an empty message, content parts, a loglik call, odd keys. */
const transcriptOf = (story: string, reply: string) => ({
  protocol: 'mcq',
  calls: [
    {
      kind: 'chat' as const,
      messages: [
        { role: 'system' as const, content: 'You are taking a test.\n\nRead the text, then choose.' },
        { role: 'user' as const, content: `${story}\n\nQuestion: where?\nA. box\nB. bag\n\n\n\nReply "Answer: X".` },
        { role: 'assistant' as const, content: '' },
        {
          role: 'user' as const,
          content: [
            { type: 'text' as const, text: 'look' },
            { type: 'image' as const, url: 'data:x', mediaType: 'image/png' },
          ],
        },
      ],
      settings: { temperature: 0, maxTokens: 256, stop: ['\n\n'] },
      response: { text: reply, usage: { inputTokens: 40, outputTokens: 3 }, latencyMs: 330.5683509999999, finishReason: 'stop' },
      cached: false,
      attempts: 1,
      costUsd: null,
    },
    {
      kind: 'loglik' as const,
      settings: { temperature: 0, maxTokens: 1 },
      loglik: { context: 'Pick one:', continuations: [' A', ' B'], logprobs: [-0.1, -2.5e-7], tokenCounts: [1, 1] },
      cached: true,
      attempts: 1,
      costUsd: 0,
    },
  ],
  detail: {
    presented: [
      { label: 'A', text: 'box' },
      { label: 'B', text: 'bag' },
    ],
    reply,
    parsed: 'A',
    empty: {},
    nested: { deep: [1, null, 'x', { y: [] }] },
    ['__proto__']: { tricky: true },
  },
});
const outcomeOf = (story: string, reply = 'Answer: A'): TrialOutcome => ({
  transcript: JSON.parse(JSON.stringify(transcriptOf(story, reply))),
  score: { scorer: 'mcq', value: 1, detail: { parsed: 'A' } },
  usage: { inputTokens: 40, outputTokens: 3 },
  costUsd: 0,
  latencyMs: 1,
  cachedCalls: 1,
  totalCalls: 2,
});

async function seeded(location: string): Promise<Store> {
  const s = await openStore(location);
  await s.createRun({ id: 'r', createdAt: 'now', config: {} });
  await s.upsertSubject({ id: 's1', spec: 'agent:oracle', settings: {} });
  await s.upsertSubject({ id: 's2', spec: 'agent:other', settings: {} });
  await s.putItems(
    ['i1', 'i2'].map((id) => ({ hash: id, item: { suite: 'x', id, category: 'belief', payload: {}, answer: 'A', meta: {} } })),
  );
  return s;
}

const exported = async (s: Store) =>
  new Map(
    (await collect(s.exportRecords()))
      .flatMap((r) => (r.kind === 'trial' ? [r.trial] : []))
      .map((t: StoredTrial) => [`${t.subjectId}/${t.itemId}#${t.replicate}`, t.transcript]),
  );

for (const b of [sqlite, postgres]) {
  describe.skipIf(b.skip)(`compact transcripts on ${b.name}`, () => {
    it('reads back each transcript as written, to the byte, storing shared prompts once', async () => {
      const location = await b.fresh('rt');
      const s = await seeded(location);
      const stories = { i1: 'Ann put the ball in the box.\nAnn left.', i2: 'Bob put the key in the bag.' };
      for (const subject of ['s1', 's2'])
        for (const replicate of [0, 1])
          for (const [item, story] of Object.entries(stories))
            await s.recordDone(key(item, replicate, subject), item, outcomeOf(story, `Answer: ${replicate ? 'B' : 'A'}`), 1);
      // A trial recorded twice stays as first written.
      await s.recordDone(key('i1'), 'i1', outcomeOf('changed'), 1);
      const texts = await exported(s);
      for (const subject of ['s1', 's2'])
        for (const replicate of [0, 1])
          for (const [item, story] of Object.entries(stories)) {
            const original = transcriptOf(story, `Answer: ${replicate ? 'B' : 'A'}`);
            expect(texts.get(`${subject}/${item}#${replicate}`)).toBe(JSON.stringify(JSON.parse(JSON.stringify(original))));
            const read = await s.transcript(key(item, replicate, subject));
            expect(read?.transcript).toEqual(StoredTranscriptSchema.parse(JSON.parse(JSON.stringify(original))));
            expect(read?.score).toEqual({ scorer: 'mcq', value: 1, detail: { parsed: 'A' } });
          }
      await s.close();
      // 8 trials of 2 stories: the system prompt's paragraphs, each story, each message list once.
      const bodies = await promptTexts(b, location);
      expect(bodies.filter((x) => x === 'You are taking a test.')).toHaveLength(1);
      expect(bodies.filter((x) => x === 'Ann put the ball in the box.\nAnn left.')).toHaveLength(1);
      // No transcript row holds a prompt's text.
      for (const r of await b.sql(location, 'SELECT body, packed FROM transcripts')) {
        expect(Number(r.packed)).toBe(1);
        expect(String(r.body)).not.toContain('put the');
      }
    });

    it('still reads transcripts stored whole (rows from before packing) and copies both kinds with their blobs', async () => {
      const location = await b.fresh('old');
      const s = await seeded(location);
      await s.recordDone(key('i1'), 'i1', outcomeOf('Old story.'), 1);
      await s.recordDone(key('i2'), 'i2', outcomeOf('New story.'), 1);
      await s.close();
      // As a store migrated from before packing holds it: the whole JSON, packed = 0.
      const whole = JSON.stringify(transcriptOf('Old story.', 'Answer: A'));
      await b.sql(location, `UPDATE transcripts SET body = ?, packed = 0 WHERE trial_id = (SELECT id FROM trials WHERE item_id = 'i1')`, [
        whole,
      ]);
      const again = await openStore(location);
      expect((await again.transcript(key('i1')))?.transcript.calls[0]?.messages?.[1]?.content).toMatch(/^Old story\.\n\nQuestion/);
      expect((await exported(again)).get('s1/i1#0')).toBe(whole);
      await again.close();
      for (const other of [sqlite, postgres].filter((o) => !o.skip)) {
        const target = await other.fresh('copy');
        expect(await copyStore(location, target)).toMatchObject({ trials: 2 });
        const t = await openStore(target);
        expect((await exported(t)).get('s1/i1#0')).toBe(whole);
        expect((await t.transcript(key('i2')))?.transcript.calls[0]?.messages?.[1]?.content).toMatch(/^New story\.\n\nQuestion/);
        await t.close();
        // Both trials are packed in the target, their blobs with them.
        expect((await other.sql(target, 'SELECT packed FROM transcripts')).map((r) => Number(r.packed))).toEqual([1, 1]);
        const stories = (await promptTexts(other, target)).filter((x) => x.endsWith('story.'));
        expect(stories.sort()).toEqual(['New story.', 'Old story.']);
      }
    });
  });
}

describe('store size of MCQ trials', () => {
  it('keeps transcripts and their blobs under 400 bytes a trial; the messages read back are those sent', async () => {
    const location = join(mkdtempSync(join(dir, 'size-')), 'store.db');
    const store = await openStore(location);
    const spec = (m: string) => `openai-compatible:${server.url}/v1#${m}`;
    const r = await evaluate({ store, suites: ['generated-tom'], models: [spec('ok'), spec('ok2')], limit: 60, trials: 3, seed: 1 });
    expect(r.done).toBe(360);
    const sent = (await server.stats()).bodies.map((x) => JSON.stringify(x.body.messages));
    const texts = [...(await exported(store)).values()];
    await store.close();
    // The messages of the requests the server kept (it keeps a few) are those of transcripts read back.
    const read = new Set(texts.map((t) => JSON.stringify(JSON.parse(t!).calls[0].messages)));
    expect(read.size).toBe(60);
    expect(sent.length).toBeGreaterThan(0);
    for (const m of sent) expect(read).toContain(m);
    const wholeBytes = texts.reduce((n, t) => n + Buffer.byteLength(t!), 0);
    const [packed] = await sqlite.sql(location, 'SELECT SUM(LENGTH(CAST(body AS BLOB))) AS n FROM transcripts');
    const [blobs] = await sqlite.sql(location, 'SELECT SUM(LENGTH(CAST(body AS BLOB)) + 8) AS n FROM prompt_texts');
    const perTrial = (Number(packed!.n) + Number(blobs!.n)) / r.done;
    expect(wholeBytes / r.done).toBeGreaterThan(1000);
    expect(perTrial).toBeLessThan(400);
  });
});
