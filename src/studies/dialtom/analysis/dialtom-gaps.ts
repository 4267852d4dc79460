// DialToM's gaps, as the paper tests them. The retrospective-prospective gap per model and
// domain: Pearson's chi-square on the 2 x 2 table of correct and wrong counts (counts =
// round(rate x items)), with Yates' correction, and Cramer's V from that same statistic
// (sqrt(chi2 / N)): this is how Table 19 reports both. The easy-hard gap: prospective against
// prospective-easy on per-item correctness, Mann-Whitney U with the rank-biserial r.
// Positional bias: chi-square goodness of fit of chosen positions against a uniform null.

import { chiSquareGoodnessOfFit, chiSquareIndependence, mannWhitneyU } from '../../../stats/index.js';
import type { RateRow } from './rate-table.js';

export interface GapCell {
  model: string;
  domain: string;
  retrospective: number;
  prospective: number;
  itemsRetro: number;
  itemsPro: number;
  /** Null when the table has an empty column (both tasks all right or all wrong): no test is defined. */
  chi2: number | null;
  p: number | null;
  cramersV: number | null;
}

function counts(rate: number, items: number): [number, number] {
  const right = Math.round((rate / 100) * items);
  return [right, items - right];
}

/** The retrospective-prospective gap per model and domain: chi-square with Yates' correction and Cramer's V (DialToM Table 19). */
export function retroProspectiveGap(rows: RateRow[]): GapCell[] {
  const out: GapCell[] = [];
  const pairs = new Map(rows.map((r) => [`${r.model}\u0000${r.domain}`, { model: r.model, domain: r.domain }]));
  for (const { model, domain } of pairs.values()) {
    const retro = rows.find((r) => r.model === model && r.domain === domain && r.task === 'retrospective');
    const pro = rows.find((r) => r.model === model && r.domain === domain && r.task === 'prospective');
    if (!retro || !pro) continue;
    const table: [[number, number], [number, number]] = [counts(retro.rate, retro.items), counts(pro.rate, pro.items)];
    const base = { model, domain, retrospective: retro.rate, prospective: pro.rate, itemsRetro: retro.items, itemsPro: pro.items };
    if (table[0][0] + table[1][0] === 0 || table[0][1] + table[1][1] === 0) {
      out.push({ ...base, chi2: null, p: null, cramersV: null });
      continue;
    }
    const test = chiSquareIndependence(table, { correct: true });
    out.push({ ...base, chi2: test.statistic, p: test.p, cramersV: Math.sqrt(test.statistic / (retro.items + pro.items)) });
  }
  return out;
}

/** The sign convention of easyHardGap's rank-biserial r, as DialToM's Table 22 prints it. */
export const EASY_HARD_R_CONVENTION =
  'r = 1 - 2U/(n_easy n_hard), U of the easy set: negative when the easy set scores higher (DialToM Table 22)';

/**
 * The easy-hard gap of the prospective sets: Mann-Whitney U of the easy set's per-item
 * correctness (0/1) against the hard set's, and the rank-biserial r in the paper's convention
 * (EASY_HARD_R_CONVENTION: negative r means higher scores on the easy set).
 */
export function easyHardGap(
  hard: number[],
  easy: number[],
): { u: number; p: number; rankBiserial: number; convention: string; hard: number; easy: number } {
  const r = mannWhitneyU(easy, hard);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  // Every value the same in both sets: no difference to test (the z statistic is 0/0).
  const constant = [...hard, ...easy].every((v) => v === hard[0]);
  // mannWhitneyU's r is 2U/(n1 n2) - 1 (positive when its first sample is larger); the paper flips it.
  return {
    u: r.u,
    p: constant ? 1 : r.p,
    rankBiserial: -r.rankBiserial || 0,
    convention: EASY_HARD_R_CONVENTION,
    hard: mean(hard),
    easy: mean(easy),
  };
}

export interface PositionalBias {
  domain: string;
  counts: number[];
  chi2: number;
  df: number;
  p: number;
  /** Why chi2 and p are NaN (no choices at all); absent when they are defined. */
  reason?: string;
}

/** Chosen positions per domain (A, B, C, D counts), each tested and pooled. */
export function positionalBias(byDomain: Array<{ domain: string; counts: number[] }>): PositionalBias[] {
  const test = (domain: string, c: number[]) => {
    const g = chiSquareGoodnessOfFit(c);
    return { domain, counts: c, chi2: g.statistic, df: g.df, p: g.p, ...(g.reason ? { reason: g.reason } : {}) };
  };
  const out = byDomain.map((d) => test(d.domain, d.counts));
  if (byDomain.length > 1)
    out.push(
      test(
        'pooled',
        byDomain[0]!.counts.map((_, i) => byDomain.reduce((s, d) => s + d.counts[i]!, 0)),
      ),
    );
  return out;
}
