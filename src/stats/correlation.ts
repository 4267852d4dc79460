// Correlation coefficients: Pearson, Spearman (average ranks for ties) and Kendall's tau-b
// with the tie-corrected normal approximation R's cor.test(exact = FALSE) uses.

import { normalTwoSidedP } from './distributions.js';
import { kendallS } from './kendall-merge.js';
import { hasNaN, sameLength } from './validate.js';

export type NumArray = ArrayLike<number>;

function checkPair(x: NumArray, y: NumArray, fn = 'correlation'): number {
  return sameLength(fn, x, y);
}

/** The arithmetic mean of an array (NaN when it is empty). */
export function mean(x: NumArray): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]!;
  return s / x.length;
}

/** Pearson's r; NaN when either variable is constant or has a NaN. Unequal lengths throw. */
export function pearson(x: NumArray, y: NumArray): number {
  const n = checkPair(x, y, 'pearson');
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy);
}

/** Ranks 1..n, ties given their average rank. A NaN has no rank: it throws. */
export function rank(x: NumArray): Float64Array {
  const n = x.length;
  for (let i = 0; i < n; i++) if (Number.isNaN(x[i])) throw new Error(`rank: x[${i}] is NaN`);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a]! - x[b]!);
  const ranks = new Float64Array(n);
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && x[order[j + 1]!] === x[order[i]!]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]!] = r;
    i = j + 1;
  }
  return ranks;
}

/** Spearman's rho (Pearson's r of average ranks); NaN when either side has a NaN or is constant. */
export function spearman(x: NumArray, y: NumArray): number {
  checkPair(x, y, 'spearman');
  if (hasNaN(x) || hasNaN(y)) return Number.NaN;
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

/** From this many pairs of values on, tau-b is counted by sorting (Knight 1966), O(n log n). */
const SORTED_FROM = 64;

/**
 * Kendall's tau-b alone: the value kendallTauB reports, without the variance, for resampling
 * loops that call it thousands of times. NaN when either side is constant or has a NaN (as
 * kendallTauB); unequal lengths throw. Below 64 pairs of values every pair is compared; from 64
 * on the concordance count comes from sorting (the same integers, so the same value).
 */
export function kendallTau(x: NumArray, y: NumArray): number {
  const n = checkPair(x, y, 'kendallTau');
  if (hasNaN(x) || hasNaN(y)) return Number.NaN;
  let s = 0;
  let tiesX = 0;
  let tiesY = 0;
  if (n >= SORTED_FROM) ({ s, tiesX, tiesY } = kendallS(x, y));
  else {
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      const yi = y[i]!;
      for (let j = i + 1; j < n; j++) {
        const dx = xi - x[j]!;
        const dy = yi - y[j]!;
        if (dx === 0) tiesX++;
        if (dy === 0) tiesY++;
        const prod = dx * dy;
        s += prod > 0 ? 1 : prod < 0 ? -1 : 0;
      }
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY));
  return denom === 0 ? Number.NaN : s / denom;
}

/** Kendall's tau-b with its tie-corrected z and two-sided p (as R's cor.test, exact = FALSE); NaN throughout when a value is NaN. */
export function kendallTauB(x: NumArray, y: NumArray): KendallResult {
  const n = checkPair(x, y, 'kendallTauB');
  let s = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
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
