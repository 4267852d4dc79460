// Bootstrap confidence intervals from replicates (Efron & Tibshirani 1993, chapters 13-14;
// Davison & Hinkley 1997, 5.3): percentile, basic, bias-corrected percentile (BC) and BCa. BC
// and BCa move the percentile interval's quantiles by the share of replicates below the
// estimate (z0; ties count half), BCa also by an acceleration from jackknife influence values
// (one group of leave-one-out estimates per independently resampled sample).

import { intervalNote, quantile7 } from './bootstrap.js';
import { normalCdf, normalQuantile } from './distributions.js';
import { requireOneOf } from './validate.js';

export type IntervalMethod = 'percentile' | 'basic' | 'bc' | 'bca';
export const INTERVAL_METHODS: readonly IntervalMethod[] = ['percentile', 'basic', 'bc', 'bca'];

export interface BootstrapInterval {
  method: IntervalMethod;
  lower: number;
  upper: number;
  /** Bias correction Phi^{-1}(share of replicates below the estimate) (BC and BCa). */
  z0?: number;
  acceleration?: number;
  /** Set when the interval does not contain the estimate (or is NaN), saying why. */
  note?: string;
}

/**
 * Acceleration for BCa from jackknife estimates: groups[i] holds sample i's leave-one-out
 * estimates (one sample for the ordinary bootstrap, one per benchmark for a paired item
 * bootstrap that resamples each independently). Influence l_ij = (n_i - 1)(mean_i - theta_(j));
 * a = sum_i n_i^-3 sum_j l_ij^3 / (6 (sum_i n_i^-2 sum_j l_ij^2)^(3/2)); 0 when every l is 0.
 */
export function jackknifeAcceleration(groups: ArrayLike<number>[]): number {
  let num = 0;
  let den = 0;
  for (const g of groups) {
    const n = g.length;
    if (n < 2) continue;
    let mean = 0;
    for (let j = 0; j < n; j++) mean += g[j]!;
    mean /= n;
    let s2 = 0;
    let s3 = 0;
    for (let j = 0; j < n; j++) {
      const l = (n - 1) * (mean - g[j]!);
      s2 += l * l;
      s3 += l * l * l;
    }
    num += s3 / n ** 3;
    den += s2 / n ** 2;
  }
  return den > 0 ? num / (6 * den ** 1.5) : 0;
}

/**
 * A bootstrap interval at `level` (0.95 by default) from the replicates (NaN replicates are
 * left out) and the estimate on the original data. 'bca' needs `acceleration` (0 makes it BC).
 * 'basic' reflects the replicates' quantiles about the estimate, clipped to `bounds` when given.
 * The bias correction's share is kept within [1/(2B), 1 - 1/(2B)] so that z0 stays finite.
 * Every method can miss the estimate when the resamples fall to one side of it: `note` says so.
 */
export function bootstrapInterval(
  replicates: ArrayLike<number>,
  estimate: number,
  opts: { method: IntervalMethod; level?: number; acceleration?: number; bounds?: [number, number] },
): BootstrapInterval {
  const r = intervalOf(replicates, estimate, opts);
  const note = intervalNote(estimate, r.lower, r.upper, r.defined);
  const { defined: _, ...interval } = r;
  return note ? { ...interval, note } : interval;
}

function intervalOf(
  replicates: ArrayLike<number>,
  estimate: number,
  opts: { method: IntervalMethod; level?: number; acceleration?: number; bounds?: [number, number] },
): BootstrapInterval & { defined: number } {
  const method = requireOneOf('bootstrapInterval', 'method', opts.method, INTERVAL_METHODS);
  const level = opts.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new Error(`bootstrapInterval: level must lie in (0, 1), got ${level}`);
  const defined: number[] = [];
  for (let i = 0; i < replicates.length; i++) if (!Number.isNaN(replicates[i])) defined.push(replicates[i]!);
  // 0.025 and 0.975 exactly at 95% ((1 - 0.95) / 2 is 0.025000000000000022 in floating point).
  const lo = level === 0.95 ? 0.025 : (1 - level) / 2;
  const hi = level === 0.95 ? 0.975 : 1 - lo;
  const B = defined.length;
  if (method === 'percentile') return { method, lower: quantile7(defined, lo), upper: quantile7(defined, hi), defined: B };
  if (B === 0 || Number.isNaN(estimate)) return { method, lower: Number.NaN, upper: Number.NaN, defined: B };
  if (method === 'basic') {
    // The reflection can leave the statistic's range (tau beyond 1): `bounds` clips it.
    const [min, max] = opts.bounds ?? [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
    const clip = (v: number) => Math.min(max, Math.max(min, v));
    return { method, lower: clip(2 * estimate - quantile7(defined, hi)), upper: clip(2 * estimate - quantile7(defined, lo)), defined: B };
  }
  let below = 0;
  for (const v of defined) below += v < estimate ? 1 : v === estimate ? 0.5 : 0;
  const share = Math.min(1 - 1 / (2 * B), Math.max(1 / (2 * B), below / B));
  const z0 = normalQuantile(share);
  const a = method === 'bca' ? (opts.acceleration ?? Number.NaN) : 0;
  if (Number.isNaN(a)) throw new Error("bootstrapInterval: method 'bca' needs the acceleration (jackknifeAcceleration)");
  const adjusted = (alpha: number) => {
    const z = normalQuantile(alpha);
    return normalCdf(z0 + (z0 + z) / (1 - a * (z0 + z)));
  };
  return {
    method,
    lower: quantile7(defined, adjusted(lo)),
    upper: quantile7(defined, adjusted(hi)),
    z0,
    ...(method === 'bca' ? { acceleration: a } : {}),
    defined: B,
  };
}
