// Only the leading eigenvalues of a wide block (n observations, p >> n variables), for parallel
// analysis: its decision reads the leading observed eigenvalues against the same positions of
// the resampled ones, so each resample needs k values, not all n.
//
//   components: the k largest eigenvalues of the Gram matrix G0 = ZZ' (the non-zero
//     eigenvalues of R = Z'Z), by Lanczos on G0 (n^2 per product) instead of a dense
//     decomposition;
//   factors: one-factor principal axes with one Krylov block, as wideOneFactor(blocks: 1). Its
//     Rayleigh-Ritz problem on span(Z') is A y = mu G0 y with A = G0^2 - c G0 - G1 (c the mean
//     uniqueness, G1 = Z diag(u - c) Z'). G0 is singular only along the vector of ones (the
//     columns of Z are centred), which A also annihilates, so with S = G0 + (trace G0 / n^2) 11'
//     = LL' (Cholesky) the problem becomes the symmetric K = L^-1 A L^-T with one known null
//     vector L'1, deflated; Lanczos gives its leading k values (warm-started from the previous
//     iteration's vector). The same Ritz values as the dense path, to rounding. G0^2 is formed
//     once and A once per iteration (a product is then two triangular solves and one n x n
//     pass), and the last iteration's run is carried on from one value to k.
//
// When G0 has another null direction (two models with identical responses), the Cholesky
// pivots show it and the caller falls back to the dense path.

import { lanczosLeading, lanczosRun, type LeadingEigen } from './lanczos.js';
import { rowGram, type WideBlock } from './wide-block.js';

/** y = M x for a full row-major n x n array M (four rows at a time, each x[j] loaded once for them). */
function matVec(M: Float64Array, n: number, x: Float64Array, y: Float64Array): void {
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const r0 = i * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let j = 0; j < n; j++) {
      const v = x[j]!;
      s0 += M[r0 + j]! * v;
      s1 += M[r1 + j]! * v;
      s2 += M[r2 + j]! * v;
      s3 += M[r3 + j]! * v;
    }
    y[i] = s0;
    y[i + 1] = s1;
    y[i + 2] = s2;
    y[i + 3] = s3;
  }
  for (; i < n; i++) {
    const r = i * n;
    let s = 0;
    for (let j = 0; j < n; j++) s += M[r + j]! * x[j]!;
    y[i] = s;
  }
}

/** The k largest eigenpairs of a full symmetric n x n array (for the Gram matrix G0); only the first `vectors` eigenvectors are formed. */
export function gramLeading(G: Float64Array, n: number, k: number, vectors = k): LeadingEigen {
  return lanczosLeading((x, y) => matVec(G, n, x, y), n, Math.min(k, n), { seed: 'gram', vectors });
}

/** Lower-triangular L (row-major) with LL' = S, or undefined when a pivot shows S (nearly) singular. */
function cholesky(S: Float64Array, n: number): Float64Array | undefined {
  const L = new Float64Array(n * n);
  let maxDiag = 0;
  for (let i = 0; i < n; i++) maxDiag = Math.max(maxDiag, S[i * n + i]!);
  for (let j = 0; j < n; j++) {
    let d = S[j * n + j]!;
    for (let k = 0; k < j; k++) d -= L[j * n + k]! ** 2;
    if (!(d > 1e-10 * maxDiag)) return undefined;
    const ljj = Math.sqrt(d);
    L[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = S[i * n + j]!;
      for (let k = 0; k < j; k++) s -= L[i * n + k]! * L[j * n + k]!;
      L[i * n + j] = s / ljj;
    }
  }
  return L;
}

/**
 * Solves L x = b in place (forward substitution). Four rows at a time share the pass over the
 * solved values (four sums side by side); each row's sum keeps its order (k ascending).
 */
function forward(L: Float64Array, n: number, b: Float64Array): void {
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const r0 = i * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    let s0 = b[i]!;
    let s1 = b[i + 1]!;
    let s2 = b[i + 2]!;
    let s3 = b[i + 3]!;
    for (let k = 0; k < i; k++) {
      const v = b[k]!;
      s0 -= L[r0 + k]! * v;
      s1 -= L[r1 + k]! * v;
      s2 -= L[r2 + k]! * v;
      s3 -= L[r3 + k]! * v;
    }
    const b0 = s0 / L[r0 + i]!;
    s1 -= L[r1 + i]! * b0;
    const b1 = s1 / L[r1 + i + 1]!;
    s2 -= L[r2 + i]! * b0;
    s2 -= L[r2 + i + 1]! * b1;
    const b2 = s2 / L[r2 + i + 2]!;
    s3 -= L[r3 + i]! * b0;
    s3 -= L[r3 + i + 1]! * b1;
    s3 -= L[r3 + i + 2]! * b2;
    b[i] = b0;
    b[i + 1] = b1;
    b[i + 2] = b2;
    b[i + 3] = s3 / L[r3 + i + 3]!;
  }
  for (; i < n; i++) {
    let s = b[i]!;
    const r = i * n;
    for (let k = 0; k < i; k++) s -= L[r + k]! * b[k]!;
    b[i] = s / L[r + i]!;
  }
}

/**
 * Solves U x = b in place for upper-triangular U = L' stored row-major (back substitution), four
 * rows at a time: the solved values below the block first (four sums side by side), then the
 * block's own. forward's mirror image, kept written out: a shared helper would return its four
 * sums through an array in the kernel's innermost loop.
 */
function backward(U: Float64Array, n: number, b: Float64Array): void {
  let i = n - 1;
  for (; i >= 3; i -= 4) {
    const r3 = i * n;
    const r2 = r3 - n;
    const r1 = r2 - n;
    const r0 = r1 - n;
    let s0 = b[i - 3]!;
    let s1 = b[i - 2]!;
    let s2 = b[i - 1]!;
    let s3 = b[i]!;
    for (let k = i + 1; k < n; k++) {
      const v = b[k]!;
      s0 -= U[r0 + k]! * v;
      s1 -= U[r1 + k]! * v;
      s2 -= U[r2 + k]! * v;
      s3 -= U[r3 + k]! * v;
    }
    const b3 = s3 / U[r3 + i]!;
    s2 -= U[r2 + i]! * b3;
    const b2 = s2 / U[r2 + i - 1]!;
    s1 -= U[r1 + i]! * b3;
    s1 -= U[r1 + i - 1]! * b2;
    const b1 = s1 / U[r1 + i - 2]!;
    s0 -= U[r0 + i]! * b3;
    s0 -= U[r0 + i - 1]! * b2;
    s0 -= U[r0 + i - 2]! * b1;
    b[i] = b3;
    b[i - 1] = b2;
    b[i - 2] = b1;
    b[i - 3] = s0 / U[r0 + i - 3]!;
  }
  for (; i >= 0; i--) {
    let s = b[i]!;
    const r = i * n;
    for (let k = i + 1; k < n; k++) s -= U[r + k]! * b[k]!;
    b[i] = s / U[r + i]!;
  }
}

/** The transpose of a row-major n x n array. */
function transpose(M: Float64Array, n: number): Float64Array {
  const T = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) T[j * n + i] = M[i * n + j]!;
  return T;
}

export interface WideOneFactorLeading {
  /** The k largest eigenvalues of the reduced matrix at the last iteration. */
  reducedEigenvalues: number[];
  communalities: Float64Array;
  iterations: number;
}

/**
 * One-factor principal axes on a wide block (one Krylov block), from first-component
 * communalities, reporting the leading k eigenvalues of the last reduced matrix; undefined
 * when G0 has a null direction besides the ones vector (use wideOneFactor then).
 * `gram` is G0 as a full array and `first` its leading unit eigenvector.
 */
export function wideOneFactorLeading(
  block: WideBlock,
  k: number,
  opts: { gram: Float64Array; first: Float64Array; minErr?: number; maxIter?: number },
): WideOneFactorLeading | undefined {
  const minErr = opts.minErr ?? 0.001;
  const maxIter = opts.maxIter ?? 50;
  const { n, p } = block;
  const G0 = opts.gram;
  let trace = 0;
  for (let i = 0; i < n; i++) trace += G0[i * n + i]!;
  const S = Float64Array.from(G0);
  const lift = trace / (n * n);
  for (let i = 0; i < n * n; i++) S[i]! += lift;
  const L = cholesky(S, n);
  if (!L) return undefined;
  const U = transpose(L, n);
  // K's known null vector: L'1, normalised.
  const null0 = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) null0[i]! += L[j * n + i]!;
  const norm0 = Math.sqrt(null0.reduce((s, v) => s + v * v, 0));
  for (let i = 0; i < n; i++) null0[i]! /= norm0;

  let h = block.combine(opts.first).map((l) => l * l);
  let total = h.reduce((a, b) => a + b, 0);
  const u = new Float64Array(p);
  const d = new Float64Array(p);
  const y = new Float64Array(n);
  // G0^2 once (the Gram matrix of G0's rows, by the SIMD kernel): each iteration's A is then
  // G0^2 - c G0 - G1 as one array, so that a product costs one n x n pass instead of three.
  const G0sq = rowGram(G0, n, n);
  let start: Float64Array | undefined;
  let iterations = 0;
  for (;;) {
    let c = 0;
    for (let j = 0; j < p; j++) {
      u[j] = 1 - h[j]!;
      c += u[j]!;
    }
    c /= p;
    for (let j = 0; j < p; j++) d[j] = u[j]! - c;
    const A = block.weightedGramArray(d);
    for (let i = 0; i < n * n; i++) A[i] = G0sq[i]! - c * G0[i]! - A[i]!;
    // K x = L^-1 A y with y = L^-T x.
    const K = (x: Float64Array, out: Float64Array) => {
      y.set(x);
      backward(U, n, y);
      matVec(A, n, y, out);
      forward(L, n, out);
    };
    // The leading pair alone drives the iteration; the k leading values only of the last one.
    const run = lanczosRun(K, n, { deflate: [null0], start, seed: 'wide-factor' });
    const e = run.leading(1);
    start = e.vectors[0];
    const yFirst = Float64Array.from(e.vectors[0]!);
    backward(U, n, yFirst);
    const first = block.combine(yFirst);
    const mu = Math.max(0, e.values[0]!);
    const next = first.map((x) => mu * x * x);
    const sum = next.reduce((a, b) => a + b, 0);
    iterations++;
    if (Math.abs(sum - total) < minErr || iterations >= maxIter) {
      const kk = Math.min(k, n - 1);
      // The last iteration's Krylov space carried on to k values (no product repeated).
      const values = kk === 1 ? e.values : run.leading(kk, 0).values;
      return { reducedEigenvalues: values, communalities: next, iterations };
    }
    h = next;
    total = sum;
  }
}
