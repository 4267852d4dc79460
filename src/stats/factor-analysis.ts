// Exploratory factor analysis on a correlation matrix, as psych::fa(fm = "pa") with
// rotate = "none" or "varimax": principal-axis factoring with iterated communalities starting
// from squared multiple correlations; stats::varimax (Kaiser-normalised); then psych's rules:
// flip each factor so its loadings sum to a positive number, order factors by their sum of
// squared loadings. Also KMO and Bartlett's sphericity test (PCA: correlation-matrix.ts).
// shared/vectors/spec/pa_varimax_reference.py is the executable spec this follows.

import type { Matrix } from 'ml-matrix';
import { mlMatrix } from './ml-matrix.js';
import { chiSquareSf } from './distributions.js';

export type Square = number[][];

/** Eigenvalues (descending) and matching eigenvectors (columns) of a symmetric matrix. */
export function symmetricEigen(m: Matrix): { values: number[]; vectors: Matrix } {
  const { EigenvalueDecomposition, Matrix } = mlMatrix();
  const e = new EigenvalueDecomposition(m, { assumeSymmetric: true });
  const order = e.realEigenvalues.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0]);
  const vectors = new Matrix(m.rows, m.columns);
  order.forEach(([, src], dst) => vectors.setColumn(dst, e.eigenvectorMatrix.getColumn(src)));
  return { values: order.map(([v]) => v), vectors };
}

/** Squared multiple correlations, clipped to [0, 1] (psych::smc through the pseudo-inverse). */
export function smc(R: Square): number[] {
  const { Matrix, pseudoInverse } = mlMatrix();
  const inv = pseudoInverse(new Matrix(R));
  return R.map((_, i) => Math.min(1, Math.max(0, 1 - 1 / inv.get(i, i))));
}

export interface PafResult {
  loadings: number[][];
  communalities: number[];
  uniquenesses: number[];
  /** Eigenvalues of the reduced correlation matrix at the last iteration. */
  reducedEigenvalues: number[];
  iterations: number;
}

/** Principal-axis factoring with iterated communalities (psych's fm = "pa"), unrotated and unsigned. */
export function paf(R: Square, nFactors: number, opts: { minErr?: number; maxIter?: number } = {}): PafResult {
  const { Matrix } = mlMatrix();
  const minErr = opts.minErr ?? 0.001;
  const maxIter = opts.maxIter ?? 50;
  const p = R.length;
  const Rm = new Matrix(R);
  const start = smc(R);
  for (let i = 0; i < p; i++) Rm.set(i, i, start[i]!);
  let comm = start.reduce((a, b) => a + b, 0);
  let err = comm;
  let iterations = 0;
  let L = new Matrix(p, nFactors);
  let values: number[] = [];
  while (err > minErr) {
    const e = symmetricEigen(Rm);
    values = e.values;
    L = new Matrix(p, nFactors);
    for (let f = 0; f < nFactors; f++) {
      const s = Math.sqrt(Math.max(0, values[f]!));
      for (let i = 0; i < p; i++) L.set(i, f, e.vectors.get(i, f) * s);
    }
    let comm1 = 0;
    for (let i = 0; i < p; i++) {
      let h = 0;
      for (let f = 0; f < nFactors; f++) h += L.get(i, f) ** 2;
      Rm.set(i, i, h);
      comm1 += h;
    }
    err = Math.abs(comm - comm1);
    comm = comm1;
    iterations++;
    if (iterations >= maxIter) break;
  }
  const loadings = L.to2DArray();
  const communalities = loadings.map((row) => row.reduce((s, v) => s + v * v, 0));
  return { loadings, communalities, uniquenesses: communalities.map((h) => 1 - h), reducedEigenvalues: values, iterations };
}

/** stats::varimax: Kaiser-normalised by default; returns the rotated loadings and the rotation matrix. */
export function varimax(
  loadings: number[][],
  opts: { normalize?: boolean; eps?: number } = {},
): { loadings: number[][]; rotation: number[][] } {
  const normalize = opts.normalize ?? true;
  const eps = opts.eps ?? 1e-5;
  const p = loadings.length;
  const nc = loadings[0]!.length;
  if (nc < 2) return { loadings: loadings.map((r) => r.slice()), rotation: [[1]] };
  const sc = loadings.map((row) => (normalize ? Math.sqrt(row.reduce((s, v) => s + v * v, 0)) : 1));
  const { Matrix, SingularValueDecomposition } = mlMatrix();
  const x = new Matrix(loadings.map((row, i) => row.map((v) => v / sc[i]!)));
  let TT = Matrix.eye(nc);
  let d = 0;
  for (let it = 0; it < 1000; it++) {
    const z = x.mmul(TT);
    const colSq = new Array(nc).fill(0);
    for (let i = 0; i < p; i++) for (let j = 0; j < nc; j++) colSq[j] += z.get(i, j) ** 2;
    const inner = new Matrix(p, nc);
    for (let i = 0; i < p; i++) for (let j = 0; j < nc; j++) inner.set(i, j, z.get(i, j) ** 3 - (z.get(i, j) * colSq[j]) / p);
    const B = x.transpose().mmul(inner);
    const svd = new SingularValueDecomposition(B);
    TT = svd.leftSingularVectors.mmul(svd.rightSingularVectors.transpose());
    const dPast = d;
    d = svd.diagonal.reduce((a, b) => a + b, 0);
    if (d < dPast * (1 + eps)) break;
  }
  const rotated = x
    .mmul(TT)
    .to2DArray()
    .map((row, i) => row.map((v) => v * sc[i]!));
  return { loadings: rotated, rotation: TT.to2DArray() };
}

/** psych's presentation: factors signed to positive column sums and ordered by SS loadings (descending). */
export function orientFactors(loadings: number[][]): { loadings: number[][]; order: number[]; signs: number[] } {
  const nc = loadings[0]!.length;
  const signs = Array.from({ length: nc }, (_, j) => (loadings.reduce((s, row) => s + row[j]!, 0) < 0 ? -1 : 1));
  const ss = Array.from({ length: nc }, (_, j) => loadings.reduce((s, row) => s + row[j]! ** 2, 0));
  const order = Array.from({ length: nc }, (_, j) => j).sort((a, b) => ss[b]! - ss[a]! || a - b);
  return { loadings: loadings.map((row) => order.map((j) => row[j]! * signs[j]!)), order, signs };
}

export interface FactorAnalysis extends PafResult {
  rotation: 'none' | 'varimax';
  /** Loadings after rotation and psych's sign and order rules. */
  loadings: number[][];
  ssLoadings: number[];
  proportionVar: number[];
  rotationMatrix?: number[][];
}

/** psych::fa(R, nFactors, fm = "pa", rotate = "none" | "varimax"). */
export function factorAnalysis(R: Square, nFactors: number, rotation: 'none' | 'varimax' = 'varimax'): FactorAnalysis {
  const raw = paf(R, nFactors);
  const rotated = rotation === 'varimax' && nFactors > 1 ? varimax(raw.loadings) : undefined;
  const { loadings } = orientFactors(rotated ? rotated.loadings : raw.loadings);
  const ssLoadings = loadings[0]!.map((_, j) => loadings.reduce((s, row) => s + row[j]! ** 2, 0));
  return { ...raw, rotation, loadings, ssLoadings, proportionVar: ssLoadings.map((s) => s / R.length), rotationMatrix: rotated?.rotation };
}

/** Kaiser-Meyer-Olkin sampling adequacy, overall and per variable (psych::KMO). */
export function kmo(R: Square): { msa: number; msaItems: number[] } {
  const { Matrix, pseudoInverse } = mlMatrix();
  const p = R.length;
  const Q = pseudoInverse(new Matrix(R));
  let r2 = 0;
  let q2 = 0;
  const r2i = new Array(p).fill(0);
  const q2i = new Array(p).fill(0);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < p; j++) {
      if (i === j) continue;
      const partial = -Q.get(i, j) / Math.sqrt(Q.get(i, i) * Q.get(j, j));
      r2 += R[i]![j]! ** 2;
      q2 += partial ** 2;
      r2i[j] += R[i]![j]! ** 2;
      q2i[j] += partial ** 2;
    }
  }
  return { msa: r2 / (r2 + q2), msaItems: r2i.map((r, j) => r / (r + q2i[j])) };
}

/** Bartlett's test of sphericity (psych::cortest.bartlett). */
export function bartlett(R: Square, n: number): { chisq: number; df: number; p: number } {
  const { Matrix } = mlMatrix();
  const p = R.length;
  const lu = new Matrix(R);
  const e = symmetricEigen(lu);
  const logDet = e.values.reduce((s, v) => s + Math.log(v), 0);
  const chisq = -logDet * (n - 1 - (2 * p + 5) / 6);
  const df = (p * (p - 1)) / 2;
  return { chisq, df, p: chiSquareSf(chisq, df) };
}

/** Whether a correlation matrix has full rank (KMO and Bartlett need it). */
export function hasFullRank(R: Square, tol = 1e-10): boolean {
  return symmetricEigen(new (mlMatrix().Matrix)(R)).values.every((v) => v > tol);
}
