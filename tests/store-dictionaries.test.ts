// Values kept compressed against dictionaries trained on the store's rows (SQLite, schema 16):
// a store past the dictionaries' training keeps most transcripts and scores as framed BLOBs and
// exports byte for byte what a store of text (PostgreSQL, or the same rows before compression)
// exports; a store migrated from schema 15 exports as it did, and keeps doing so once new,
// compressed rows sit beside its old ones; the viewer's search finds text inside compressed
// transcripts; and the codec gives back any text it is given, its DEFLATE read by zlib.

import Database from 'better-sqlite3';
import fc from 'fast-check';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportInspectLogs, exportTrials, openStore, type Store } from '../src/index.js';
import type { Item, TrialKey, TrialOutcome } from '../src/core/index.js';
import { copyStore, type SqlStore } from '../src/store/index.js';
import { MIGRATIONS } from '../src/store/index.js';
import { SqliteDriver } from '../src/store/sqlite/sqlite-driver.js';
import { DictionaryDeflater, DictionaryInflater } from '../src/store/sql/dictionary-deflate.js';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { backToSchema15 } from './helpers/schema-14.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-dictionaries-'));
afterAll(() => dropTestDatabases());

const item = (i: number): Item => ({
  suite: 'toy',
  id: `i${i}`,
  category: i % 2 ? 'belief' : 'control',
  payload: { context: `Story ${i}: Sally put the ball in box ${i % 7}.\n\nAnne moved it to basket ${i % 5}.` },
  answer: 'A',
  meta: { originalLabel: i % 3 ? 'first-order' : 'reality' },
});

/** A done trial's outcome with one chat call; its reply names the item (`reply-<i>`), for search. */
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
        response: {
          text: `Answer: A (reply-${i})`,
          usage: { inputTokens: 40 + i, outputTokens: 3 },
          latencyMs: 12.345 + replicate,
          finishReason: 'stop',
        },
        cached: false,
        attempts: 1,
        costUsd: 0,
      },
    ],
    detail: { parsed: 'A', options: ['box', 'basket'], reply: `Answer: A (reply-${i})` },
  },
  score: { scorer: 'mcq-exact', value: (i + replicate) % 2, detail: { parsed: 'A', correctLabel: 'A', parseFailed: false } },
  usage: { inputTokens: 40 + i, outputTokens: 3 },
  costUsd: 0.0001 * i,
  latencyMs: 12.345,
  cachedCalls: 0,
  totalCalls: 1,
});

const ITEMS = 40;

/**
 * `n` trials of run `runId` (items cycling, one failure), and a cached reply each, fifty at a
 * time (a dictionary is trained from one group commit's rows and used from the next).
 */
async function fill(store: Store, runId: string, n: number): Promise<void> {
  await store.putItems(Array.from({ length: ITEMS }, (_, i) => ({ hash: `h${i}`, item: item(i) })));
  await store.createRun({ id: runId, createdAt: '2026-01-01T00:00:00.000Z', config: { runId } });
  await store.upsertSubject({ id: 's1', spec: 'agent:oracle', settings: {} });
  const key = (i: number): TrialKey => ({ runId, subjectId: 's1', suite: 'toy', itemId: `i${i % ITEMS}`, replicate: i });
  const writes: Array<Promise<void>> = [];
  for (let i = 0; i < n; i++) {
    if (i === 1) writes.push(store.recordFailed(key(i), `h${i % ITEMS}`, 'HTTP 500', 3));
    else writes.push(store.recordDone(key(i), `h${i % ITEMS}`, outcome(i % ITEMS, i), 1));
    writes.push(store.putCached(`${runId}-key-${i}`, 'openai', 'gpt', { text: `Answer: A (reply-${i % ITEMS})`, latencyMs: 3.5 }));
    if (i % 50 === 49) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
}

/** A run's export: the JSONL and the Inspect logs, as text. */
async function exported(store: Store, runId: string): Promise<{ jsonl: string; logs: string[] }> {
  const out = mkdtempSync(join(dir, 'export-'));
  await exportTrials(store, runId, join(out, 'trials.jsonl'));
  await exportInspectLogs(store, runId, join(out, 'logs'));
  const logs = readdirSync(join(out, 'logs'))
    .sort()
    .map((f) => readFileSync(join(out, 'logs', f), 'utf8'));
  return { jsonl: readFileSync(join(out, 'trials.jsonl'), 'utf8'), logs };
}

const sqliteFile = (tag: string) => join(mkdtempSync(join(dir, `${tag}-`)), 'store.db');

/** Rows of a SQLite table whose column is a BLOB, of all. */
function blobShare(location: string, table: string, column: string): { blobs: number; all: number } {
  const db = new Database(location, { readonly: true });
  try {
    return db.prepare(`SELECT SUM(typeof(${column}) = 'blob') AS blobs, COUNT(*) AS "all" FROM ${table}`).get() as {
      blobs: number;
      all: number;
    };
  } finally {
    db.close();
  }
}

describe('values compressed against dictionaries (SQLite)', () => {
  it('trains dictionaries once enough rows are written, and keeps most rows framed', async () => {
    const location = sqliteFile('trained');
    const store = await openStore(location);
    await fill(store, 'a', 400);
    await store.close();
    const db = new Database(location, { readonly: true });
    const kinds = (db.prepare('SELECT kind FROM dictionaries ORDER BY id').all() as Array<{ kind: string }>).map((r) => r.kind);
    db.close();
    expect(kinds).toEqual(expect.arrayContaining(['transcript', 'score', 'cache']));
    for (const [table, column] of [
      ['transcripts', 'body'],
      ['scores', 'detail'],
      ['call_cache', 'response'],
    ] as const) {
      const { blobs, all } = blobShare(location, table, column);
      expect(blobs / all, `${table}.${column}`).toBeGreaterThan(0.5);
    }
  });

  it('finds text inside compressed transcripts (the viewer search), as a store of text does', async () => {
    const location = sqliteFile('search');
    const store = await openStore(location);
    await fill(store, 'a', 200);
    const browser = (store as SqlStore).browser();
    // reply-7 is the reply of item i7's trials: i = 7, 47, 87, 127, 167 (none is the failure).
    expect(await browser.count({ runId: 'a', search: 'reply-7)' })).toBe(5);
    expect(await browser.count({ runId: 'a', search: 'REPLY-7)' })).toBe(5);
    expect(await browser.count({ runId: 'a', search: 'no such text 123' })).toBe(0);
    const page = await browser.list({ runId: 'a', search: 'reply-7)' });
    expect(page.map((r) => r.itemId)).toEqual(['i7', 'i7', 'i7', 'i7', 'i7']);
    // The label filter and the parse-failure filter read item bodies and score details.
    expect(await browser.count({ runId: 'a', parseFailed: false })).toBe(199);
    await store.close();
  });

  it.skipIf(!pgAvailable)(`exports byte for byte what the same rows copied to PostgreSQL export${pgSkipNote}`, async () => {
    const from = sqliteFile('same');
    const source = await openStore(from);
    // Enough rows for the import's first batch to train the copy's dictionaries, used by the next.
    await fill(source, 'a', 600);
    await source.close();
    const to = await createTestSchema();
    await copyStore(from, to);
    // And back into a new SQLite store, whose import trains dictionaries of its own.
    const back = sqliteFile('back');
    await copyStore(to, back);
    expect(blobShare(back, 'transcripts', 'body').blobs).toBeGreaterThan(0);
    const stores = await Promise.all([openStore(from), openStore(to), openStore(back)]);
    const [sqlite, pg, copy] = await Promise.all(stores.map((s) => exported(s, 'a')));
    expect(sqlite!.jsonl.trim().split('\n')).toHaveLength(600);
    expect(pg).toEqual(sqlite);
    expect(copy).toEqual(sqlite);
    const count = async (s: Store) => (s as SqlStore).browser().count({ runId: 'a', search: 'reply-7)' });
    expect(await count(stores[1]!)).toBe(await count(stores[0]!));
    for (const s of stores) await s.close();
  });

  it('deflates any bytes against any dictionary into DEFLATE that zlib and its own inflater read back', () => {
    const bytes = (max: number) =>
      fc.oneof(
        fc.uint8Array({ maxLength: max }),
        // Repetitive text, with matches near and far, long and short.
        fc
          .array(fc.constantFrom('ab', 'abc', 'Answer: A', '"ok-0"', '\n\n', 'x'.repeat(300), '0123456789'), { maxLength: max / 8 })
          .map((parts) => new Uint8Array(Buffer.from(parts.join('')))),
      );
    fc.assert(
      fc.property(bytes(9000), fc.array(bytes(2000), { minLength: 1, maxLength: 8 }), (dictionary, values) => {
        const deflater = new DictionaryDeflater(dictionary);
        const inflater = new DictionaryInflater(dictionary);
        for (const v of values) {
          const deflated = deflater.deflate(v);
          const back = inflateRawSync(deflated, { dictionary: dictionary.length ? dictionary : undefined });
          expect(Buffer.compare(back, Buffer.from(v))).toBe(0);
          expect(Buffer.compare(inflater.inflate(deflated)!, Buffer.from(v))).toBe(0);
          // As text, decoded in place: what the bytes decode to (and the window left as it was for the next value).
          expect(inflater.inflateText(deflated)).toBe(Buffer.from(v).toString('utf8'));
          // zlib's own DEFLATE of the same bytes: read the same, or left to zlib (dynamic codes).
          const zlibs = deflateRawSync(v, dictionary.length ? { dictionary } : {});
          const mine = inflater.inflate(zlibs);
          if (mine) expect(Buffer.compare(mine, Buffer.from(v))).toBe(0);
        }
      }),
      { seed: 17, numRuns: 150 },
    );
  });

  it('gives back any text it encodes, with or without a dictionary', async () => {
    const db = new SqliteDriver(':memory:', MIGRATIONS);
    const codec = db.codec;
    await codec.ready(db);
    codec.sample(
      'transcript',
      Array.from({ length: 200 }, (_, i) => `["shape",${i},"Answer: A","stop",false,${i * 1.5}]`),
    );
    await codec.train(db);
    expect(codec.dictionaryOf('transcript')).toBeDefined();
    expect(codec.dictionaryOf('blob')).toBeUndefined();
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 400 }), { minLength: 1, maxLength: 20 }), (texts) => {
        for (const kind of ['transcript', 'blob'] as const) for (const t of texts) expect(codec.decode(codec.encode(kind, t))).toBe(t);
      }),
      { seed: 16, numRuns: 60 },
    );
    await db.close();
  });
});

interface Backend {
  name: string;
  skip: boolean;
  fresh(tag: string): Promise<string>;
  sql(location: string, sql: string): Promise<unknown>;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    skip: false,
    fresh: async (tag) => sqliteFile(tag),
    sql: async (location, sql) => {
      const db = new Database(location);
      db.exec(sql);
      db.close();
    },
  },
  { name: `PostgreSQL${pgSkipNote}`, skip: !pgAvailable, fresh: () => createTestSchema(), sql: pgQuery },
];

for (const b of backends) {
  describe.skipIf(b.skip)(`a schema-15 store migrated to 16 on ${b.name}`, () => {
    it('exports byte for byte as before, and still does beside new compressed rows', async () => {
      const location = await b.fresh('m15');
      const store = await openStore(location);
      // Few trials: no dictionary is trained, so the rows are as schema 15 wrote them.
      await fill(store, 'old', 12);
      const before = await exported(store, 'old');
      await store.close();
      for (const stmt of backToSchema15(b.name === 'SQLite' ? 'sqlite' : 'postgres')) await b.sql(location, stmt);
      await b.sql(location, b.name === 'SQLite' ? 'PRAGMA user_version = 15' : 'UPDATE mindscope_schema SET version = 15');
      const again = await openStore(location);
      expect(await (again as SqlStore).schemaVersion()).toBe(MIGRATIONS.length);
      expect(await exported(again, 'old')).toEqual(before);
      // New rows, past the dictionaries' training (SQLite compresses them), beside the old ones.
      await fill(again, 'new', 200);
      if (b.name === 'SQLite') expect(blobShare(location, 'transcripts', 'body').blobs).toBeGreaterThan(50);
      expect(await exported(again, 'old')).toEqual(before);
      const fresh = await b.fresh('fresh');
      await copyStore(location, fresh);
      const copy = await openStore(fresh);
      expect(await exported(copy, 'new')).toEqual(await exported(again, 'new'));
      expect(await (again as SqlStore).browser().count({ runId: 'new', search: 'reply-7)' })).toBe(5);
      await copy.close();
      await again.close();
    });
  });
}
