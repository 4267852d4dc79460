// Correlation coefficients: Pearson, Spearman (average ranks for ties) and Kendall's tau-b
// with the tie-corrected normal approximation R's cor.test(exact = FALSE) uses.

import { normalTwoSidedP } from './distributions.js';

export type NumArray = ArrayLike<number>;

function checkPair(x: NumArray, y: NumArray): number {
  if (x.length !== y.length) throw new Error(`x and y differ in length (${x.length} and ${y.length})`);
  return x.length;
}

export function mean(x: NumArray): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / x.length;
}

/** Pearson's r; NaN when either variable is constant. */
export function pearson(x: NumArray, y: NumArray): number {
  const n = checkPair(x, y);
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy);
}

/** Ranks 1..n, ties given their average rank. */
export function rank(x: NumArray): Float64Array {
  const n = x.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b]);
  const ranks = new Float64Array(n);
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && x[order[j + 1]] === x[order[i]]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]] = r;
    i = j + 1;
  }
  return ranks;
}

export function spearman(x: NumArray, y: NumArray): number {
  checkPair(x, y);
  return pearson(rank(x), rank(y));
}

export interface KendallResult {
  tau: number;
  /** Tie-corrected z of S = concordant - discordant pairs. */
  z: number;
  p: number;
  /** With the continuity correction (|S| - 1). */
  zContinuity: number;
  pContinuity: number;
  n: number;
}

function tieSums(x: NumArray): { t2: number; t5: number; t3: number } {
  // Sums over tie groups of t(t-1), t(t-1)(2t+5), t(t-1)(t-2).
  const sorted = Array.from(x).sort((a, b) => a - b);
  let t2 = 0;
  let t5 = 0;
  let t3 = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[i]) j++;
    const t = j - i + 1;
    t2 += t * (t - 1);
    t5 += t * (t - 1) * (2 * t + 5);
    t3 += t * (t - 1) * (t - 2);
    i = j + 1;
  }
  return { t2, t5, t3 };
}

/**
 * Kendall's tau-b alone (NaN when either side is constant): the value kendallTauB reports,
 * without the variance, for resampling loops that call it thousands of times.
 */
export function kendallTau(x: NumArray, y: NumArray): number {
  const n = x.length;
  let s = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < n; i++) {
    const xi = x[i];
    const yi = y[i];
    for (let j = i + 1; j < n; j++) {
      const dx = xi - x[j];
      const dy = yi - y[j];
      if (dx === 0) tiesX++;
      if (dy === 0) tiesY++;
      const prod = dx * dy;
      s += prod > 0 ? 1 : prod < 0 ? -1 : 0;
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY));
  return denom === 0 ? Number.NaN : s / denom;
}

/** Kendall's tau-b with its tie-corrected z and two-sided p (as R's cor.test, exact = FALSE). */
export function kendallTauB(x: NumArray, y: NumArray): KendallResult {
  const n = checkPair(x, y);
  let s = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i] - x[j]);
      const dy = Math.sign(y[i] - y[j]);
      s += dx * dy;
      if (dx === 0) tiesX++;
      if (dy === 0) tiesY++;
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY));
  const tau = denom === 0 ? Number.NaN : s / denom;
  const tx = tieSums(x);
  const ty = tieSums(y);
  const variance =
    (n * (n - 1) * (2 * n + 5) - tx.t5 - ty.t5) / 18 + (tx.t3 * ty.t3) / (9 * n * (n - 1) * (n - 2)) + (tx.t2 * ty.t2) / (2 * n * (n - 1));
  const sd = Math.sqrt(variance);
  const z = s / sd;
  const zc = (Math.sign(s) * Math.max(0, Math.abs(s) - 1)) / sd;
  return { tau, z, p: normalTwoSidedP(z), zContinuity: zc, pContinuity: normalTwoSidedP(zc), n };
}
