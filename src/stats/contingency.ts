// Chi-square tests and Cramer's V, as R's chisq.test and effectsize::cramers_v(adjust = FALSE).
// Malformed tables (ragged, negative, NaN, too few rows, columns or categories) throw. A table
// with an empty margin (a row or column, or the whole table, summing to 0) has an expected count
// of 0 where the statistic divides by it: statistic and p are NaN with a `reason` (R gives NaN
// with a warning, SciPy refuses).

import { chiSquareSf } from './distributions.js';
import { requireCounts, requireMatrix } from './validate.js';

export interface ChiSquareResult {
  statistic: number;
  df: number;
  p: number;
  expected: number[][];
  /** Whether Yates' continuity correction was applied (2 x 2 tables only). */
  yates: boolean;
  /** Why statistic and p are NaN (an empty row or column); absent when they are defined. */
  reason?: string;
}

/** Pearson's chi-square test of independence on an r x c table; Yates' correction on 2 x 2 by default. NaN with a `reason` when a row or column sums to 0. */
export function chiSquareIndependence(table: number[][], opts: { correct?: boolean } = {}): ChiSquareResult {
  const r = table.length;
  const c = table[0]?.length ?? 0;
  if (r < 2 || c < 2) throw new Error(`chiSquareIndependence: a contingency table needs at least 2 rows and 2 columns, got ${r} x ${c}`);
  requireMatrix('chiSquareIndependence', table, { counts: true });
  const rowSums = table.map((row) => row.reduce((a, b) => a + b, 0));
  const colSums = table[0]!.map((_, j) => table.reduce((a, row) => a + row[j]!, 0));
  const n = rowSums.reduce((a, b) => a + b, 0);
  const expected = table.map((_, i) => table[0]!.map((__, j) => (rowSums[i]! * colSums[j]!) / n));
  const yates = (opts.correct ?? true) && r === 2 && c === 2;
  const df = (r - 1) * (c - 1);
  const emptyRow = rowSums.indexOf(0);
  const emptyColumn = colSums.indexOf(0);
  if (emptyRow >= 0 || emptyColumn >= 0) {
    const reason = `${emptyRow >= 0 ? `row ${emptyRow}` : `column ${emptyColumn}`} sums to 0: its expected counts are 0 and the test is undefined`;
    return { statistic: Number.NaN, df, p: Number.NaN, expected, yates, reason };
  }
  let statistic = 0;
  for (let i = 0; i < r; i++) {
    for (let j = 0; j < c; j++) {
      const e = expected[i]![j]!;
      // R: YATES = min(0.5, abs(x - E)); sum((abs(x - E) - YATES)^2 / E)
      const diff = Math.abs(table[i]![j]! - e);
      const d = yates ? diff - Math.min(0.5, diff) : diff;
      statistic += (d * d) / e;
    }
  }
  return { statistic, df, p: chiSquareSf(statistic, df), expected, yates };
}

/**
 * Chi-square goodness of fit against given probabilities (uniform by default). Fewer than 2
 * categories, probabilities that differ in length or do not sum to 1 throw; no observations
 * at all (every count 0) give NaN with a `reason`.
 */
export function chiSquareGoodnessOfFit(
  observed: number[],
  probabilities?: number[],
): { statistic: number; df: number; p: number; expected: number[]; reason?: string } {
  requireCounts('chiSquareGoodnessOfFit', 'observed', observed);
  const k = observed.length;
  if (k < 2) throw new Error(`chiSquareGoodnessOfFit: needs at least 2 categories, observed has ${k}`);
  if (probabilities) {
    requireCounts('chiSquareGoodnessOfFit', 'probabilities', probabilities);
    if (probabilities.length !== k)
      throw new Error(`chiSquareGoodnessOfFit: ${probabilities.length} probabilities for ${k} observed counts`);
  }
  const n = observed.reduce((a, b) => a + b, 0);
  const p = probabilities ?? observed.map(() => 1 / k);
  const total = p.reduce((a, b) => a + b, 0);
  if (Math.abs(total - 1) > 1e-8) throw new Error(`chiSquareGoodnessOfFit: probabilities sum to ${total}, not 1`);
  const expected = p.map((pi) => pi * n);
  if (n === 0) return { statistic: Number.NaN, df: k - 1, p: Number.NaN, expected, reason: 'no observations: every count is 0' };
  const statistic = observed.reduce((s, o, i) => s + (o - expected[i]!) ** 2 / expected[i]!, 0);
  return { statistic, df: k - 1, p: chiSquareSf(statistic, k - 1), expected };
}

/** Cramer's V from the uncorrected chi-square statistic; NaN where that statistic is (an empty row or column). */
export function cramersV(table: number[][]): number {
  const n = table.flat().reduce((a, b) => a + b, 0);
  const { statistic } = chiSquareIndependence(table, { correct: false });
  return Math.sqrt(statistic / (n * (Math.min(table.length, table[0]!.length) - 1)));
}
