// Cost per model call from a price table (US dollars per million tokens). The built-in table is
// a starting point, not a price list to trust: providers change prices, so a user's table
// (`--prices FILE.json|yaml`, same shape) is merged over it and wins.

import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { ConfigError } from '../core/index.js';
import type { TokenUsage } from '../core/index.js';

export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** Keys are `provider:model` or a bare model name; the longest matching prefix wins. */
export type PriceTable = Record<string, Price>;

export const DEFAULT_PRICES: PriceTable = {
  'openai:gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'openai:gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'openai:gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'openai:gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'anthropic:claude-3-5-haiku': { inputPerMTok: 0.8, outputPerMTok: 4 },
  'anthropic:claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15 },
  'google:gemini-2.5-flash': { inputPerMTok: 0.3, outputPerMTok: 2.5 },
  'google:gemini-2.5-pro': { inputPerMTok: 1.25, outputPerMTok: 10 },
};

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
    const v = value as Partial<Price>;
    if (typeof v?.inputPerMTok !== 'number' || typeof v?.outputPerMTok !== 'number') {
      throw new ConfigError(`${path}: "${key}" needs numeric inputPerMTok and outputPerMTok`);
    }
  }
  return parsed as PriceTable;
}

export function priceFor(table: PriceTable, provider: string, model: string): Price | undefined {
  const candidates = [`${provider}:${model}`, model];
  let best: { len: number; price: Price } | undefined;
  for (const [key, price] of Object.entries(table)) {
    for (const c of candidates) {
      if (c.startsWith(key) && (!best || key.length > best.len)) best = { len: key.length, price };
    }
  }
  return best?.price;
}

export function callCost(price: Price | undefined, usage: TokenUsage): number {
  if (!price) return 0;
  return (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1e6;
}
