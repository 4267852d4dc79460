// Horn's parallel analysis (as psych::fa.parallel(fa = "both") with fm = "pa"): observed
// eigenvalues of the correlation matrix (components) and of the one-factor reduced matrix
// (factors), against the 95th percentile of the same eigenvalues over seeded resamples and
// over simulated normal data. Resamples permute each column independently (Buja & Eyuboglu
// 1992) rather than drawing with replacement as psych does: a permuted column keeps its
// marginals, so binary items never turn constant and no resample has to be drawn again. The number
// of components (factors) is the count of leading observed values above the resampled quantile.

import { mlMatrix } from './ml-matrix.js';
import { createRng } from '../core/random.js';
import { quantile7 } from './bootstrap.js';
import { correlationMatrix } from './correlation-matrix.js';
import { paf, symmetricEigen } from './factor-analysis.js';
import { requireMatrix } from './validate.js';
import { WideBlock } from './wide-block.js';
import { gramLeading, wideOneFactorLeading } from './wide-leading.js';
import { wideOneFactor } from './wide-reduced.js';

export interface ParallelAnalysisResult {
  /**
   * 'full' on a p x p correlation matrix; 'wide' when variables outnumber observations:
   * component eigenvalues come from the n x n Gram matrix, factor eigenvalues from one-factor
   * principal axes started at first-component communalities, with the reduced matrix's
   * eigenvalues by Rayleigh-Ritz (see wide-reduced.ts). Only the leading n (components) and
   * n - 1 (factors) eigenvalues are reported then; the rest are zero or belong to the bulk.
   */
  method: 'full' | 'wide';
  observedPc: number[];
  observedFa: number[];
  resampledPcQ: number[];
  resampledFaQ: number[];
  simulatedPcQ: number[];
  simulatedFaQ: number[];
  resampledPcMean: number[];
  simulatedPcMean: number[];
  nComponents: number;
  nFactors: number;
  iterations: number;
  /**
   * With `leading` on wide data: how many leading eigenvalues each matrix had computed (the
   * arrays hold that many). Absent when every eigenvalue was computed.
   */
  leading?: number;
}

export interface ParallelAnalysisOptions {
  iterations?: number;
  quantile?: number;
  seed: number | string;
  /**
   * false skips the simulated normal data (their arrays come back empty): the counts use the
   * resampled data alone, and the resamples are the same as with the simulated side, because
   * the generator is advanced past the normal draws it would have made.
   */
  simulated?: boolean;
  /**
   * Wide data only: compute just the leading `leading` eigenvalues of every matrix (Lanczos on
   * the n x n Gram and Ritz matrices, see wide-leading.ts) rather than all of them, doubling
   * it and starting again in the rare case the counts reach it. The counts are the same as
   * with every eigenvalue; the arrays hold the leading values only.
   */
  leading?: number;
}

function eigenPair(data: number[][]): { pc: number[]; fa: number[] } | undefined {
  const R = correlationMatrix(data);
  if (R.some((row, i) => !Number.isFinite(row[i]) || row[i] === 0)) return undefined;
  return { pc: symmetricEigen(new (mlMatrix().Matrix)(R)).values, fa: paf(R, 1).reducedEigenvalues };
}

function wideEigenPair(block: WideBlock, leading?: number): { pc: number[]; fa: number[] } {
  if (leading) {
    const gram = block.gramArray();
    const g = gramLeading(gram, block.n, leading, 1);
    const fa = wideOneFactorLeading(block, leading, { gram, first: g.vectors[0]! });
    if (fa) return { pc: g.values.map((v) => Math.max(0, v)), fa: fa.reducedEigenvalues };
    // Another null direction in the Gram matrix (duplicate observations): the dense path.
  }
  const gram = block.gram();
  const gramEigen = symmetricEigen(gram);
  const fa = wideOneFactor(block, { blocks: 1, gram, gramEigen }).reducedEigenvalues;
  return { pc: gramEigen.values.map((v) => Math.max(0, v)), fa };
}

function countAbove(observed: number[], threshold: number[]): number {
  const j = observed.findIndex((v, i) => i >= threshold.length || v <= threshold[i]!);
  return j < 0 ? observed.length : j;
}

/** Parallel analysis of an n x p data matrix (rows are observations). */
export function parallelAnalysis(data: number[][], opts: ParallelAnalysisOptions): ParallelAnalysisResult {
  requireMatrix('parallelAnalysis', data);
  const wide = data[0]!.length > data.length;
  if (!opts.leading || !wide) return runParallelAnalysis(data, opts, undefined);
  let k = Math.min(opts.leading, data.length - 1);
  for (;;) {
    const r = runParallelAnalysis(data, opts, k);
    if ((r.nComponents < k && r.nFactors < k) || k >= data.length - 1) return r;
    k = Math.min(2 * k, data.length - 1);
  }
}

function runParallelAnalysis(data: number[][], opts: ParallelAnalysisOptions, leading: number | undefined): ParallelAnalysisResult {
  const iterations = opts.iterations ?? 20;
  const q = opts.quantile ?? 0.95;
  const rng = createRng(opts.seed);
  const n = data.length;
  const p = data[0]!.length;
  const wide = p > n;
  if (data[0]!.some((_, j) => data.every((row) => row[j] === data[0]![j])))
    throw new Error('a column of the data is constant; drop it before parallel analysis');
  const observedBlock = wide ? WideBlock.fromRows(data) : undefined;
  const observed = observedBlock ? wideEigenPair(observedBlock, leading) : eigenPair(data);
  if (!observed) throw new Error('a column of the data is constant; drop it before parallel analysis');
  const resampledPc: number[][] = [];
  const resampledFa: number[][] = [];
  const simulatedPc: number[][] = [];
  const simulatedFa: number[][] = [];
  // Flat row-major buffers (n x p), reused across iterations. Wide data permutes the
  // standardised columns (a permuted column keeps its mean and spread, so it stays standardised).
  const source = observedBlock ? observedBlock.z : new Float64Array(n * p);
  if (!observedBlock) data.forEach((row, i) => row.forEach((v, j) => (source[i * p + j] = v)));
  const buf = new Float64Array(n * p);
  const work = new Float64Array(n * p);
  const TILE = 64;
  // A tile of columns, column-major (tile[c * n + i]: column j0 + c, row i).
  const tile = new Float64Array(TILE * n);
  const toRows = () => Array.from({ length: n }, (_, i) => Array.from(buf.subarray(i * p, (i + 1) * p)));
  const eigen = (standardized: boolean): { pc: number[]; fa: number[] } => {
    if (!wide) return eigenPair(toRows()) as { pc: number[]; fa: number[] };
    return wideEigenPair(standardized ? WideBlock.ofStandardized(buf, n, p) : WideBlock.standardize(buf, n, p, work), leading);
  };
  let spare: number | undefined;
  // Advances the generator exactly as `count` calls of normal() would (two words per pair).
  const skipNormals = (count: number) => {
    let left = count;
    if (spare !== undefined && left > 0) {
      spare = undefined;
      left--;
    }
    const pairs = Math.ceil(left / 2);
    if (left % 2 === 1) spare = 0; // the pair's second value would be left over
    rng.skip(2 * pairs);
  };
  // One column's draws at a time (uniform[n - 1 - i] is the draw for position i), as rng.int(i + 1) would make them.
  const uniform = new Float64Array(Math.max(0, n - 1));
  const normal = () => {
    // Box-Muller, both values used.
    if (spare !== undefined) {
      const v = spare;
      spare = undefined;
      return v;
    }
    const u = 1 - rng.next();
    const r = Math.sqrt(-2 * Math.log(u));
    const t = 2 * Math.PI * rng.next();
    spare = r * Math.sin(t);
    return r * Math.cos(t);
  };
  for (let b = 0; b < iterations; b++) {
    // Columns in tiles of 64: the tile is copied out column by column, each column shuffled in
    // place (Fisher-Yates, the swaps an index permutation would make, on the values), and copied
    // back row by row, so that every access stays within the cached tile.
    for (let j0 = 0; j0 < p; j0 += TILE) {
      const w = Math.min(p, j0 + TILE) - j0;
      for (let i = 0; i < n; i++) {
        const row = i * p + j0;
        for (let c = 0, o = i; c < w; c++, o += n) tile[o] = source[row + c]!;
      }
      for (let c = 0; c < w; c++) {
        const o = c * n;
        rng.fillUniform(uniform);
        for (let i = n - 1; i > 0; i--) {
          const k = o + Math.floor(uniform[n - 1 - i]! * (i + 1));
          const t = tile[o + i]!;
          tile[o + i] = tile[k]!;
          tile[k] = t;
        }
      }
      for (let i = 0; i < n; i++) {
        const row = i * p + j0;
        for (let c = 0, o = i; c < w; c++, o += n) buf[row + c] = tile[o]!;
      }
    }
    const res = eigen(true);
    resampledPc.push(res.pc);
    resampledFa.push(res.fa);
    if (opts.simulated === false) {
      skipNormals(n * p);
      continue;
    }
    for (let k = 0; k < n * p; k++) buf[k] = normal();
    const sim = eigen(false);
    simulatedPc.push(sim.pc);
    simulatedFa.push(sim.fa);
  }
  // Position by position over the runs (each run's eigenvalues descending).
  const byPosition = (runs: number[][], f: (xs: number[]) => number) => {
    if (runs.length === 0) return [];
    const width = Math.min(...runs.map((r) => r.length));
    return Array.from({ length: width }, (_, j) => f(runs.map((r) => r[j]!)));
  };
  const qf = (xs: number[]) => quantile7(xs, q);
  const meanf = (xs: number[]) => xs.reduce((a, c) => a + c, 0) / xs.length;
  const resampledPcQ = byPosition(resampledPc, qf);
  const resampledFaQ = byPosition(resampledFa, qf);
  return {
    method: wide ? 'wide' : 'full',
    observedPc: observed.pc,
    observedFa: observed.fa,
    resampledPcQ,
    resampledFaQ,
    simulatedPcQ: byPosition(simulatedPc, qf),
    simulatedFaQ: byPosition(simulatedFa, qf),
    resampledPcMean: byPosition(resampledPc, meanf),
    simulatedPcMean: byPosition(simulatedPc, meanf),
    nComponents: countAbove(observed.pc, resampledPcQ),
    nFactors: countAbove(observed.fa, resampledFaQ),
    iterations,
    ...(leading ? { leading } : {}),
  };
}
