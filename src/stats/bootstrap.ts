// The seeded bootstrap with percentile intervals (type-7 quantiles, R's default).

import { createRng } from '../core/random.js';
import { hasNaN } from './validate.js';

/** Quantile of type 7 (linear interpolation between order statistics, R's default); NaN when a value is NaN or there are none. */
export function quantile7(values: ArrayLike<number>, q: number): number {
  if (!(q >= 0 && q <= 1)) throw new Error(`quantile7: q must lie in [0, 1], got ${q}`);
  if (hasNaN(values)) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export interface BootstrapResult {
  estimate: number;
  replicates: Float64Array;
  lower: number;
  upper: number;
  /** Replicates that gave NaN (e.g. a constant resample); left out of the interval. */
  undefinedReplicates: number;
  /** Set when the interval does not contain the estimate (or is NaN), saying why. */
  note?: string;
}

/** Why a bootstrap interval is NaN or misses its estimate, or undefined when it contains it. */
export function intervalNote(estimate: number, lower: number, upper: number, defined: number): string | undefined {
  if (Number.isNaN(estimate)) return 'the estimate is undefined on the original data';
  if (defined === 0) return 'no resample gave a defined value';
  if (estimate < lower) return 'the interval lies above the estimate: the resamples fall mostly below it';
  if (estimate > upper) return 'the interval lies below the estimate: the resamples fall mostly above it';
  return undefined;
}

export interface BootstrapPValue {
  /**
   * Two-sided p: twice the smaller share of defined replicates on either side of the null value
   * (a replicate equal to it counts on both sides), at most 1. When no replicate lies on one side
   * the share is below the resolution of B replicates and p is reported as the bound 2/B
   * (`upperBound`), never as 0. NaN when no replicate is defined.
   */
  p: number;
  /** True when p is the bound 2/B: the data say only that the p-value lies below it. */
  upperBound: boolean;
  /** Defined (not NaN) replicates. */
  replicates: number;
}

/** The two-sided bootstrap p-value of `nullValue` (0 by default) from the replicates; NaN replicates are left out. */
export function bootstrapPValue(replicates: ArrayLike<number>, nullValue = 0): BootstrapPValue {
  let below = 0;
  let above = 0;
  let defined = 0;
  for (let i = 0; i < replicates.length; i++) {
    const v = replicates[i]!;
    if (Number.isNaN(v)) continue;
    defined++;
    if (v <= nullValue) below++;
    if (v >= nullValue) above++;
  }
  if (defined === 0) return { p: Number.NaN, upperBound: false, replicates: 0 };
  const smaller = Math.min(below, above);
  if (smaller === 0) return { p: Math.min(1, 2 / defined), upperBound: true, replicates: defined };
  return { p: Math.min(1, (2 * smaller) / defined), upperBound: false, replicates: defined };
}

/**
 * Resample `n` units with replacement `iterations` times (seeded); `statistic` receives the
 * resampled indices. The interval is the percentile interval at `level` over defined replicates;
 * `note` says why when it does not contain the estimate (or is NaN).
 */
export function bootstrap(
  n: number,
  statistic: (indices: Int32Array) => number,
  opts: { iterations?: number; seed: number | string; level?: number },
): BootstrapResult {
  const iterations = opts.iterations ?? 1000;
  const level = opts.level ?? 0.95;
  const rng = createRng(opts.seed);
  const identity = Int32Array.from({ length: n }, (_, i) => i);
  const estimate = statistic(identity);
  const replicates = new Float64Array(iterations);
  const idx = new Int32Array(n);
  for (let b = 0; b < iterations; b++) {
    rng.fillInts(idx, n);
    replicates[b] = statistic(idx);
  }
  const defined = replicates.filter((v) => !Number.isNaN(v));
  const lower = quantile7(defined, (1 - level) / 2);
  const upper = quantile7(defined, 1 - (1 - level) / 2);
  const note = intervalNote(estimate, lower, upper, defined.length);
  return { estimate, replicates, lower, upper, undefinedReplicates: iterations - defined.length, ...(note ? { note } : {}) };
}
