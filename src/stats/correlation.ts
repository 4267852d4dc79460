// Correlation coefficients: Pearson, Spearman (average ranks for ties) and Kendall's tau-b
// with the tie-corrected normal approximation R's cor.test(exact = FALSE) uses.
//
// Degenerate data give NaN, never a number: fewer than 3 pairs (two points always correlate
// +-1), a value that is not a finite number (NaN or an infinity), or a variable that is constant (every value tied, up to rounding noise: see
// ties.ts). Functions that return a result object say why in its `reason`;
// correlationUndefinedReason gives the same reason to callers of those that return a number.
// Unequal lengths are an error in the call, and throw.

import { normalTwoSidedP } from './distributions.js';
import { kendallS } from './kendall-merge.js';
import { isConstant, snapTies, tieTolerance } from './ties.js';
import { hasNonFinite, sameLength } from './validate.js';

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

/** Fewer pairs than this and a correlation is undefined (two points always lie on a line). */
export const MIN_CORRELATION_PAIRS = 3;

/**
 * Why a correlation of x and y is undefined (NaN), or undefined when it is defined: fewer than
 * 3 pairs, a value that is not a finite number, or a constant variable (all values tied up to rounding noise). Unequal
 * lengths throw. `names` label the two variables in the reason.
 */
export function correlationUndefinedReason(x: NumArray, y: NumArray, names: [string, string] = ['x', 'y']): string | undefined {
  const n = sameLength('correlation', x, y, names);
  if (n < MIN_CORRELATION_PAIRS) return `${n} pair${n === 1 ? '' : 's'} of values: a correlation needs at least ${MIN_CORRELATION_PAIRS}`;
  if (hasNonFinite(x)) return `${names[0]} has a value that is not a finite number`;
  if (hasNonFinite(y)) return `${names[1]} has a value that is not a finite number`;
  if (isConstant(x)) return `${names[0]} is constant: the correlation is undefined`;
  if (isConstant(y)) return `${names[1]} is constant: the correlation is undefined`;
  return undefined;
}

/** Pearson's r; NaN when there are fewer than 3 pairs, a value that is not finite, or a constant variable (correlationUndefinedReason). Unequal lengths throw. */
export function pearson(x: NumArray, y: NumArray): number {
  const n = checkPair(x, y, 'pearson');
  if (n < MIN_CORRELATION_PAIRS || hasNonFinite(x) || hasNonFinite(y) || isConstant(x) || isConstant(y)) return Number.NaN;
  // r does not change when a variable is scaled; values of a magnitude whose squares (or sums)
  // would overflow or underflow are scaled to about 1 first, so that 1e200, 2e200, 3e200 do not
  // give an infinite sum of squares (and r = 0) nor 1e-200, 2e-200, 3e-200 a zero one (NaN).
  const sx = magnitudeScale(x);
  const sy = magnitudeScale(y);
  const mx = sx === 1 ? mean(x) : scaledMean(x, sx);
  const my = sy === 1 ? mean(y) : scaledMean(y, sy);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! / sx - mx;
    const dy = y[i]! / sy - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy);
}

/** 1 for values of ordinary magnitude (the largest within [1e-50, 1e50]: the product of two sums of squares stays finite and non-zero), else the largest magnitude, a power of 2. */
function magnitudeScale(x: NumArray): number {
  let largest = 0;
  for (let i = 0; i < x.length; i++) largest = Math.max(largest, Math.abs(x[i]!));
  if (largest >= 1e-50 && largest <= 1e50) return 1;
  return 2 ** Math.floor(Math.log2(largest));
}

function scaledMean(x: NumArray, scale: number): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! / scale;
  return s / x.length;
}

/**
 * Ranks 1..n, ties given their average rank; values within the tie tolerance (ties.ts: 1e-12 of
 * the largest magnitude) tie. A NaN has no rank: it throws.
 */
export function rank(x0: NumArray): Float64Array {
  const n = x0.length;
  for (let i = 0; i < n; i++) if (Number.isNaN(x0[i])) throw new Error(`rank: x[${i}] is NaN`);
  const x = snapTies(x0);
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

/**
 * Spearman's rho (Pearson's r of average ranks, values within the tie tolerance tied); NaN when
 * there are fewer than 3 pairs, a value that is not finite, or a constant variable
 * (correlationUndefinedReason).
 */
export function spearman(x: NumArray, y: NumArray): number {
  checkPair(x, y, 'spearman');
  if (hasNonFinite(x) || hasNonFinite(y)) return Number.NaN;
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
  /** Why tau, z and p are NaN (fewer than 3 pairs, a value that is not finite, a constant variable); absent when they are defined. */
  reason?: string;
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
 * loops that call it thousands of times. NaN where kendallTauB's is (fewer than 3 pairs, a value
 * that is not finite, a constant variable); unequal lengths throw. Values within the tie
 * tolerance tie. Below 64 pairs of values every pair is compared; from 64 on the concordance
 * count comes from sorting (the same integers, so the same value).
 */
export function kendallTau(x0: NumArray, y0: NumArray): number {
  const n = checkPair(x0, y0, 'kendallTau');
  if (n < MIN_CORRELATION_PAIRS || hasNonFinite(x0) || hasNonFinite(y0)) return Number.NaN;
  const tolX = tieTolerance(x0);
  const tolY = tieTolerance(y0);
  // Counted on the values as they are; only when two differ by no more than the tolerance
  // (rare) are the near-ties snapped together and the pairs counted again.
  const counts = concordance(x0, y0, tolX, tolY) ?? concordance(snapTies(x0), snapTies(y0), tolX, tolY)!;
  const n0 = (n * (n - 1)) / 2;
  const denom = Math.sqrt((n0 - counts.tiesX) * (n0 - counts.tiesY));
  return denom === 0 ? Number.NaN : counts.s / denom;
}

/** S and the tied pairs of x and of y; undefined when two values differ by no more than their tolerance without being equal. */
function concordance(x: NumArray, y: NumArray, tolX: number, tolY: number): { s: number; tiesX: number; tiesY: number } | undefined {
  const n = x.length;
  if (n >= SORTED_FROM) return kendallS(x, y, tolX, tolY);
  let s = 0;
  let tiesX = 0;
  let tiesY = 0;
  let near = false;
  for (let i = 0; i < n; i++) {
    const xi = x[i]!;
    const yi = y[i]!;
    for (let j = i + 1; j < n; j++) {
      const dx = xi - x[j]!;
      const dy = yi - y[j]!;
      if (dx === 0) tiesX++;
      else if (dx <= tolX && dx >= -tolX) near = true;
      if (dy === 0) tiesY++;
      else if (dy <= tolY && dy >= -tolY) near = true;
      const prod = dx * dy;
      s += prod > 0 ? 1 : prod < 0 ? -1 : 0;
    }
  }
  return near ? undefined : { s, tiesX, tiesY };
}

/**
 * Kendall's tau-b with its tie-corrected z and two-sided p (as R's cor.test, exact = FALSE).
 * Values within the tie tolerance tie. NaN throughout, with the `reason`, when there are fewer
 * than 3 pairs, a value that is not finite, or a constant variable; unequal lengths throw.
 */
export function kendallTauB(x0: NumArray, y0: NumArray): KendallResult {
  const n = checkPair(x0, y0, 'kendallTauB');
  const reason = correlationUndefinedReason(x0, y0);
  if (reason) return { tau: Number.NaN, z: Number.NaN, p: Number.NaN, zContinuity: Number.NaN, pContinuity: Number.NaN, n, reason };
  const x = snapTies(x0);
  const y = snapTies(y0);
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
