// All eigenvalues of a symmetric matrix, without eigenvectors: Householder reduction to
// tridiagonal form (tred2 of Numerical Recipes, 3rd ed., 11.3, without accumulating the
// transformations) and implicit QL on the tridiagonal matrix. About 4n^3/3 operations, a
// fraction of a full decomposition with vectors; for the PCA variance shares and Kaiser's
// count, which need every eigenvalue and no vector.

import { tridiagonalEigen } from './lanczos.js';

/** Eigenvalues, descending, of the symmetric n x n matrix in row-major `a` (a copy is reduced). */
export function symmetricEigenvalues(a: ArrayLike<number>, n: number): number[] {
  if (a.length !== n * n) throw new Error(`symmetricEigenvalues: expected ${n * n} values, got ${a.length}`);
  if (n === 0) return [];
  const z = Float64Array.from(a);
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  for (let i = n - 1; i > 0; i--) {
    const l = i - 1;
    let h = 0;
    const ri = i * n;
    if (l > 0) {
      let scale = 0;
      for (let k = 0; k < i; k++) scale += Math.abs(z[ri + k]!);
      if (scale === 0) e[i] = z[ri + l]!;
      else {
        for (let k = 0; k < i; k++) {
          z[ri + k]! /= scale;
          h += z[ri + k]! * z[ri + k]!;
        }
        let f = z[ri + l]!;
        let g = f >= 0 ? -Math.sqrt(h) : Math.sqrt(h);
        e[i] = scale * g;
        h -= f * g;
        z[ri + l] = f - g;
        f = 0;
        for (let j = 0; j < i; j++) {
          const rj = j * n;
          g = 0;
          for (let k = 0; k <= j; k++) g += z[rj + k]! * z[ri + k]!;
          for (let k = j + 1; k < i; k++) g += z[k * n + j]! * z[ri + k]!;
          e[j] = g / h;
          f += e[j]! * z[ri + j]!;
        }
        const hh = f / (h + h);
        for (let j = 0; j < i; j++) {
          const rj = j * n;
          f = z[ri + j]!;
          g = e[j]! - hh * f;
          e[j] = g;
          for (let k = 0; k <= j; k++) z[rj + k]! -= f * e[k]! + g * z[ri + k]!;
        }
      }
    } else e[i] = z[ri + l]!;
    d[i] = h;
  }
  for (let i = 0; i < n; i++) d[i] = z[i * n + i]!;
  // e[i] couples i - 1 and i; tridiagonalEigen wants the coupling of i and i + 1 at i.
  return tridiagonalEigen(d, e.subarray(1), []).values;
}
