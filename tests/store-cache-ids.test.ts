// A SQLite store's cache entries name their model and origin by number (cache_models,
// cache_origins). Once a model's and an origin's numbers are known committed, later entries are
// inserted with them instead of looking them up again: the rows must be the same as those the
// lookup makes, whichever connection named the model first, with or without an origin.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { cacheModelName } from '../src/store/sql/cache-rows.js';
import { sqliteQuery } from './helpers/sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-cache-ids-'));
/** A hex key (a store keeps its first 128 bits: they differ from key to key). */
const key = (n: number) => n.toString(16).padStart(8, '0').padEnd(64, 'a');
const reply = (text: string) => ({ text, usage: { inputTokens: 3, outputTokens: 1 }, latencyMs: 2.5 });

describe('cache entries inserted by the numbers of their model and origin', () => {
  it('hold the same model and origin as entries that looked them up, over many groups', async () => {
    const location = join(dir, 'store.db');
    // Another connection names a model first: its number is not this store's to guess.
    const other = await openStore(location);
    await other.putCached(key(1000), 'openai', 'theirs', reply('first'), 'their-run');
    await other.close();

    const s = await openStore(location);
    const written: Array<{ n: number; provider: string; model: string; origin: string | null }> = [];
    const models: Array<[string, string]> = [
      ['openai', 'mine'],
      ['openai', 'theirs'],
      ['anthropic', 'mine'],
    ];
    const origins = ['run-a', undefined, 'their-run', 'run-b'];
    // Several commits: the first names the models and origins, the later ones insert by numbers.
    for (let group = 0; group < 4; group++) {
      for (let i = 0; i < 12; i++) {
        const n = group * 100 + i;
        const [provider, model] = models[(group + i) % models.length]!;
        const origin = origins[(i + group) % origins.length];
        written.push({ n, provider, model, origin: origin ?? null });
        void s.putCached(key(n), provider, model, reply(`r${n}`), origin);
      }
      await s.flush();
    }
    // A model and origin new in a later group after the others are known by number.
    await s.putCached(key(999), 'google', 'late', reply('late'), 'run-late');
    await s.putCached(key(998), 'google', 'late', reply('late again'), 'run-late');
    written.push({ n: 999, provider: 'google', model: 'late', origin: 'run-late' });
    written.push({ n: 998, provider: 'google', model: 'late', origin: 'run-late' });
    for (const w of written) {
      const entry = await s.getCachedEntry(key(w.n), w.provider, w.model);
      expect(entry?.origin).toBe(w.origin);
    }
    await s.close();

    const rows = await sqliteQuery(
      location,
      `SELECT hex(c.key) AS key, m.provider AS provider, m.model AS model, o.origin AS origin
       FROM call_cache c JOIN cache_models m ON m.id = c.model_id LEFT JOIN cache_origins o ON o.id = c.origin_id`,
    );
    const byKey = new Map(rows.map((r) => [String(r.key).toLowerCase(), r]));
    expect(rows.length).toBe(written.length + 1);
    for (const w of written) {
      const r = byKey.get(key(w.n).slice(0, 32));
      expect({ provider: r?.provider, model: r?.model, origin: r?.origin }).toEqual({
        provider: w.provider,
        model: w.model,
        origin: w.origin,
      });
    }
  });
});

describe("a cache model's name", () => {
  it('is its provider and spec, whichever was named before', () => {
    const pairs: Array<[string, string]> = [
      ['openai', 'a'],
      ['openai', 'a'],
      ['openai', 'b'],
      ['anthropic', 'b'],
      ['openai', 'a'],
      ['open', 'aia'],
    ];
    for (const [provider, model] of pairs) expect(cacheModelName(provider, model)).toBe(`${provider}\u0000${model}`);
  });
});
