// Partial Kendall correlation of x and y controlling for one or more variables, two ways:
//   inverse  - as ppcor::pcor.test(method = "kendall") computes it: from the inverse of the
//              matrix of pairwise tau-b, with ppcor's z statistic and normal p-value;
//   residual - tau-b between the OLS residuals of x and of y on the controls (with an
//              intercept): what the audit paper's Table 8 reports.
// Degenerate data give NaN with a reason, as the correlations do (resampling loops leave such
// replicates out): too few observations for the controls, a NaN, a constant variable, or (the
// residual method) x or y that the controls explain exactly, whose residuals are rounding noise.

import { kendallTauB, type NumArray } from './correlation.js';
import { normalTwoSidedP } from './distributions.js';
import { mlMatrix } from './ml-matrix.js';
import { isConstant } from './ties.js';
import { hasNonFinite, requireOneOf, sameLength } from './validate.js';

export interface PartialKendallResult {
  estimate: number;
  statistic: number;
  p: number;
  n: number;
  /** Number of controlled variables. */
  gp: number;
  method: 'inverse' | 'residual';
  /** Why estimate, statistic and p are NaN; absent when they are defined. */
  reason?: string;
}

/**
 * OLS residuals of y on the columns of `controls` plus an intercept; every control must have y's
 * length. The intercept is taken out by centring y and the controls, and the controls are scaled
 * to unit length, before the least-squares solve: the same residuals in exact arithmetic, from a
 * design whose columns share one scale, so that the solve adds little more than rounding noise
 * of y's own size.
 */
export function olsResiduals(y: NumArray, controls: NumArray[]): Float64Array {
  const n = y.length;
  controls.forEach((c, j) => sameLength('olsResiduals', y, c, ['y', `controls[${j}]`]));
  const centred = (v: NumArray): Float64Array => {
    let m = 0;
    for (let i = 0; i < n; i++) m += v[i]!;
    m /= n;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = v[i]! - m;
    return out;
  };
  const residuals = centred(y);
  // A constant control only repeats the intercept.
  const columns = controls.map(centred).filter((c) => c.some((v) => v !== 0));
  if (columns.length === 0) return residuals;
  const { Matrix, solve } = mlMatrix();
  const X = new Matrix(n, columns.length);
  columns.forEach((c, j) => {
    const length = Math.sqrt(c.reduce((s, v) => s + v * v, 0));
    for (let i = 0; i < n; i++) X.set(i, j, c[i]! / length);
  });
  const beta = solve(X, Matrix.columnVector(Array.from(residuals)), true); // least squares (SVD)
  const fitted = X.mmul(beta);
  for (let i = 0; i < n; i++) residuals[i]! -= fitted.get(i, 0);
  return residuals;
}

/**
 * Residuals whose values all lie within this share of the variable's largest magnitude carry no
 * variance the controls leave: the least-squares solve's rounding noise is about n x machine
 * epsilon x the design's condition number of that scale, and ranking it would rank noise.
 */
export const RESIDUAL_NOISE_TOLERANCE = 1e-10;

function noResidualVariance(residuals: Float64Array, variable: NumArray): boolean {
  let scale = 0;
  for (let i = 0; i < variable.length; i++) scale = Math.max(scale, Math.abs(variable[i]!));
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const r of residuals) {
    if (r < min) min = r;
    if (r > max) max = r;
  }
  return max - min <= RESIDUAL_NOISE_TOLERANCE * scale;
}

/**
 * Partial Kendall tau of x and y given the controls, by `method` ('residual', the default, or
 * 'inverse'; anything else throws). NaN (estimate, statistic and p) with the `reason` when there
 * are fewer than (controls + 3) observations (the residuals need two degrees of freedom to be
 * ordered), a value is not a finite number, a variable is constant, or (residual method) the controls explain
 * x or y exactly. No controls, or variables of different lengths, throw.
 */
export function partialKendall(
  x: NumArray,
  y: NumArray,
  controls: NumArray[],
  method: 'inverse' | 'residual' = 'residual',
): PartialKendallResult {
  requireOneOf('partialKendall', 'method', method, ['residual', 'inverse'] as const);
  if (!Array.isArray(controls)) throw new Error('partialKendall: controls must be an array of variables (one array per control)');
  const n = x.length;
  const gp = controls.length;
  if (gp === 0) throw new Error('partialKendall needs at least one control variable');
  sameLength('partialKendall', x, y);
  controls.forEach((c, j) => sameLength('partialKendall', x, c, ['x', `controls[${j}]`]));
  const undefinedBecause = (reason: string): PartialKendallResult => ({
    estimate: Number.NaN,
    statistic: Number.NaN,
    p: Number.NaN,
    n,
    gp,
    method,
    reason,
  });
  if (n < gp + 3)
    return undefinedBecause(
      `${n} observation${n === 1 ? '' : 's'} with ${gp} control${gp === 1 ? '' : 's'}: a partial Kendall tau needs at least ${gp + 3}`,
    );
  const names = ['x', 'y', ...controls.map((_, j) => `controls[${j}]`)];
  const vars = [x, y, ...controls];
  const nonFinite = vars.findIndex(hasNonFinite);
  if (nonFinite >= 0) return undefinedBecause(`${names[nonFinite]} has a value that is not a finite number`);
  const constant = vars.findIndex((v) => isConstant(v));
  if (constant >= 0) return undefinedBecause(`${names[constant]} is constant: the partial correlation is undefined`);
  let estimate: number;
  if (method === 'residual') {
    const rx = olsResiduals(x, controls);
    const ry = olsResiduals(y, controls);
    if (noResidualVariance(rx, x)) return undefinedBecause('the controls explain x exactly: its residuals are rounding noise');
    if (noResidualVariance(ry, y)) return undefinedBecause('the controls explain y exactly: its residuals are rounding noise');
    estimate = kendallTauB(rx, ry).tau;
  } else {
    const k = vars.length;
    const { Matrix, pseudoInverse } = mlMatrix();
    const tau = new Matrix(k, k);
    for (let i = 0; i < k; i++) {
      tau.set(i, i, 1);
      for (let j = i + 1; j < k; j++) {
        const t = kendallTauB(vars[i]!, vars[j]!).tau;
        tau.set(i, j, t);
        tau.set(j, i, t);
      }
    }
    const P = pseudoInverse(tau);
    estimate = -P.get(0, 1) / Math.sqrt(P.get(0, 0) * P.get(1, 1));
  }
  // ppcor's statistic for Kendall: estimate / sqrt(2(2(n-gp)+5) / (9(n-gp)(n-1-gp))).
  const statistic = estimate / Math.sqrt((2 * (2 * (n - gp) + 5)) / (9 * (n - gp) * (n - 1 - gp)));
  return { estimate, statistic, p: normalTwoSidedP(statistic), n, gp, method };
}
