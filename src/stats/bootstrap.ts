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
}

/**
 * Resample `n` units with replacement `iterations` times (seeded); `statistic` receives the
 * resampled indices. The interval is the percentile interval at `level` over defined replicates.
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
  return {
    estimate,
    replicates,
    lower: quantile7(defined, (1 - level) / 2),
    upper: quantile7(defined, 1 - (1 - level) / 2),
    undefinedReplicates: iterations - defined.length,
  };
}
