// Correlation matrices and principal components: the p x p correlation matrix, and for wide
// data (variables outnumbering observations) its non-zero eigenvalues through the n x n Gram
// matrix of the standardised data, which gives the same values at a fraction of the cost.

import { symmetricEigenvalues } from './symmetric-eigenvalues.js';
import { requireMatrix } from './validate.js';
import { WideBlock } from './wide-block.js';

/** Pearson correlation matrix of the columns of an n x p data matrix. */
export function correlationMatrix(data: number[][]): number[][] {
  requireMatrix('correlationMatrix', data);
  const n = data.length;
  const p = data[0]!.length;
  const z = standardizeColumns(data);
  const R: number[][] = Array.from({ length: p }, () => new Array(p).fill(0));
  for (let i = 0; i < p; i++) {
    for (let j = i; j < p; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += z[k]![i]! * z[k]![j]!;
      R[i]![j] = R[j]![i] = s / (n - 1);
    }
  }
  return R;
}

/** Columns centred and scaled to unit sample SD; constant columns become 0. */
export function standardizeColumns(data: number[][]): number[][] {
  requireMatrix('standardizeColumns', data);
  const n = data.length;
  const p = data[0]!.length;
  const mean = new Array(p).fill(0);
  const sd = new Array(p).fill(0);
  for (const row of data) row.forEach((v, j) => (mean[j] += v / n));
  for (const row of data) row.forEach((v, j) => (sd[j] += (v - mean[j]) ** 2));
  for (let j = 0; j < p; j++) sd[j] = Math.sqrt(sd[j] / (n - 1));
  return data.map((row) => row.map((v, j) => (sd[j] > 0 ? (v - mean[j]) / sd[j] : 0)));
}

/**
 * Share of variance per principal component of an n x p data matrix (its correlation matrix).
 * When items far outnumber subjects, the non-zero eigenvalues come from the n x n Gram matrix
 * Z Z' / (n - 1) of the standardised data rather than the p x p correlation matrix: the same
 * values at a fraction of the cost. Constant columns are left out.
 */
export function pcaVariance(data: ArrayLike<ArrayLike<number>>): {
  eigenvalues: number[];
  proportion: number[];
  cumulative: number[];
  variables: number;
} {
  requireMatrix('pcaVariance', data);
  const n = data.length;
  const p0 = data[0]!.length;
  // Standardise each non-constant column into a row-major Float64Array block (n x p).
  const keep: number[] = [];
  for (let j = 0; j < p0; j++) {
    const first = data[0]![j];
    for (let i = 1; i < n; i++) {
      if (data[i]![j] !== first) {
        keep.push(j);
        break;
      }
    }
  }
  const p = keep.length;
  const z = new Float64Array(n * p);
  // Row by row (each row read in order), each column's sums still over the rows in order.
  const mean = new Float64Array(p);
  const sd = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    const row = data[i]!;
    for (let c = 0; c < p; c++) mean[c]! += row[keep[c]!]!;
  }
  for (let c = 0; c < p; c++) mean[c]! /= n;
  for (let i = 0; i < n; i++) {
    const row = data[i]!;
    for (let c = 0; c < p; c++) sd[c]! += (row[keep[c]!]! - mean[c]!) ** 2;
  }
  for (let c = 0; c < p; c++) sd[c] = Math.sqrt(sd[c]! / (n - 1));
  for (let i = 0; i < n; i++) {
    const row = data[i]!;
    for (let c = 0; c < p; c++) z[i * p + c] = (row[keep[c]!]! - mean[c]!) / sd[c]!;
  }
  // Eigenvalues only (no vectors): Householder tridiagonalisation and QL, symmetricEigenvalues.
  let eigenvalues: number[];
  if (p <= n) {
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
  } else {
    // z is standardised with unit sample SD: z/sqrt(n-1) is the WideBlock scaling.
    const scale = 1 / Math.sqrt(n - 1);
    for (let k = 0; k < z.length; k++) z[k]! *= scale;
    eigenvalues = symmetricEigenvalues(WideBlock.ofStandardized(z, n, p).gramArray(), n);
  }
  eigenvalues = eigenvalues.map((v) => Math.max(0, v));
  const proportion = eigenvalues.map((v) => v / p);
  let acc = 0;
  return { eigenvalues, proportion, cumulative: proportion.map((v) => (acc += v)), variables: p };
}
