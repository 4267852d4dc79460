// Principal-axis factoring when variables far outnumber observations (items x models): the
// correlation matrix R = Z'Z/(n-1) has rank at most n - 1, squared multiple correlations are
// undefined (psych's start collapses), and a p x p eigen-decomposition of 15,000 items is out of
// reach. Here:
//   - starting communalities are the items' squared loadings on the first k principal
//     components, from the n x n Gram matrix (h0 = rowSums((Z' W_k)^2 / (n-1)));
//   - each PAF iteration finds the top k eigenpairs of the reduced matrix R - diag(1 - h) by
//     subspace iteration with Rayleigh-Ritz, never forming it: (R - D) v = Z'(Z v)/(n-1) - D v,
//     O(n p k) per step, warm-started from the previous iteration's vectors;
//   - iteration stops, as psych's fa, when the total communality changes by less than 0.001.

import { mlMatrix } from './ml-matrix.js';
import { symmetricEigen } from './factor-analysis.js';
import { WideBlock } from './wide-block.js';

export interface WidePafResult {
  loadings: number[][];
  communalities: number[];
  eigenvalues: number[];
  iterations: number;
  startingCommunalities: 'principal-components';
}

/** Standardised columns as a row-major block z (n x p), scaled by 1/sqrt(n-1) so that R = z'z. */
function scaledBlock(data: ArrayLike<ArrayLike<number>>): { z: Float64Array; n: number; p: number } {
  const n = data.length;
  const p = data[0]!.length;
  const z = new Float64Array(n * p);
  // Row by row (each row read in order), each column's sums still over the rows in order.
  const mean = new Float64Array(p);
  const scale = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    const row = data[i]!;
    for (let j = 0; j < p; j++) mean[j]! += row[j]!;
  }
  for (let j = 0; j < p; j++) mean[j]! /= n;
  for (let i = 0; i < n; i++) {
    const row = data[i]!;
    for (let j = 0; j < p; j++) scale[j]! += (row[j]! - mean[j]!) ** 2;
  }
  // (x - mean) / sd / sqrt(n - 1)
  for (let j = 0; j < p; j++) scale[j] = scale[j]! > 0 ? 1 / Math.sqrt(scale[j]!) : 0;
  for (let i = 0; i < n; i++) {
    const row = data[i]!;
    for (let j = 0; j < p; j++) z[i * p + j] = (row[j]! - mean[j]!) * scale[j]!;
  }
  return { z, n, p };
}

/**
 * ys[f] = (z'z - diag(u)) xs[f] for p-vectors xs. Row by row for up to three vectors at once, so
 * that z streams through once per product rather than once per vector and the separate sums run
 * side by side; each sum in the same order as one vector at a time.
 */
function applyReduced(
  z: Float64Array,
  n: number,
  p: number,
  u: Float64Array,
  xs: Float64Array[],
  ys: Float64Array[],
  tmp: Float64Array,
): void {
  const k = xs.length;
  for (const y of ys) y.fill(0);
  for (let f = 0; f < k; f += 3) {
    const x0 = xs[f]!;
    const x1 = xs[Math.min(f + 1, k - 1)]!;
    const x2 = xs[Math.min(f + 2, k - 1)]!;
    const y0 = ys[f]!;
    const y1 = ys[Math.min(f + 1, k - 1)]!;
    const y2 = ys[Math.min(f + 2, k - 1)]!;
    const width = Math.min(3, k - f);
    for (let i = 0; i < n; i++) {
      const row = i * p;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      if (width === 3) {
        for (let j = 0; j < p; j++) {
          const v = z[row + j]!;
          s0 += v * x0[j]!;
          s1 += v * x1[j]!;
          s2 += v * x2[j]!;
        }
      } else if (width === 2) {
        for (let j = 0; j < p; j++) {
          const v = z[row + j]!;
          s0 += v * x0[j]!;
          s1 += v * x1[j]!;
        }
      } else for (let j = 0; j < p; j++) s0 += z[row + j]! * x0[j]!;
      tmp[f * n + i] = s0;
      if (width > 1) tmp[(f + 1) * n + i] = s1;
      if (width > 2) tmp[(f + 2) * n + i] = s2;
    }
    for (let i = 0; i < n; i++) {
      const row = i * p;
      const t0 = tmp[f * n + i]!;
      if (width === 3) {
        const t1 = tmp[(f + 1) * n + i]!;
        const t2 = tmp[(f + 2) * n + i]!;
        for (let j = 0; j < p; j++) {
          const v = z[row + j]!;
          y0[j]! += v * t0;
          y1[j]! += v * t1;
          y2[j]! += v * t2;
        }
      } else if (width === 2) {
        const t1 = tmp[(f + 1) * n + i]!;
        for (let j = 0; j < p; j++) {
          const v = z[row + j]!;
          y0[j]! += v * t0;
          y1[j]! += v * t1;
        }
      } else for (let j = 0; j < p; j++) y0[j]! += z[row + j]! * t0;
    }
  }
  for (let f = 0; f < k; f++) {
    const x = xs[f]!;
    const y = ys[f]!;
    for (let j = 0; j < p; j++) y[j]! -= u[j]! * x[j]!;
  }
}

/** sum_j a[j] b[j], left to right. */
function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!;
  return s;
}

function orthonormalise(vs: Float64Array[]): void {
  for (let a = 0; a < vs.length; a++) {
    for (let b = 0; b < a; b++) {
      let d = 0;
      for (let j = 0; j < vs[a]!.length; j++) d += vs[a]![j]! * vs[b]![j]!;
      for (let j = 0; j < vs[a]!.length; j++) vs[a]![j]! -= d * vs[b]![j]!;
    }
    let norm = 0;
    for (let j = 0; j < vs[a]!.length; j++) norm += vs[a]![j]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < vs[a]!.length; j++) vs[a]![j]! /= norm;
  }
}

/** Principal-axis factoring for wide matrices (items far outnumbering models) without forming the p x p correlation matrix. */
export function pafWide(
  data: ArrayLike<ArrayLike<number>>,
  nFactors: number,
  opts: { minErr?: number; maxIter?: number; innerIter?: number } = {},
): WidePafResult {
  const { z, n, p } = scaledBlock(data);
  const k = nFactors;
  const minErr = opts.minErr ?? 0.001;
  const maxIter = opts.maxIter ?? 50;
  const inner = opts.innerIter ?? 300;
  // Principal components through the Gram matrix G = z z' (n x n), by WideBlock's kernel.
  const g = symmetricEigen(WideBlock.ofStandardized(z, n, p).gram());
  // Item loadings on component f: z' w_f; starting communalities: their squares summed over k.
  let V: Float64Array[] = [];
  const h = new Float64Array(p);
  for (let f = 0; f < k; f++) {
    const v = new Float64Array(p);
    for (let i = 0; i < n; i++) {
      const w = g.vectors.get(i, f);
      for (let j = 0; j < p; j++) v[j]! += z[i * p + j]! * w;
    }
    for (let j = 0; j < p; j++) h[j]! += v[j]! ** 2;
    V.push(v);
  }
  orthonormalise(V);
  const u = new Float64Array(p);
  const tmp = new Float64Array(n * k);
  let comm = h.reduce((a, b) => a + b, 0);
  let eigenvalues: number[] = [];
  let loadings: Float64Array[] = [];
  let iterations = 0;
  for (;;) {
    for (let j = 0; j < p; j++) u[j] = 1 - h[j]!;
    // Subspace iteration for the top k eigenpairs of z'z - diag(u).
    let prev = new Array(k).fill(Number.POSITIVE_INFINITY);
    const W = V.map(() => new Float64Array(p));
    for (let it = 0; it < inner; it++) {
      applyReduced(z, n, p, u, V, W, tmp);
      const rq = V.map((v, f) => dot(v, W[f]!));
      V = W.map((w) => Float64Array.from(w));
      orthonormalise(V);
      if (rq.every((r, f) => Math.abs(r - prev[f]) <= 1e-10 * Math.max(1, Math.abs(r)))) break;
      prev = rq;
    }
    // Rayleigh-Ritz in the converged subspace.
    applyReduced(z, n, p, u, V, W, tmp);
    const T = new (mlMatrix().Matrix)(k, k);
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) T.set(a, b, dot(V[a]!, W[b]!));
    const t = symmetricEigen(T.add(T.transpose()).div(2));
    eigenvalues = t.values;
    const rotated = Array.from({ length: k }, (_, f) => {
      const v = new Float64Array(p);
      for (let a = 0; a < k; a++) {
        const c = t.vectors.get(a, f);
        for (let j = 0; j < p; j++) v[j]! += V[a]![j]! * c;
      }
      return v;
    });
    V = rotated;
    loadings = V.map((v, f) => v.map((x) => x * Math.sqrt(Math.max(0, eigenvalues[f]!))));
    h.fill(0);
    for (const l of loadings) for (let j = 0; j < p; j++) h[j]! += l[j]! ** 2;
    const comm1 = h.reduce((a, b) => a + b, 0);
    iterations++;
    const err = Math.abs(comm - comm1);
    comm = comm1;
    if (err < minErr || iterations >= maxIter) break;
  }
  return {
    loadings: Array.from({ length: p }, (_, j) => loadings.map((l) => l[j]!)),
    communalities: Array.from(h),
    eigenvalues,
    iterations,
    startingCommunalities: 'principal-components',
  };
}
