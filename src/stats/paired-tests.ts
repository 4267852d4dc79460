// Rank and paired tests: Mann-Whitney U (tie-corrected normal approximation, as R's
// wilcox.test(exact = FALSE)) with the rank-biserial r; McNemar (corrected, uncorrected and
// exact); the two-sided exact binomial test (as R's binom.test).
//
// Degenerate data: malformed input (an empty sample, a value that is not a finite number, an
// impossible count) throws. Data that leave the test nothing to compare (every value tied, no
// discordant pair, no trial) have a null distribution with a single outcome: the observed one,
// so p = 1 exactly, as the exact conditional test gives it (SciPy's mannwhitneyu and
// statsmodels' exact McNemar agree); the result's `reason` says so. Two-sided normal p-values
// come from the upper tail of |z| (erfc), so they keep their precision far into the tail and do
// not depend on the order of the samples.

import { rank } from './correlation.js';
import { binomialPmf, chiSquareSf, normalTwoSidedP } from './distributions.js';
import { snapTies } from './ties.js';
import { requireCounts, requireFinite } from './validate.js';

export interface MannWhitneyResult {
  /** U of the first sample: the number of (x, y) pairs with x > y, ties counting 1/2. */
  u: number;
  uOther: number;
  z: number;
  p: number;
  /** r = 2U/(n1 n2) - 1 = P(x > y) - P(x < y); positive when x tends to exceed y. */
  rankBiserial: number;
  /** Set when every value is tied: the ranks cannot differ, z is 0 and p is 1. */
  reason?: string;
}

/**
 * Mann-Whitney U of x against y with the tie-corrected normal approximation (values within the
 * tie tolerance tie); p is two-sided, the same for (x, y) and (y, x). An empty sample or a value
 * that is not a finite number throws; every value tied gives z = 0 and p = 1 with a `reason`.
 */
export function mannWhitneyU(x: ArrayLike<number>, y: ArrayLike<number>, opts: { correct?: boolean } = {}): MannWhitneyResult {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) throw new Error(`mannWhitneyU: both samples need values (x has ${n1}, y has ${n2})`);
  requireFinite('mannWhitneyU', 'x', x);
  requireFinite('mannWhitneyU', 'y', y);
  const all = snapTies([...Array.from(x), ...Array.from(y)]);
  const r = rank(all);
  let rx = 0;
  for (let i = 0; i < n1; i++) rx += r[i]!;
  const u = rx - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const counts = new Map<number, number>();
  for (const v of all) counts.set(v, (counts.get(v) ?? 0) + 1);
  let ties = 0;
  for (const t of counts.values()) ties += t ** 3 - t;
  if (counts.size === 1)
    return { u, uOther: n1 * n2 - u, z: 0, p: 1, rankBiserial: 0, reason: 'every value is tied: the ranks cannot differ (p = 1)' };
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1))));
  let d = u - (n1 * n2) / 2;
  if (opts.correct ?? true) d -= Math.sign(d) * 0.5;
  const z = d / sigma;
  const p = normalTwoSidedP(z);
  return { u, uOther: n1 * n2 - u, z, p, rankBiserial: (2 * u) / (n1 * n2) - 1 };
}

/** Two-sided exact binomial test of k successes in n trials against probability p (binom.test); 1 when n = 0 (no trial, one outcome). */
export function binomialTest(k: number, n: number, p = 0.5): number {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(k) || k < 0 || k > n)
    throw new Error(`binomialTest: needs whole numbers 0 <= k <= n, got k = ${k}, n = ${n}`);
  if (!(p >= 0 && p <= 1)) throw new Error(`binomialTest: p must lie in [0, 1], got ${p}`);
  const d = binomialPmf(k, n, p);
  const relErr = 1 + 1e-7;
  let total = 0;
  for (let i = 0; i <= n; i++) {
    const pi = binomialPmf(i, n, p);
    if (pi <= d * relErr) total += pi;
  }
  return Math.min(1, total);
}

export interface McNemarResult {
  b: number;
  c: number;
  statistic: number;
  p: number;
  /** Exact two-sided p from the binomial test of b in b + c. */
  pExact: number;
  corrected: boolean;
  /** Set when no pair is discordant (b + c = 0): statistic 0, p and pExact 1. */
  reason?: string;
}

/** McNemar's test on a 2 x 2 table of paired outcomes [[a, b], [c, d]]; no discordant pair gives statistic 0 and p = pExact = 1 with a `reason`. */
export function mcnemar(table: number[][], opts: { correct?: boolean } = {}): McNemarResult {
  if (table.length !== 2 || table.some((row) => row.length !== 2)) throw new Error('mcnemar: the table must be 2 x 2');
  table.forEach((row, i) => requireCounts('mcnemar', `table[${i}]`, row));
  const b = table[0]![1]!;
  const c = table[1]![0]!;
  const corrected = opts.correct ?? true;
  if (b + c === 0) return { b, c, statistic: 0, p: 1, pExact: 1, corrected, reason: 'no discordant pairs: nothing to test (p = 1)' };
  // As R's mcnemar.test: no correction when b = c, where |b - c| - 1 would be -1 and its square
  // a positive statistic (p < 1) for a table that shows no difference at all.
  const diff = Math.abs(b - c) - (corrected && b !== c ? 1 : 0);
  const statistic = (diff * diff) / (b + c);
  return { b, c, statistic, p: chiSquareSf(statistic, 1), pExact: binomialTest(b, b + c, 0.5), corrected };
}
