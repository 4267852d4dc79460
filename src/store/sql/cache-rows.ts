// Compact call-cache rows (schema 12). A chat response with only the usual keys is stored as a
// JSON array of its values ([mask, ...values]: the mask says which keys it has) rather than an
// object, its latency rounded to microseconds; anything else (log-likelihood results, unusual
// responses) stays a JSON object. SQLite keeps a SHA-256 key as bytes (its first 16 from schema
// 17: keyParam), created_at is
// milliseconds since the epoch, and the provider and model spec are named once, in
// cache_models. Rows copied over by the migration keep their text: readers take both forms.

import type { SqlDriver, SqlExecutor } from './driver.js';
import { digestParam, digestText } from './digest-values.js';

/** A chat response's keys in the order a response object has them (core ChatResponse). */
const KEYS = ['text', 'usage', 'latencyMs', 'logprobs', 'modelReported', 'finishReason', 'truncated', 'reasoning', 'batch'] as const;
/** Mask bit: usage is {inputTokens, outputTokens}, stored as its two numbers. */
const USAGE_PAIR = 1 << KEYS.length;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** A response's row text: a packed array when it has only the usual keys, in order; JSON otherwise. */
export function packResponse(response: unknown): string {
  // An array (no model call returns one) is wrapped, so that a row's array is always packed.
  if (Array.isArray(response)) return JSON.stringify([-1, response]);
  if (!isPlainObject(response)) return JSON.stringify(response);
  const values: unknown[] = [0];
  let mask = 0;
  let next = 0;
  for (const k of Object.keys(response)) {
    let v = response[k];
    if (v === undefined) continue;
    const at = KEYS.indexOf(k as (typeof KEYS)[number], next);
    if (at < 0 || typeof v === 'function' || typeof v === 'symbol') return JSON.stringify(response);
    next = at + 1;
    mask |= 1 << at;
    if (k === 'usage' && isPlainObject(v)) {
      const u = Object.keys(v);
      // Two numbers: an undefined count (JSON leaves it out) would come back as null.
      if (
        u.length === 2 &&
        u[0] === 'inputTokens' &&
        u[1] === 'outputTokens' &&
        typeof v.inputTokens === 'number' &&
        typeof v.outputTokens === 'number'
      ) {
        mask |= USAGE_PAIR;
        values.push(v.inputTokens, v.outputTokens);
        continue;
      }
    }
    // Microseconds are all a latency measures; the rest of the double is noise that costs bytes.
    // A latency so large that its microseconds overflow is kept as it is.
    if (k === 'latencyMs' && typeof v === 'number' && Number.isFinite(v)) {
      const us = Math.round(v * 1000) / 1000;
      if (Number.isFinite(us)) v = us;
    }
    values.push(v);
  }
  values[0] = mask;
  return JSON.stringify(values);
}

/** The response a row's text holds (packed or JSON). */
export function unpackResponse(text: string): unknown {
  const v = JSON.parse(text) as unknown;
  if (!Array.isArray(v)) return v;
  const mask = v[0] as number;
  if (mask === -1) return v[1];
  const out: Record<string, unknown> = {};
  let i = 1;
  for (let b = 0; b < KEYS.length; b++) {
    if (!(mask & (1 << b))) continue;
    const k = KEYS[b]!;
    if (k === 'usage' && mask & USAGE_PAIR) {
      out.usage = { inputTokens: v[i], outputTokens: v[i + 1] };
      i += 2;
    } else out[k] = v[i++];
  }
  return out;
}

/** A SHA-256 hex key, or the 128 bits of one that a store keeps (schema 17). */
const HEX_KEY = /^(?:[0-9a-f]{32}){1,2}$/;
/** Bytes of a hex key as stored (keyParam). */
const KEY_BYTES = 16;

/**
 * A cache key as the database holds it: a SHA-256 hex key's first 128 bits as bytes (schema 17
 * in SQLite, 18 in PostgreSQL; two requests sharing them: about 1 in 10^19 at ten billion
 * entries in one store); any other key as digest-values.ts keeps it.
 */
export function keyParam(backend: SqlDriver['backend'], key: string): string | Buffer {
  return digestParam(backend, key, HEX_KEY, KEY_BYTES);
}

/** A stored cache key as text (what callers and exports use): keyParam's inverse. */
export function keyText(stored: string | Uint8Array): string {
  return digestText(stored, KEY_BYTES);
}

/**
 * A cache entry's insert: key, provider, model spec, response, created_at, origin (the model by
 * its id in cache_models, the origin by its id in cache_origins: both named there first).
 */
export const INSERT_CACHE_ENTRY = `INSERT INTO call_cache (key, model_id, response, created_at, origin_id)
  VALUES (?, (SELECT id FROM cache_models WHERE provider = ? AND model = ?), ?, ?, (SELECT id FROM cache_origins WHERE origin = ?))
  ON CONFLICT (key) DO NOTHING`;

/**
 * INSERT_CACHE_ENTRY with the model and origin given by their ids (both known committed): key,
 * model id, response, created_at, origin id (null for none). A writer that knows them saves the
 * two lookups a row.
 */
export const INSERT_CACHE_ENTRY_BY_IDS = `INSERT INTO call_cache (key, model_id, response, created_at, origin_id)
  VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (key) DO NOTHING`;

let lastNamed: { provider: string; model: string; named: string } | undefined;

/**
 * A cache model's name as the store's memos key it: provider NUL spec. The last one is kept, the
 * same string each time (a run's calls name one or a few models), so that its lookups need not
 * join and hash it again.
 */
export function cacheModelName(provider: string, model: string): string {
  const last = lastNamed;
  if (last !== undefined && last.provider === provider && last.model === model) return last.named;
  const named = `${provider}\u0000${model}`;
  lastNamed = { provider, model, named };
  return named;
}

/** The columns that give a cache row's origin as text (joined with `LEFT JOIN cache_origins o ON o.id = c.origin_id`). */
export const CACHE_ORIGIN_JOIN = 'LEFT JOIN cache_origins o ON o.id = c.origin_id';

/** Name cache origins in cache_origins, each once, in one order for every process (as insertCacheModels). */
export async function insertCacheOrigins(tx: SqlExecutor, origins: Iterable<string>): Promise<void> {
  for (const origin of [...new Set(origins)].sort())
    await tx.run('INSERT INTO cache_origins (origin) VALUES (?) ON CONFLICT (origin) DO NOTHING', [origin]);
}

/**
 * Name cache models (provider, spec) in cache_models, each once, in one order for every process
 * (concurrent transactions naming the same models wait for each other instead of deadlocking).
 */
export async function insertCacheModels(tx: SqlExecutor, models: ReadonlyArray<[string, string]>): Promise<void> {
  const sorted = [...models].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  for (const [provider, model] of sorted)
    await tx.run('INSERT INTO cache_models (provider, model) VALUES (?, ?) ON CONFLICT (provider, model) DO NOTHING', [provider, model]);
}

/** created_at as ISO text: milliseconds since the epoch, or the text of a row written before schema 12. */
export function createdAtText(stored: number | string): string {
  return typeof stored === 'number' ? new Date(stored).toISOString() : stored;
}

/**
 * created_at from ISO text (an imported record): milliseconds when they give the same text back;
 * otherwise SQLite keeps the text as it is (PostgreSQL's column holds numbers only).
 */
export function createdAtParam(backend: SqlDriver['backend'], text: string): number | string {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return backend === 'sqlite' ? text : Date.now();
  return backend === 'sqlite' && new Date(ms).toISOString() !== text ? text : ms;
}
