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

import { Matrix } from 'ml-matrix';
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
  for (let j = 0; j < p; j++) {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += data[i]![j]!;
    mean /= n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (data[i]![j]! - mean) ** 2;
    const scale = ss > 0 ? 1 / Math.sqrt(ss) : 0; // (x - mean) / sd / sqrt(n - 1)
    for (let i = 0; i < n; i++) z[i * p + j] = (data[i]![j]! - mean) * scale;
  }
  return { z, n, p };
}

/**
 * ys[f] = (z'z - diag(u)) xs[f] for p-vectors xs. Row by row for all vectors at once, so that
 * z streams through once per product rather than once per vector; each sum in the same order.
 */
function applyReduced(z: Float64Array, n: number, p: number, u: Float64Array, xs: Float64Array[], ys: Float64Array[], tmp: Float64Array): void {
  const k = xs.length;
  for (let i = 0; i < n; i++) {
    const row = i * p;
    for (let f = 0; f < k; f++) {
      const x = xs[f]!;
      let s = 0;
      for (let j = 0; j < p; j++) s += z[row + j]! * x[j]!;
      tmp[f * n + i] = s;
    }
  }
  for (const y of ys) y.fill(0);
  for (let i = 0; i < n; i++) {
    const row = i * p;
    for (let f = 0; f < k; f++) {
      const t = tmp[f * n + i]!;
      const y = ys[f]!;
      for (let j = 0; j < p; j++) y[j]! += z[row + j]! * t;
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
    const T = new Matrix(k, k);
    for (let a = 0; a < k; a++)
      for (let b = 0; b < k; b++)
        T.set(
          a,
          b,
          dot(V[a]!, W[b]!),
        );
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
