// Horn's parallel analysis (as psych::fa.parallel(fa = "both") with fm = "pa"): observed
// eigenvalues of the correlation matrix (components) and of the one-factor reduced matrix
// (factors), against the 95th percentile of the same eigenvalues over seeded resamples and
// over simulated normal data. Resamples permute each column independently (Buja & Eyuboglu
// 1992) rather than drawing with replacement as psych does: a permuted column keeps its
// marginals, so binary items never turn constant and no resample has to be drawn again. The number
// of components (factors) is the count of leading observed values above the resampled quantile.

import { Matrix } from 'ml-matrix';
import { createRng } from '../core/index.js';
import { quantile7 } from './bootstrap.js';
import { correlationMatrix, paf, pcaVariance, symmetricEigen } from './factor-analysis.js';

export interface ParallelAnalysisResult {
  /**
   * 'full' on a p x p correlation matrix; 'components-only' when variables outnumber
   * observations: component eigenvalues come from the n x n Gram matrix and the factor side
   * (which needs the p x p reduced matrix) is not computed (observedFa and friends are empty,
   * nFactors is null).
   */
  method: 'full' | 'components-only';
  observedPc: number[];
  observedFa: number[];
  resampledPcQ: number[];
  resampledFaQ: number[];
  simulatedPcQ: number[];
  simulatedFaQ: number[];
  resampledPcMean: number[];
  simulatedPcMean: number[];
  nComponents: number;
  nFactors: number | null;
  iterations: number;
}

function eigenPair(data: number[][]): { pc: number[]; fa: number[] } | undefined {
  if (data[0].length > data.length) {
    // Wide data: component eigenvalues through the Gram matrix; no factor side.
    const constant = data[0].some((_, j) => data.every((row) => row[j] === data[0][j]));
    if (constant) return undefined;
    return { pc: pcaVariance(data).eigenvalues, fa: [] };
  }
  const R = correlationMatrix(data);
  if (R.some((row, i) => !Number.isFinite(row[i]) || row[i] === 0)) return undefined;
  return { pc: symmetricEigen(new Matrix(R)).values, fa: paf(R, 1).reducedEigenvalues };
}

function countAbove(observed: number[], threshold: number[]): number {
  const j = observed.findIndex((v, i) => v <= threshold[i]);
  return j < 0 ? observed.length : j;
}

/** Parallel analysis of an n x p data matrix. */
export function parallelAnalysis(data: number[][], opts: { iterations?: number; quantile?: number; seed: number | string }): ParallelAnalysisResult {
  const iterations = opts.iterations ?? 20;
  const q = opts.quantile ?? 0.95;
  const rng = createRng(opts.seed);
  const n = data.length;
  const p = data[0].length;
  const observed = eigenPair(data);
  if (!observed) throw new Error('a column of the data is constant; drop it before parallel analysis');
  const normal = () => {
    // Box-Muller.
    const u = 1 - rng.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
  };
  const resampledPc: number[][] = [];
  const resampledFa: number[][] = [];
  const simulatedPc: number[][] = [];
  const simulatedFa: number[][] = [];
  for (let b = 0; b < iterations; b++) {
    const sample = data.map((row) => row.slice());
    for (let j = 0; j < p; j++) {
      const order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
      for (let i = 0; i < n; i++) sample[i][j] = data[order[i]][j];
    }
    const res = eigenPair(sample);
    if (!res) throw new Error('a permuted column is constant, which cannot happen unless the data has a constant column');
    resampledPc.push(res.pc);
    resampledFa.push(res.fa);
    const sim = eigenPair(Array.from({ length: n }, () => Array.from({ length: p }, normal)))!;
    simulatedPc.push(sim.pc);
    simulatedFa.push(sim.fa);
  }
  const wide = p > n;
  const width = observed.pc.length;
  const byPosition = (runs: number[][], f: (xs: number[]) => number) => (runs[0]?.length ? Array.from({ length: width }, (_, j) => f(runs.map((r) => r[j]))) : []);
  const qf = (xs: number[]) => quantile7(xs, q);
  const meanf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const resampledPcQ = byPosition(resampledPc, qf);
  const resampledFaQ = byPosition(resampledFa, qf);
  return {
    method: wide ? 'components-only' : 'full',
    observedPc: observed.pc,
    observedFa: observed.fa,
    resampledPcQ,
    resampledFaQ,
    simulatedPcQ: byPosition(simulatedPc, qf),
    simulatedFaQ: byPosition(simulatedFa, qf),
    resampledPcMean: byPosition(resampledPc, meanf),
    simulatedPcMean: byPosition(simulatedPc, meanf),
    nComponents: countAbove(observed.pc, resampledPcQ),
    nFactors: wide ? null : countAbove(observed.fa, resampledFaQ),
    iterations,
  };
}
