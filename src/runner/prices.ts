// Cost per model call. Prices come from the user's table (`--prices FILE.json|yaml`, which wins)
// and otherwise from @pydantic/genai-prices, a maintained price list bundled in the package (no
// network): per model, input, output, cached-input and cache-write prices, with long-context
// tiers. A model is priced only under its exact name (or a dated snapshot of it): gpt-4.1-nano
// is never charged as gpt-4.1. A model without a price has an unknown cost, never $0.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import YAML from 'yaml';
import { ConfigError } from '../core/index.js';
import type { TokenUsage } from '../core/index.js';

/** Token prices of one model (US dollars per million tokens). */
export interface Rates {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Prompt tokens read from the provider's cache; default: the input price. */
  cachedInputPerMTok?: number;
  /** Prompt tokens written to the cache (Anthropic: 1.25x input); default: the input price. */
  cacheWritePerMTok?: number;
}

export interface Price extends Rates {
  /** Batch-API prices (half the standard ones at OpenAI, Anthropic and Google); absent: batch cost unknown. */
  batchInputPerMTok?: number;
  batchOutputPerMTok?: number;
  /** Long-context tiers: a call with at least `fromInputTokens` prompt tokens is priced at these rates instead. */
  tiers?: Array<Rates & { fromInputTokens: number }>;
}

/** Keys are `provider:model`, a bare model name, or a full spec (`openai-compatible:URL#MODEL`); matched exactly. */
export type PriceTable = Record<string, Price>;

/** Where a model's price came from. */
export type PriceSource = 'table' | 'genai-prices' | 'local' | 'unknown';

export interface PriceLookup {
  price?: Price;
  source: PriceSource;
  /** Why the price is unknown, when the price source knows the name only by a pattern. */
  note?: string;
}

/** What a price lookup needs of a model. */
export interface PricedModel {
  spec: string;
  provider: string;
  model: string;
  local: boolean;
}

/** Batch APIs cost half the standard price at all three hosted providers. */
export const BATCH_DISCOUNT = 0.5;

/** The providers whose prices genai-prices holds, by our provider prefix. */
const GENAI_PRICES_PROVIDER: Record<string, string> = { openai: 'openai', anthropic: 'anthropic', google: 'google' };

function isRates(v: unknown): v is Rates {
  const r = v as Partial<Rates> | undefined;
  const optional = (x: unknown) => x === undefined || (typeof x === 'number' && x >= 0);
  return (
    typeof r?.inputPerMTok === 'number' &&
    typeof r.outputPerMTok === 'number' &&
    r.inputPerMTok >= 0 &&
    r.outputPerMTok >= 0 &&
    optional(r.cachedInputPerMTok) &&
    optional(r.cacheWritePerMTok)
  );
}

/** Read a price table (JSON or YAML); errors name the file and the entry. */
export function loadPriceTable(path: string): PriceTable {
  let parsed: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    parsed = path.endsWith('.json') ? JSON.parse(text) : YAML.parse(text);
  } catch (err) {
    throw new ConfigError(`${path}: cannot read the price table: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object') throw new ConfigError(`${path}: expected a mapping of model to {inputPerMTok, outputPerMTok}`);
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!isRates(value)) throw new ConfigError(`${path}: "${key}" needs non-negative numeric inputPerMTok and outputPerMTok`);
    const p = value as Price;
    for (const [i, t] of (p.tiers ?? []).entries()) {
      if (!isRates(t) || typeof t.fromInputTokens !== 'number')
        throw new ConfigError(`${path}: "${key}".tiers[${i}] needs fromInputTokens and rates`);
    }
  }
  return parsed as PriceTable;
}

// --- genai-prices ------------------------------------------------------------------------

type Match = { equals: string } | { starts_with: string } | { or: Match[] } | { and: Match[] } | Record<string, unknown>;
interface Tiered {
  base: number;
  tiers: Array<{ start: number; price: number }>;
}
interface GenaiPrices {
  calcPrice(
    usage: Record<string, number>,
    model: string,
    opts: { providerId: string },
  ): { model: { id: string; match: Match }; model_price: Record<string, number | Tiered | undefined> } | null;
}

let genaiPrices: GenaiPrices | undefined;
/** Loaded on the first lookup: the package holds every provider's price list (about 50 ms to load). */
function loadGenaiPrices(): GenaiPrices {
  genaiPrices ??= createRequire(import.meta.url)('@pydantic/genai-prices') as GenaiPrices;
  return genaiPrices;
}

/** The names a genai-prices entry lists outright (equals) or as the stem of dated snapshots (starts_with). */
function namesOf(match: Match, out: Set<string> = new Set()): Set<string> {
  const m = match as Record<string, unknown>;
  if (typeof m.equals === 'string') out.add(m.equals);
  if (typeof m.starts_with === 'string') out.add(m.starts_with);
  for (const key of ['or', 'and']) if (Array.isArray(m[key])) for (const sub of m[key] as Match[]) namesOf(sub, out);
  return out;
}

/** Suffixes of dated snapshots and versions: -20250929, -2025-04-14, -05-20, -latest, -001. */
const SNAPSHOT_SUFFIX = /^(-\d{8}|-\d{4}-\d{2}-\d{2}|-\d{2}-\d{2}|-\d{2}-\d{4}|-latest|-\d{3})$/;

/** Whether `name` is one of the entry's names exactly, or a dated snapshot of one. */
export function isExactName(name: string, id: string, match: Match): boolean {
  const names = namesOf(match).add(id);
  if (names.has(name)) return true;
  for (const n of names) if (name.startsWith(n) && SNAPSHOT_SUFFIX.test(name.slice(n.length))) return true;
  return false;
}

function rateAt(v: number | Tiered | undefined, inputTokens: number): number | undefined {
  if (v === undefined || typeof v === 'number') return v;
  let price = v.base;
  for (const t of v.tiers) if (inputTokens >= t.start) price = t.price;
  return price;
}

/** genai-prices' per-model prices in our shape: base rates, tiers at each threshold, batch at half price. */
export function priceFromGenai(mp: Record<string, number | Tiered | undefined>): Price | undefined {
  const keys = {
    inputPerMTok: 'input_mtok',
    outputPerMTok: 'output_mtok',
    cachedInputPerMTok: 'cache_read_mtok',
    cacheWritePerMTok: 'cache_write_mtok',
  };
  const ratesAt = (n: number): Rates | undefined => {
    const input = rateAt(mp[keys.inputPerMTok], n);
    const output = rateAt(mp[keys.outputPerMTok], n);
    if (input === undefined || output === undefined) return undefined;
    const r: Rates = { inputPerMTok: input, outputPerMTok: output };
    const cached = rateAt(mp[keys.cachedInputPerMTok], n);
    const write = rateAt(mp[keys.cacheWritePerMTok], n);
    if (cached !== undefined) r.cachedInputPerMTok = cached;
    if (write !== undefined) r.cacheWritePerMTok = write;
    return r;
  };
  const base = ratesAt(0);
  if (!base) return undefined;
  const thresholds = new Set<number>();
  for (const v of Object.values(mp)) if (v && typeof v === 'object') for (const t of v.tiers) thresholds.add(t.start);
  const price: Price = {
    ...base,
    batchInputPerMTok: base.inputPerMTok * BATCH_DISCOUNT,
    batchOutputPerMTok: base.outputPerMTok * BATCH_DISCOUNT,
  };
  if (thresholds.size) price.tiers = [...thresholds].sort((a, b) => a - b).map((n) => ({ fromInputTokens: n, ...ratesAt(n)! }));
  return price;
}

/** Prices by model: the user's table first (exact keys), then genai-prices (exact names); local models are free. */
export class PriceBook {
  readonly #table: PriceTable;
  readonly #cache = new Map<string, PriceLookup>();

  constructor(table: PriceTable = {}) {
    this.#table = table;
  }

  /** The price of a model, where it came from, and why it is unknown when it is. */
  lookup(m: PricedModel): PriceLookup {
    let hit = this.#cache.get(m.spec);
    if (!hit) this.#cache.set(m.spec, (hit = this.#resolve(m)));
    return hit;
  }

  #resolve(m: PricedModel): PriceLookup {
    for (const key of [m.spec, `${m.provider}:${m.model}`, m.model]) {
      const p = this.#table[key];
      if (p) return { price: p, source: 'table' };
    }
    // Reference agents answer from the item; GGUF models run on this machine.
    if (m.local || m.provider === 'llamacpp') return { price: { inputPerMTok: 0, outputPerMTok: 0 }, source: 'local' };
    const providerId = GENAI_PRICES_PROVIDER[m.provider];
    if (!providerId) return { source: 'unknown' };
    const found = loadGenaiPrices().calcPrice({ input_tokens: 0, output_tokens: 0 }, m.model, { providerId });
    if (!found) return { source: 'unknown' };
    if (!isExactName(m.model, found.model.id, found.model.match))
      return { source: 'unknown', note: `the price list knows "${m.model}" only by a pattern (as ${found.model.id})` };
    const price = priceFromGenai(found.model_price);
    return price ? { price, source: 'genai-prices' } : { source: 'unknown' };
  }
}

/**
 * US dollars for one call's usage, or null when the price is unknown. Cached prompt tokens are
 * charged at the cached-input price, cache writes at the cache-write price; a call past a
 * long-context threshold is priced at that tier throughout; batch calls at batch prices.
 */
export function callCost(price: Price | undefined, usage: TokenUsage, mode: 'standard' | 'batch' = 'standard'): number | null {
  if (!price) return null;
  let rates: Rates = price;
  for (const t of price.tiers ?? []) if (usage.inputTokens >= t.fromInputTokens) rates = t;
  let scale = 1;
  let inP = rates.inputPerMTok;
  let outP = rates.outputPerMTok;
  if (mode === 'batch') {
    if (price.batchInputPerMTok === undefined || price.batchOutputPerMTok === undefined) return null;
    // Batch discounts apply to every token kind alike; tiers scale by the same factor.
    scale = price.inputPerMTok > 0 ? price.batchInputPerMTok / price.inputPerMTok : 0;
    inP = rates.inputPerMTok * scale;
    outP = price.outputPerMTok > 0 ? (rates.outputPerMTok * price.batchOutputPerMTok) / price.outputPerMTok : 0;
  }
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteInputTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - cached - written);
  const cachedP = (rates.cachedInputPerMTok ?? rates.inputPerMTok) * scale;
  const writeP = (rates.cacheWritePerMTok ?? rates.inputPerMTok) * scale;
  return (plain * inP + cached * cachedP + written * writeP + usage.outputTokens * outP) / 1e6;
}
