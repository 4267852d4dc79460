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
import { correlationMatrix, gramCorrelationEigenvalues, pcaVariance } from './correlation-matrix.js';
import { paf, symmetricEigen } from './factor-analysis.js';

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
  const wide = p > n;
  const resampledPc: number[][] = [];
  const resampledFa: number[][] = [];
  const simulatedPc: number[][] = [];
  const simulatedFa: number[][] = [];
  // Flat row-major buffers (n x p), reused across iterations.
  const source = new Float64Array(n * p);
  data.forEach((row, i) => row.forEach((v, j) => (source[i * p + j] = v)));
  const buf = new Float64Array(n * p);
  const work = wide ? new Float64Array(n * p) : undefined;
  const order = new Int32Array(n);
  const toRows = () => Array.from({ length: n }, (_, i) => Array.from(buf.subarray(i * p, (i + 1) * p)));
  const eigen = (): { pc: number[]; fa: number[] } =>
    wide ? { pc: gramCorrelationEigenvalues(buf, n, p, work), fa: [] } : (eigenPair(toRows()) as { pc: number[]; fa: number[] });
  let spare: number | undefined;
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
    for (let j = 0; j < p; j++) {
      for (let i = 0; i < n; i++) order[i] = i;
      for (let i = n - 1; i > 0; i--) {
        const k = rng.int(i + 1);
        const t = order[i];
        order[i] = order[k];
        order[k] = t;
      }
      for (let i = 0; i < n; i++) buf[i * p + j] = source[order[i] * p + j];
    }
    const res = eigen();
    resampledPc.push(res.pc);
    resampledFa.push(res.fa);
    for (let k = 0; k < n * p; k++) buf[k] = normal();
    const sim = eigen();
    simulatedPc.push(sim.pc);
    simulatedFa.push(sim.fa);
  }
  const width = observed.pc.length;
  const byPosition = (runs: number[][], f: (xs: number[]) => number) => (runs[0]?.length ? Array.from({ length: width }, (_, j) => f(runs.map((r) => r[j]))) : []);
  const qf = (xs: number[]) => quantile7(xs, q);
  const meanf = (xs: number[]) => xs.reduce((a, c) => a + c, 0) / xs.length;
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
