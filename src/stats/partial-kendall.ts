// Partial Kendall correlation of x and y controlling for one or more variables, two ways:
//   inverse  - as ppcor::pcor.test(method = "kendall") computes it: from the inverse of the
//              matrix of pairwise tau-b, with ppcor's z statistic and normal p-value;
//   residual - tau-b between the OLS residuals of x and of y on the controls (with an
//              intercept): what the audit paper's Table 8 reports.

import { mlMatrix } from './ml-matrix.js';
import { kendallTauB, type NumArray } from './correlation.js';
import { normalTwoSidedP } from './distributions.js';
import { hasNaN, requireOneOf, sameLength } from './validate.js';

export interface PartialKendallResult {
  estimate: number;
  statistic: number;
  p: number;
  n: number;
  /** Number of controlled variables. */
  gp: number;
  method: 'inverse' | 'residual';
}

/** OLS residuals of y on the columns of `controls` plus an intercept; every control must have y's length. */
export function olsResiduals(y: NumArray, controls: NumArray[]): Float64Array {
  const n = y.length;
  controls.forEach((c, j) => sameLength('olsResiduals', y, c, ['y', `controls[${j}]`]));
  const { Matrix, solve } = mlMatrix();
  const X = new Matrix(n, controls.length + 1);
  for (let i = 0; i < n; i++) {
    X.set(i, 0, 1);
    controls.forEach((c, j) => X.set(i, j + 1, c[i]!));
  }
  const Y = Matrix.columnVector(Array.from(y));
  const beta = solve(X, Y, true); // least squares (QR / SVD)
  const fitted = X.mmul(beta);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = y[i]! - fitted.get(i, 0);
  return out;
}

/**
 * Partial Kendall tau of x and y given the controls, by `method` ('residual', the default, or
 * 'inverse'; anything else throws). NaN (estimate, statistic and p) when any value is NaN, as
 * kendallTauB; variables of different lengths throw.
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
  if ([x, y, ...controls].some(hasNaN)) return { estimate: Number.NaN, statistic: Number.NaN, p: Number.NaN, n, gp, method };
  let estimate: number;
  if (method === 'residual') {
    estimate = kendallTauB(olsResiduals(x, controls), olsResiduals(y, controls)).tau;
  } else {
    const vars = [x, y, ...controls];
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
