// A cached reply is what the call returned, as JSON keeps it (a latency to the microsecond): the
// same whether it is read while queued, once committed, or by another store on the same file.
// A chat reply with only the usual keys is kept as a packed array of its values (cache-rows.ts);
// the packed form must give back every value the JSON form would.

import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { packResponse, unpackResponse } from '../src/store/sql/cache-rows.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-cache-replies-'));

/** What a reply is once kept: its JSON, the latency to the microsecond where that is a number. */
function kept(reply: unknown): unknown {
  const v = JSON.parse(JSON.stringify(reply) ?? 'null') as unknown;
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as { latencyMs?: unknown }).latencyMs === 'number') {
    const o = v as { latencyMs: number };
    const us = Math.round(o.latencyMs * 1000) / 1000;
    if (Number.isFinite(us)) o.latencyMs = us;
    return JSON.parse(JSON.stringify(o)) as unknown;
  }
  return v;
}

const oddText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '\u0000', '\ud800', 'a\udc00b', '😀', '\n\n', '"\\'),
);
const oddNumber = fc.oneof(
  fc.double(),
  fc.constantFrom(-0, 5e-324, 1e-7, 1.7976931348623157e308, 1e306, Number.MAX_SAFE_INTEGER + 2, 0.1 + 0.2),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });

/** A chat reply: the usual keys in their order, any of them absent or undefined, odd values in each. */
const chatReply = fc
  .record({
    text: maybe(oddText),
    usage: maybe(
      fc.oneof(
        fc.record({ inputTokens: maybe(fc.nat()), outputTokens: maybe(fc.nat()) }),
        fc.record({ inputTokens: oddNumber, outputTokens: oddNumber }),
        fc.constant(null),
      ),
    ),
    latencyMs: maybe(oddNumber),
    logprobs: maybe(fc.array(oddNumber, { maxLength: 3 })),
    modelReported: maybe(oddText),
    finishReason: maybe(fc.constantFrom('stop', 'length', '')),
    truncated: maybe(fc.boolean()),
    reasoning: maybe(oddText),
    batch: maybe(fc.record({ id: oddText })),
  })
  .map((r) => {
    // Absent rather than undefined, at random: both forms reach the cache.
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) if (v !== undefined || k.length % 2) out[k] = v;
    return out;
  });
const anyReply = fc.oneof(chatReply, fc.jsonValue(), fc.record({ extra: oddText, text: oddText }));

describe('a cached reply', () => {
  it('packs and unpacks to what JSON keeps of it', () => {
    fc.assert(
      fc.property(anyReply, (reply) => {
        expect(unpackResponse(packResponse(reply))).toStrictEqual(kept(reply));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a usage pair with an absent count as JSON does', () => {
    const reply = { text: 'a', usage: { inputTokens: undefined, outputTokens: 2 } };
    expect(unpackResponse(packResponse(reply))).toStrictEqual({ text: 'a', usage: { outputTokens: 2 } });
  });

  it('keeps a finite latency finite', () => {
    const reply = { text: 'a', latencyMs: 1e306 };
    expect(unpackResponse(packResponse(reply))).toStrictEqual(reply);
  });

  it('keeps the first of two replies under one key, read before the commit, after it and by another store', async () => {
    const location = join(dir, 'twice.db');
    const s = await openStore(location);
    const k = 'ab'.repeat(32);
    const first = s.putCached(k, 'openai', 'm', { text: 'first' }, 'run-1');
    const second = s.putCached(k, 'openai', 'm', { text: 'second' }, 'run-2');
    const want = { value: { text: 'first' }, origin: 'run-1' };
    expect(await s.getCachedEntry(k, 'openai', 'm')).toEqual(want);
    await Promise.all([first, second]);
    expect(await s.getCachedEntry(k, 'openai', 'm')).toEqual(want);
    await s.close();
    const again = await openStore(location);
    expect(await again.getCachedEntry(k, 'openai', 'm')).toEqual(want);
    await again.close();
  });

  it('reads the same queued, committed and from another store on the file', async () => {
    const location = join(dir, 'store.db');
    const replies = fc.sample(anyReply, { numRuns: 300, seed: 7 });
    const key = (i: number) => i.toString(16).padStart(6, '0').padEnd(64, 'c');
    const s = await openStore(location);
    const writes = replies.map((r, i) => s.putCached(key(i), 'openai', `m${i % 3}`, r, i % 2 ? 'run-a' : undefined));
    for (const [i, r] of replies.entries()) expect(await s.getCached(key(i), 'openai', `m${i % 3}`)).toStrictEqual(kept(r));
    await Promise.all(writes);
    for (const [i, r] of replies.entries()) expect(await s.getCached(key(i), 'openai', `m${i % 3}`)).toStrictEqual(kept(r));
    await s.close();
    const again = await openStore(location);
    for (const [i, r] of replies.entries()) {
      const entry = await again.getCachedEntry(key(i), 'openai', `m${i % 3}`);
      expect(entry).toStrictEqual({ value: kept(r), origin: i % 2 ? 'run-a' : null });
    }
    await again.close();
  });
});
