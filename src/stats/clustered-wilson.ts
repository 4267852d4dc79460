// A Wilson interval for a proportion measured on clusters of trials: items answered several
// times (replicates), or questions nested in stories. Trials of one cluster are not independent,
// so the interval uses the effective number of trials n_eff = p(1 - p) / Var(p), with Var(p)
// estimated from the spread between clusters (the design-effect Wilson interval recommended for
// clustered binomial proportions: Korn & Graubard 1998; Dean & Pagano 2015). n_eff is clamped
// between what fully dependent trials give (one trial per cluster's worth) and what independent
// trials give, so one trial per cluster reproduces the plain Wilson interval, and a cluster
// spread that cannot be estimated (every cluster at 0 or at 1, or a single cluster) falls back
// to the fully dependent count: all-correct replicated data get the interval of one trial per item.
// Scores outside [0, 1] are no proportion: their interval is the normal interval of the mean
// over clusters, which is degenerate (and says why) when no cluster varies.

import { wilsonInterval } from './wilson-interval.js';

const Z95 = 1.959963984540054;

/** One cluster: the sum of its trials' scores and how many trials it has. */
export interface TrialCluster {
  sum: number;
  trials: number;
}

export interface ClusteredInterval {
  estimate: number;
  lower: number;
  upper: number;
  /** Clusters (items) with at least one trial. */
  clusters: number;
  trials: number;
  /** The sample size the interval stands for: between the clusters and the trials. */
  effectiveN: number;
  method: 'wilson' | 'wilson-effective-n' | 'normal';
  /** Why the interval is degenerate (zero width, or no bounds), when it is. */
  note?: string;
}

/**
 * `cluster`: each cluster counts once (the mean of cluster means; an item's replicates average
 * into one observation). `trial`: each trial counts once (the pooled share, as k of n).
 */
export type ClusterWeighting = 'cluster' | 'trial';

/** The design-effect Wilson interval of a clustered proportion (see the file comment); 95% by default. */
export function clusteredWilsonInterval(
  clusters: readonly TrialCluster[],
  opts: { weighting?: ClusterWeighting; z?: number } = {},
): ClusteredInterval {
  const weighting = opts.weighting ?? 'cluster';
  const z = opts.z ?? Z95;
  const used = clusters.filter((c) => c.trials > 0);
  const m = used.length;
  const trials = used.reduce((s, c) => s + c.trials, 0);
  if (m === 0) return wilsonOverTrials(0, 0, z);
  for (const c of used)
    if (!Number.isFinite(c.sum) || !Number.isFinite(c.trials))
      throw new Error(`clusteredWilsonInterval: a cluster has sum ${c.sum} of ${c.trials} trials`);
  const weight = (c: TrialCluster) => (weighting === 'cluster' ? 1 : c.trials);
  const means = used.map((c) => c.sum / c.trials);
  // The weighted sum of cluster means, summed as the plain Wilson interval sums its successes.
  const total = weighting === 'cluster' ? means.reduce((s, y) => s + y, 0) : used.reduce((s, c) => s + c.sum, 0);
  const W = weighting === 'cluster' ? m : trials;
  const p = total / W;
  // Cluster-robust variance of the weighted mean (with the m / (m - 1) small-sample factor).
  const spread = used.reduce((s, c, i) => s + (weight(c) * (means[i]! - p)) ** 2, 0);
  const variance = m > 1 ? (m / (m - 1)) * (spread / (W * W)) : Number.NaN;
  const base = { estimate: p, clusters: m, trials };
  if (means.some((y) => y < 0 || y > 1)) {
    const half = z * Math.sqrt(variance);
    if (!(half > 0))
      return {
        ...base,
        lower: p,
        upper: p,
        effectiveN: m,
        method: 'normal',
        note: m < 2 ? 'one item: the spread between items cannot be estimated' : 'no item varies: every item has the same mean score',
      };
    return { ...base, lower: p - half, upper: p + half, effectiveN: m, method: 'normal' };
  }
  if (used.every((c) => c.trials === 1)) return wilsonOverTrials(total, m, z);
  // What fully dependent trials (each cluster one observation) and independent trials give.
  const sumW2 = used.reduce((s, c) => s + weight(c) ** 2, 0);
  const sumW2overN = used.reduce((s, c) => s + weight(c) ** 2 / c.trials, 0);
  const dependentN = (W * W) / sumW2;
  const independentN = (W * W) / sumW2overN;
  const estimable = m > 1 && p > 0 && p < 1;
  const raw = estimable ? (variance > 0 ? (p * (1 - p)) / variance : independentN) : dependentN;
  const effectiveN = Math.min(Math.max(raw, dependentN), independentN);
  // At effectiveN = W (every cluster one observation) the sum itself, as the plain interval takes it.
  const w = wilsonInterval(effectiveN === W ? total : p * effectiveN, effectiveN, z);
  return { ...base, ...inside(w, p), effectiveN, method: 'wilson-effective-n' };
}

/** Rounding in the Wilson bounds can leave an estimate of 0 or 1 a hair outside: keep it inside. */
function inside(w: { lower: number; upper: number }, p: number) {
  return { lower: Math.min(w.lower, p), upper: Math.max(w.upper, p) };
}

/** One trial per cluster: the plain Wilson interval of `successes` of `n` (scores in [0, 1]), as a ClusteredInterval. */
export function wilsonOverTrials(successes: number, n: number, z = Z95): ClusteredInterval {
  if (n === 0)
    return {
      estimate: Number.NaN,
      lower: Number.NaN,
      upper: Number.NaN,
      clusters: 0,
      trials: 0,
      effectiveN: 0,
      method: 'wilson',
      note: 'no trials',
    };
  const w = wilsonInterval(successes, n, z);
  return { estimate: w.estimate, ...inside(w, w.estimate), clusters: n, trials: n, effectiveN: n, method: 'wilson' };
}
