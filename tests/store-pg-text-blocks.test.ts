// Schema 19 on PostgreSQL (item bodies and prompt texts kept in blocks that PostgreSQL
// compresses, each row its block and place) on a store an older mindscope wrote:
// tests/fixtures/store-v16/ copied to PostgreSQL, taken back to schema 18 (every text in its
// row), more items written as schema 18 wrote them (one too long for a block), and opened again.
// Migrated, the store exports the bytes the fixture's mindscope exported (its transcripts read
// their prompt texts from blocks), gives every item back as it was, searches and filters by label
// as the fixture's SQLite store does, and copies to SQLite and back to the same bytes. Items
// written at schema 19 are kept in blocks too.

import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Item } from '../src/core/index.js';
import { openStore } from '../src/index.js';
import { collect, copyStore, type SqlStore } from '../src/store/index.js';
import { minimalOutcome } from './helpers/outcomes.js';
import { PgBlockCache } from '../src/store/sql/pg-text-blocks.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';
import { backToSchema18 } from './helpers/schema-14.js';
import { exportRun, readExports } from './helpers/store-exports.js';

afterAll(() => dropTestDatabases());

const FIXTURE = join(import.meta.dirname, 'fixtures', 'store-v16');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-pg-text-blocks-'));
const expected = readExports(FIXTURE);
const RUN = (JSON.parse(expected.jsonl.slice(0, expected.jsonl.indexOf('\n'))) as { run_id: string }).run_id;
const exportsOf = async (location: string) => (await exportRun(location, RUN, dir)).exports;

/** A copy of the fixture's SQLite store. */
function fixtureCopy(): string {
  const file = join(mkdtempSync(join(dir, 'v16-')), 'store.db');
  copyFileSync(join(FIXTURE, 'store-v16.sqlite'), file);
  return file;
}

/** Every item of a store by hash, and what the viewer finds and filters in the fixture's run. */
async function readItems(location: string, hashes: readonly string[]) {
  const store = (await openStore(location)) as SqlStore;
  try {
    const items: Record<string, Item | undefined> = {};
    for (const h of hashes) items[h] = await store.getItem(h);
    const browse = store.browser();
    const facets = await browse.facets(RUN);
    const labels: Record<string, number> = {};
    for (const l of facets.originalLabels) labels[l] = await browse.count({ runId: RUN, originalLabel: l });
    const searches: Record<string, number> = {};
    // In items and transcripts; in transcripts only (a parse method); nowhere.
    for (const q of ['hiro entered', 'the kitchen', 'answer-tag', 'zebra-none'])
      searches[q] = await browse.count({ runId: RUN, search: q });
    // Each done trial's score with its item's meta (read once an item).
    const responses = (await collect(store.responses(RUN))).map((r) => [r.itemHash, r.itemId, r.value, r.meta]);
    return { items, originalLabels: facets.originalLabels, labels, searches, responses };
  } finally {
    await store.close();
  }
}

/** Items made from one of the fixture's: each its own id and label; one with a note too long for a block. */
function extraItems(base: Item, n: number): Array<{ hash: string; item: Item }> {
  return Array.from({ length: n }, (_, i) => ({
    hash: createHash('sha256').update(`extra-${i}`).digest('hex'),
    item: {
      ...base,
      id: `extra-${i}`,
      meta: { ...base.meta, originalLabel: `extra-${i % 3}`, note: i === 5 ? 'y'.repeat(70_000) : `é ✓ "${i}"\n` },
    },
  }));
}

describe('schema 19 on a PostgreSQL store written at schema 18', () => {
  it.skipIf(!pgAvailable)(`migrated, it exports the same bytes and reads, searches and filters items as before${pgSkipNote}`, async () => {
    const fixture = fixtureCopy();
    const hashes = [
      ...new Set(
        expected.jsonl
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { item_hash: string }).item_hash),
      ),
    ];
    const truth = await readItems(fixture, hashes);
    expect(truth.searches['hiro entered']).toBeGreaterThan(0);
    expect(truth.searches['answer-tag']).toBeGreaterThan(0);
    expect(truth.responses.length).toBeGreaterThan(10);
    expect(truth.responses.every((r) => typeof (r[3] as { originalLabel?: unknown }).originalLabel === 'string')).toBe(true);
    expect(Object.keys(truth.labels).length).toBeGreaterThan(1);
    const url = await createTestSchema();
    await copyStore(fixture, url);
    for (const stmt of backToSchema18('postgres')) await pgQuery(url, stmt);
    await pgQuery(url, 'UPDATE mindscope_schema SET version = 18');
    // Items written at schema 18, each body in its row.
    const extra = extraItems(truth.items[hashes[0]!]!, 40);
    for (const { hash, item } of extra)
      await pgQuery(
        url,
        `INSERT INTO items (hash, suite, item_id, category, ability, answer, body) VALUES (decode($1, 'hex'), $2, $3, $4, $5, $6, $7)`,
        [hash, item.suite, item.id, item.category, item.ability ?? null, item.answer, JSON.stringify(item)],
      );

    // A lease taken at schema 18, by another process.
    const lease = (item: string) => ({ runId: RUN, subjectId: 'other', suite: 'generated-tom', itemId: item, replicate: 0 });
    await pgQuery(
      url,
      `INSERT INTO trial_leases (run_id, subject_id, suite, item_id, replicate, owner, expires_at) VALUES ($1, $2, $3, $4, $5, 'elsewhere:1:ab', 9e15)`,
      Object.values(lease('held')),
    );

    expect(await exportsOf(url)).toEqual(expected);
    // The lease held still, found by its key's hash; others claimed, given back, claimed again.
    const leases = await openStore(url);
    expect(await leases.claimTrials([lease('held'), lease('free'), lease('free')], 'me:2:cd', 60_000)).toEqual([
      'held',
      'claimed',
      'claimed',
    ]);
    expect(await leases.claimTrials([lease('free')], 'me:2:cd', 60_000)).toEqual(['claimed']);
    expect(await leases.claimTrials([lease('free')], 'third:3:ef', 60_000)).toEqual(['held']);
    await leases.releaseLeases('me:2:cd', [lease('free')]);
    expect(await leases.claimTrials([lease('free')], 'third:3:ef', 60_000)).toEqual(['claimed']);
    await leases.releaseLeases('elsewhere:1:ab');
    expect(await leases.claimTrials([lease('held')], 'me:2:cd', 60_000)).toEqual(['claimed']);
    expect((await leases.leaseOwners(RUN)).sort()).toEqual(['me:2:cd', 'third:3:ef']);
    await leases.close();
    const [index] = await pgQuery<{ indexdef: string }>(url, "SELECT indexdef FROM pg_indexes WHERE indexname = 'trial_leases_key'");
    expect(index!.indexdef).toContain('hashtextextended');
    const forms = (table: string, store = url) =>
      pgQuery<{ rows: number; inline: number; blocked: number; blocks: number }>(
        store,
        `SELECT COUNT(*)::int AS rows, COUNT(body)::int AS inline, COUNT(block)::int AS blocked, COUNT(DISTINCT block)::int AS blocks FROM ${table}`,
      );
    // 16 + 40 items, the long one in its row, the rest in blocks of 32.
    expect(await forms('items')).toEqual([{ rows: 56, inline: 1, blocked: 55, blocks: 2 }]);
    const [transcripts] = await forms('transcripts');
    expect(transcripts!.rows).toBeGreaterThan(20);
    expect(transcripts).toEqual({
      rows: transcripts!.rows,
      inline: 0,
      blocked: transcripts!.rows,
      blocks: Math.ceil(transcripts!.rows / 128),
    });
    const [prompts] = await forms('prompt_texts');
    expect(prompts!.rows).toBeGreaterThan(20);
    expect(prompts).toEqual({ rows: prompts!.rows, inline: 0, blocked: prompts!.rows, blocks: Math.ceil(prompts!.rows / 64) });
    // One trial's transcript read alone (its prompt texts from their block), as the fixture's store reads it.
    const first = JSON.parse(expected.jsonl.slice(0, expected.jsonl.indexOf('\n'))) as Record<string, string | number>;
    const key = {
      runId: RUN,
      subjectId: String(first.subject_id),
      suite: String(first.suite),
      itemId: String(first.item_id),
      replicate: Number(first.replicate),
    };
    const transcriptOf = async (location: string) => {
      const s = await openStore(location);
      try {
        return await s.transcript(key);
      } finally {
        await s.close();
      }
    };
    const want = await transcriptOf(fixture);
    expect(want?.transcript.calls.length).toBeGreaterThan(0);
    expect(await transcriptOf(url)).toEqual(want);
    const all = [...hashes, ...extra.map((e) => e.hash)];
    const migrated = await readItems(url, all);
    expect(migrated).toEqual({ ...truth, items: { ...truth.items, ...Object.fromEntries(extra.map((e) => [e.hash, e.item])) } });

    const lite = join(mkdtempSync(join(dir, 'copy-')), 'store.db');
    await copyStore(url, lite);
    expect(await exportsOf(lite)).toEqual(expected);
    expect(await readItems(lite, all)).toEqual(migrated);
    const again = await createTestSchema();
    await copyStore(lite, again);
    expect(await exportsOf(again)).toEqual(expected);
    // Copied, the texts are kept in blocks as a run keeps them (the long item in its row).
    expect(await forms('items', again)).toEqual([{ rows: 56, inline: 1, blocked: 55, blocks: 2 }]);
    expect(await forms('transcripts', again)).toEqual([transcripts]);
    expect(await forms('prompt_texts', again)).toEqual([prompts]);
    expect(await readItems(again, all)).toEqual(migrated);
  });

  it.skipIf(!pgAvailable)(`keeps items and transcripts written together in blocks, and reads and searches them${pgSkipNote}`, async () => {
    const fixture = fixtureCopy();
    const [first] = (await openStore(fixture).then(async (s) => {
      try {
        return [await s.getItem(JSON.parse(expected.jsonl.slice(0, expected.jsonl.indexOf('\n'))).item_hash as string)];
      } finally {
        await s.close();
      }
    })) as [Item];
    const url = await createTestSchema();
    const store = (await openStore(url)) as SqlStore;
    const extra = extraItems(first, 70);
    await store.putItems(extra);
    await store.createRun({ id: 'r', createdAt: 'now', config: {} });
    await store.upsertSubject({ id: 's', spec: 'agent:oracle', settings: {} });
    const key = (i: number) => ({ runId: 'r', subjectId: 's', suite: first.suite, itemId: extra[i % 3]!.item.id, replicate: i });
    const detail = (i: number) => ({ note: `needle-${i}.`, text: 'é ✓ "quoted"\n\\' });
    // Recorded at once: the store commits them together; one failed beside them.
    await Promise.all(
      Array.from({ length: 150 }, (_, i) => store.recordDone(key(i), extra[i % 3]!.hash, minimalOutcome(i % 2, detail(i)), 1)),
    );
    await store.recordFailed(key(150), extra[0]!.hash, 'boom-150', 2);
    await store.close();
    const [kept] = await pgQuery<{ inline: number; blocked: number; blocks: number }>(
      url,
      'SELECT COUNT(body)::int AS inline, COUNT(block)::int AS blocked, COUNT(DISTINCT block)::int AS blocks FROM transcripts',
    );
    // One block of 128; the 22 left over too short together for PostgreSQL to compress, each in its row.
    expect(kept).toEqual({ inline: 22, blocked: 128, blocks: 1 });
    const again = (await openStore(url)) as SqlStore;
    expect((await again.transcript(key(7)))?.transcript.detail).toEqual(detail(7));
    expect(await again.browser().count({ runId: 'r', search: 'needle-7.' })).toBe(1);
    expect(await again.browser().count({ runId: 'r', search: 'NEEDLE-14' })).toBe(11);
    // The search reads a transcript's stored JSON text, as before blocks: its quotes escaped.
    expect(await again.browser().count({ runId: 'r', search: 'é ✓ \\"quoted' })).toBe(150);
    expect(await again.browser().count({ runId: 'r', search: 'boom-150' })).toBe(1);
    // The items' labels and words, read from their blocks: item 1 of 3 ran 50 times, item 0 51 (the failed one too).
    expect((await again.browser().facets('r')).originalLabels).toEqual(['extra-0', 'extra-1', 'extra-2']);
    const metas = new Map((await collect(again.responses('r'))).map((r) => [r.itemId, r.meta]));
    expect(Object.fromEntries(metas)).toEqual(Object.fromEntries(extra.slice(0, 3).map((e) => [e.item.id, e.item.meta])));
    expect(await again.browser().count({ runId: 'r', originalLabel: 'extra-1' })).toBe(50);
    expect(await again.browser().count({ runId: 'r', originalLabel: 'extra-0' })).toBe(51);
    expect(await again.browser().count({ runId: 'r', search: '"id":"extra-0"' })).toBe(51);
    const read = await collect(again.runTrials('r'));
    expect(read.map((t) => (t.transcript === null ? null : (t.transcript as { detail: unknown }).detail))).toEqual([
      ...Array.from({ length: 150 }, (_, i) => detail(i)),
      null,
    ]);
    await again.close();
    const [forms] = await pgQuery<{ inline: number; blocked: number; blocks: number }>(
      url,
      'SELECT COUNT(body)::int AS inline, COUNT(block)::int AS blocked, COUNT(DISTINCT block)::int AS blocks FROM items',
    );
    expect(forms).toEqual({ inline: 1, blocked: 69, blocks: 3 });
    const reader = await openStore(url);
    for (const { hash, item } of extra) expect(await reader.getItem(hash)).toEqual(item);
    await reader.close();
  });

  it.skipIf(!pgAvailable)(`reads texts from many blocks, more than it keeps at once${pgSkipNote}`, async () => {
    const url = await createTestSchema();
    await (await openStore(url)).close();
    const texts = (b: number) => Array.from({ length: 3 }, (_, k) => `block ${b} text ${k} "é"\n`);
    for (let b = 1; b <= 100; b++) await pgQuery(url, 'INSERT INTO text_blocks (id, body) VALUES ($1, $2)', [b, JSON.stringify(texts(b))]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const cache = new PgBlockCache({
        all: async (sql, params) =>
          (
            await client.query(
              sql.replace(/\?/g, (_, i) => `$${sql.slice(0, i).split('?').length}`),
              params as unknown[],
            )
          ).rows,
      });
      for (const ids of [range(1, 50), range(40, 90), range(1, 100), [7, 7, 99]]) {
        const tagged = ids.flatMap((b) => [`b${b}.2`, `b${b}.0`, 'tinline']);
        expect(await cache.texts([...tagged, null])).toEqual([...ids.flatMap((b) => [texts(b)[2], texts(b)[0], 'inline']), null]);
      }
    } finally {
      await client.end();
    }
  });
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
