// Correlation matrices and principal components: the p x p correlation matrix, and for wide
// data (variables outnumbering observations) its non-zero eigenvalues through the n x n Gram
// matrix of the standardised data, which gives the same values at a fraction of the cost.

import { symmetricEigenvalues } from './symmetric-eigenvalues.js';
import { isConstant } from './ties.js';
import { requireMatrix } from './validate.js';
import { variableMajor } from './variable-major.js';
import { gramOfRows } from './wide-block.js';

/**
 * Pearson correlation matrix of the columns of an n x p data matrix. A constant column (every
 * value tied up to rounding noise, see ties.ts) has no correlation: its row and column are NaN,
 * diagonal included (as R's cor gives NA).
 */
export function correlationMatrix(data: number[][]): number[][] {
  requireMatrix('correlationMatrix', data);
  const n = data.length;
  const p = data[0]!.length;
  const z = standardizeColumns(data);
  const constant = constantColumns(data);
  const R: number[][] = Array.from({ length: p }, () => new Array(p).fill(0));
  for (let i = 0; i < p; i++) {
    for (let j = i; j < p; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += z[k]![i]! * z[k]![j]!;
      R[i]![j] = R[j]![i] = constant[i] || constant[j] ? Number.NaN : s / (n - 1);
    }
  }
  return R;
}

function constantColumns(data: number[][]): boolean[] {
  return data[0]!.map((_, j) => isConstant(data.map((row) => row[j]!)));
}

/** Columns centred and scaled to unit sample SD; constant columns (up to rounding noise) become 0. */
export function standardizeColumns(data: number[][]): number[][] {
  requireMatrix('standardizeColumns', data);
  const n = data.length;
  const p = data[0]!.length;
  const mean = new Array(p).fill(0);
  const sd = new Array(p).fill(0);
  for (const row of data) row.forEach((v, j) => (mean[j] += v / n));
  for (const row of data) row.forEach((v, j) => (sd[j] += (v - mean[j]) ** 2));
  const constant = constantColumns(data);
  for (let j = 0; j < p; j++) sd[j] = constant[j] ? 0 : Math.sqrt(sd[j] / (n - 1));
  return data.map((row) => row.map((v, j) => (sd[j] > 0 ? (v - mean[j]) / sd[j] : 0)));
}

/** Principal components' eigenvalues and their shares of the total variance. */
export interface PcaVariance {
  eigenvalues: number[];
  proportion: number[];
  cumulative: number[];
  /** Non-constant variables: the total variance the shares divide. */
  variables: number;
}

/**
 * Share of variance per principal component of an n x p data matrix (its correlation matrix).
 * When items far outnumber subjects, the non-zero eigenvalues come from the n x n Gram matrix
 * Z Z' / (n - 1) of the standardised data rather than the p x p correlation matrix: the same
 * values at a fraction of the cost. Constant columns are left out.
 */
export function pcaVariance(data: ArrayLike<ArrayLike<number>>): PcaVariance {
  // Checked, then copied variable by variable (a few milliseconds for a million values; data
  // already held that way go to pcaVarianceOfVariables directly).
  requireMatrix('pcaVariance', data);
  const { values, n, p } = variableMajor(data);
  return pcaVarianceOfVariables(values, n, p);
}

/**
 * pcaVariance of data held variable by variable: values[j * n + i] is observation i of variable
 * j (as an audit's item-major responses, flat[item * models + model]), finite numbers, not
 * checked. Each variable's observations are contiguous, so standardising reads them in order.
 */
export function pcaVarianceOfVariables(values: ArrayLike<number>, n: number, p0: number): PcaVariance {
  if (!(n >= 1)) throw new Error('pcaVariance: the data have no rows');
  if (values.length < n * p0) throw new Error(`pcaVariance: ${values.length} values for ${n} observations x ${p0} variables`);
  const keep: number[] = [];
  for (let j = 0; j < p0; j++) {
    const base = j * n;
    const first = values[base];
    for (let i = 1; i < n; i++) {
      if (values[base + i] !== first) {
        keep.push(j);
        break;
      }
    }
  }
  const p = keep.length;
  const wide = p > n;
  // z/sqrt(n-1), z standardised with unit sample SD, is the WideBlock scaling.
  const scale = 1 / Math.sqrt(n - 1);
  // Each variable's mean and SD, its sums over the observations in order (contiguous reads).
  const base = new Int32Array(p);
  const mean = new Float64Array(p);
  const sd = new Float64Array(p);
  for (let c = 0; c < p; c++) {
    const at = (base[c] = keep[c]! * n);
    let m = 0;
    for (let i = 0; i < n; i++) m += values[at + i]!;
    m /= n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (values[at + i]! - m) ** 2;
    mean[c] = m;
    sd[c] = Math.sqrt(ss / (n - 1));
  }
  // Standardised rows (n x p, row-major, written in order): (x - mean) / sd and then, when
  // wide, times the scale.
  const standardize = (z: Float64Array): void => {
    for (let i = 0; i < n; i++) {
      const row = i * p;
      for (let c = 0; c < p; c++) {
        const v = (values[base[c]! + i]! - mean[c]!) / sd[c]!;
        z[row + c] = wide ? v * scale : v;
      }
    }
  };
  // Eigenvalues only (no vectors): Householder tridiagonalisation and QL, symmetricEigenvalues.
  let eigenvalues: number[];
  if (wide) {
    // Written straight into the Gram kernel's memory: a fresh n x p array's first touch costs
    // about as much as the Gram products themselves.
    eigenvalues = symmetricEigenvalues(gramOfRows(n, p, standardize), n);
  } else {
    const z = new Float64Array(n * p);
    standardize(z);
    const R = new Float64Array(p * p);
    for (let a = 0; a < p; a++) {
      for (let b = a; b < p; b++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += z[i * p + a]! * z[i * p + b]!;
        R[a * p + b] = s / (n - 1);
        R[b * p + a] = s / (n - 1);
      }
    }
    eigenvalues = symmetricEigenvalues(R, p);
  }
  eigenvalues = eigenvalues.map((v) => Math.max(0, v));
  const proportion = eigenvalues.map((v) => v / p);
  let acc = 0;
  return { eigenvalues, proportion, cumulative: proportion.map((v) => (acc += v)), variables: p };
}
