// The per-model rates the cross-task and scale analyses read: a published rates table (--rates)
// and a stored run's DialToM results (--run-id), together.

import { ConfigError, readText } from '../../../core/index.js';
import { withExistingRun } from '../../../cli/toolkit.js';
import { dialtomRunResults, parseRateTable, type RateRow } from '../index.js';

/** Rates from --rates FILE and/or --run-id ID (in the store --db); one of them is required. */
export async function readRates(f: { rates?: string; runId?: string; db: string }, command: string): Promise<RateRow[]> {
  if (!f.rates && !f.runId) throw new ConfigError(`${command} needs --rates FILE or --run-id ID`);
  const rows = f.rates ? parseRateTable(readText(f.rates), f.rates) : [];
  if (f.runId) rows.push(...(await withExistingRun(f.db, f.runId, async (store, id) => (await dialtomRunResults(store, id)).rates)));
  return rows;
}

/** A percentage with one decimal; '-' for NaN. */
export const pct = (x: number) => (Number.isNaN(x) ? '-' : (x * 100).toFixed(1));

/** A coefficient with its interval: "0.357 [-0.214, 0.746]". */
export const withInterval = (c: { estimate: number; lower: number; upper: number }) =>
  Number.isNaN(c.estimate)
    ? '-'
    : `${c.estimate.toFixed(3)}${Number.isNaN(c.lower) ? '' : ` [${c.lower.toFixed(3)}, ${c.upper.toFixed(3)}]`}`;
