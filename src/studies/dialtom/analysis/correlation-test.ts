// A correlation with its 95% interval and two-sided p-value, for the study's per-model comparisons
// (across tasks, against model scale). Pearson's r: Fisher-z interval (standard error
// 1/sqrt(n - 3)) and the t-test on n - 2 degrees of freedom (scipy's pearsonr). Spearman's rho
// (average ranks for ties): Fisher-z interval with Bonett and Wright's standard error
// sqrt((1 + rho^2 / 2) / (n - 3)), and the same t approximation scipy's spearmanr uses.

import { correlationUndefinedReason, normalQuantile, pearson, regularizedBeta, spearman } from '../../../stats/index.js';

export interface Coefficient {
  estimate: number;
  /** 95% interval; NaN with fewer than 4 pairs (the Fisher-z standard error needs n - 3 > 0). */
  lower: number;
  upper: number;
  /** Two-sided p of the t approximation (n - 2 degrees of freedom). */
  p: number;
}

export interface CorrelationTest {
  n: number;
  pearson: Coefficient;
  spearman: Coefficient;
  /** Why the coefficients are NaN (too few pairs, a constant variable); absent when they are defined. */
  reason?: string;
}

/** Two-sided p of Student's t with `df` degrees of freedom: I_{df/(df+t^2)}(df/2, 1/2). */
export function studentTwoSidedP(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  return regularizedBeta(df / (df + t * t), df / 2, 0.5);
}

function coefficient(r: number, n: number, se: number): Coefficient {
  if (Number.isNaN(r)) return { estimate: r, lower: Number.NaN, upper: Number.NaN, p: Number.NaN };
  const df = n - 2;
  const p = Math.abs(r) >= 1 ? 0 : studentTwoSidedP(r * Math.sqrt(df / (1 - r * r)), df);
  if (n < 4) return { estimate: r, lower: Number.NaN, upper: Number.NaN, p };
  const z = Math.atanh(r);
  const q = normalQuantile(0.975);
  return { estimate: r, lower: Math.tanh(z - q * se), upper: Math.tanh(z + q * se), p };
}

/** Pearson's r and Spearman's rho of paired values, each with its 95% interval and p (see the file comment). */
export function correlationTest(x: readonly number[], y: readonly number[], names: [string, string] = ['x', 'y']): CorrelationTest {
  const n = x.length;
  const reason = correlationUndefinedReason(x, y, names);
  const r = pearson(x, y);
  const rho = spearman(x, y);
  return {
    n,
    pearson: coefficient(r, n, 1 / Math.sqrt(n - 3)),
    spearman: coefficient(rho, n, Math.sqrt((1 + (rho * rho) / 2) / (n - 3))),
    ...(reason ? { reason } : {}),
  };
}
