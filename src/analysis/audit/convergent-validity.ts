// Stage 1, convergent validity: per benchmark pair and shared category, Kendall tau-b between
// the models' mean accuracies, a paired item-bootstrap interval (items resampled within each
// benchmark), Holm-adjusted p-values within each pair, and the acceptance rule. Each cell is
// computed on its own (convergenceCell, from plain typed arrays, so that it can run on a worker
// thread) and the cells are then gathered per pair (gatherConvergence).

import { createRng } from '../../core/index.js';
import { holm, kendallTau, kendallTauB, quantile7 } from '../../stats/index.js';
import { categoriesOf, flatAccuracies, PackedItems, type AuditPanel } from './benchmark-matrix.js';

export interface ConvergenceCell {
  pair: [string, string];
  category: string;
  itemsA: number;
  itemsB: number;
  tau: number;
  lower: number;
  upper: number;
  p: number;
  pHolm: number;
  accepted: boolean;
}

export interface ConvergenceResult {
  cells: ConvergenceCell[];
  pairs: Array<{ pair: [string, string]; meanTau: number; accepted: number; categories: number; excludedCategories: string[] }>;
  overallMeanTau: number;
  rule: { tauMin: number; lowerMin: number };
}

export interface ConvergenceOptions {
  iterations?: number;
  seed?: number;
  tauMin?: number;
  lowerMin?: number;
}

/** One cell's data: both benchmarks' items in one category, flattened item-major (item * models + model). */
export interface CellData {
  pair: [string, string];
  category: string;
  models: number;
  a: Uint8Array;
  b: Uint8Array;
}

export function benchmarkPairs(panel: AuditPanel): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < panel.benchmarks.length; i++) for (let j = i + 1; j < panel.benchmarks.length; j++) out.push([i, j]);
  return out;
}

/** Per pair: the shared categories' cell data, and the categories found in one benchmark only. */
export function planCells(panel: AuditPanel): Array<{ pair: [string, string]; cells: CellData[]; excluded: string[] }> {
  const M = panel.models.length;
  return benchmarkPairs(panel).map(([i, j]) => {
    const A = panel.benchmarks[i];
    const B = panel.benchmarks[j];
    const catsA = categoriesOf(A);
    const catsB = categoriesOf(B);
    const shared = catsA.filter((c) => catsB.includes(c));
    const excluded = [...new Set([...catsA, ...catsB])].filter((c) => !shared.includes(c));
    const flat = (items: typeof A.items, c: string) => {
      const inCat = items.filter((it) => it.category === c);
      const out = new Uint8Array(inCat.length * M);
      inCat.forEach((it, k) => out.set(it.responses, k * M));
      return out;
    };
    return {
      pair: [A.name, B.name],
      cells: shared.map((c) => ({ pair: [A.name, B.name], category: c, models: M, a: flat(A.items, c), b: flat(B.items, c) })),
      excluded,
    };
  });
}

/** Sums of resampled items: packed four models to a double while a category is small enough. */
function resampler(flat: Uint8Array, models: number): (idx: Int32Array, out: Float64Array) => Float64Array {
  const n = flat.length / models;
  if (n < PackedItems.BASE) {
    const packed = PackedItems.fromFlat(flat, models);
    return (idx, out) => packed.accuracies(idx, out);
  }
  return (idx, out) => flatAccuracies(flat, models, idx, out as Float64Array<ArrayBuffer>);
}

/** Stage 1 for one pair and category: tau-b, its bootstrap interval and p (Holm comes later). */
export function convergenceCell(d: CellData, opts: ConvergenceOptions = {}): ConvergenceCell {
  const iterations = opts.iterations ?? 1000;
  const M = d.models;
  const nA = d.a.length / M;
  const nB = d.b.length / M;
  const k = kendallTauB(flatAccuracies(d.a, M), flatAccuracies(d.b, M));
  const rng = createRng(`stage1:${opts.seed ?? 0}:${d.pair[0]}:${d.pair[1]}:${d.category}`);
  const idxA = new Int32Array(nA);
  const idxB = new Int32Array(nB);
  const sumA = resampler(d.a, M);
  const sumB = resampler(d.b, M);
  const accA = new Float64Array(M);
  const accB = new Float64Array(M);
  const reps: number[] = [];
  for (let b = 0; b < iterations; b++) {
    rng.fillInts(idxA, nA);
    rng.fillInts(idxB, nB);
    const tau = kendallTau(sumA(idxA, accA), sumB(idxB, accB));
    if (!Number.isNaN(tau)) reps.push(tau);
  }
  return {
    pair: d.pair,
    category: d.category,
    itemsA: nA,
    itemsB: nB,
    tau: k.tau,
    lower: quantile7(reps, 0.025),
    upper: quantile7(reps, 0.975),
    p: k.p,
    pHolm: Number.NaN,
    accepted: false,
  };
}

/** Holm within each pair, the acceptance rule, and per-pair and overall means. */
export function gatherConvergence(
  plan: ReturnType<typeof planCells>,
  cells: ConvergenceCell[][],
  opts: ConvergenceOptions = {},
): ConvergenceResult {
  const tauMin = opts.tauMin ?? 0.6;
  const lowerMin = opts.lowerMin ?? 0.4;
  const pairs = plan.map(({ pair, excluded }, k) => {
    const pairCells = cells[k];
    const adjusted = holm(pairCells.map((c) => (Number.isNaN(c.p) ? null : c.p)));
    pairCells.forEach((c, i) => {
      c.pHolm = adjusted[i] ?? Number.NaN;
      c.accepted = c.tau >= tauMin && c.lower >= lowerMin;
    });
    const meanTau = pairCells.reduce((s, c) => s + c.tau, 0) / pairCells.length;
    return {
      pair,
      meanTau,
      accepted: pairCells.filter((c) => c.accepted).length,
      categories: pairCells.length,
      excludedCategories: excluded,
    };
  });
  return {
    cells: cells.flat(),
    pairs,
    overallMeanTau: pairs.reduce((s, p) => s + p.meanTau, 0) / pairs.length,
    rule: { tauMin, lowerMin },
  };
}

export function convergentValidity(panel: AuditPanel, opts: ConvergenceOptions = {}): ConvergenceResult {
  const plan = planCells(panel);
  return gatherConvergence(
    plan,
    plan.map((p) => p.cells.map((d) => convergenceCell(d, opts))),
    opts,
  );
}
