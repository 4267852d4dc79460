// Chi-square tests and Cramer's V, as R's chisq.test and effectsize::cramers_v(adjust = FALSE).

import { chiSquareSf } from './distributions.js';
import { requireCounts, requireMatrix } from './validate.js';

export interface ChiSquareResult {
  statistic: number;
  df: number;
  p: number;
  expected: number[][];
  /** Whether Yates' continuity correction was applied (2 x 2 tables only). */
  yates: boolean;
}

/** Pearson's chi-square test of independence on an r x c table; Yates' correction on 2 x 2 by default. */
export function chiSquareIndependence(table: number[][], opts: { correct?: boolean } = {}): ChiSquareResult {
  const r = table.length;
  const c = table[0]?.length ?? 0;
  if (r < 2 || c < 2) throw new Error('a contingency table needs at least 2 rows and 2 columns');
  requireMatrix('chiSquareIndependence', table, { counts: true });
  const rowSums = table.map((row) => row.reduce((a, b) => a + b, 0));
  const colSums = table[0]!.map((_, j) => table.reduce((a, row) => a + row[j]!, 0));
  const n = rowSums.reduce((a, b) => a + b, 0);
  const expected = table.map((_, i) => table[0]!.map((__, j) => (rowSums[i]! * colSums[j]!) / n));
  const yates = (opts.correct ?? true) && r === 2 && c === 2;
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
  const df = (r - 1) * (c - 1);
  return { statistic, df, p: chiSquareSf(statistic, df), expected, yates };
}

/** Chi-square goodness of fit against given probabilities (uniform by default). */
export function chiSquareGoodnessOfFit(
  observed: number[],
  probabilities?: number[],
): { statistic: number; df: number; p: number; expected: number[] } {
  requireCounts('chiSquareGoodnessOfFit', 'observed', observed);
  if (probabilities) requireCounts('chiSquareGoodnessOfFit', 'probabilities', probabilities);
  const k = observed.length;
  const n = observed.reduce((a, b) => a + b, 0);
  const p = probabilities ?? observed.map(() => 1 / k);
  if (p.length !== k) throw new Error('probabilities and observed counts differ in length');
  const total = p.reduce((a, b) => a + b, 0);
  if (Math.abs(total - 1) > 1e-8) throw new Error(`probabilities sum to ${total}, not 1`);
  const expected = p.map((pi) => pi * n);
  const statistic = observed.reduce((s, o, i) => s + (o - expected[i]!) ** 2 / expected[i]!, 0);
  return { statistic, df: k - 1, p: chiSquareSf(statistic, k - 1), expected };
}

/** Cramer's V from the uncorrected chi-square statistic. */
export function cramersV(table: number[][]): number {
  const n = table.flat().reduce((a, b) => a + b, 0);
  const { statistic } = chiSquareIndependence(table, { correct: false });
  return Math.sqrt(statistic / (n * (Math.min(table.length, table[0]!.length) - 1)));
}
