// Stage 1, convergent validity: per benchmark pair and shared category, Kendall tau-b between
// the models' mean accuracies, a paired item-bootstrap interval (items resampled within each
// benchmark), Holm-adjusted p-values within each pair, and the acceptance rule.

import { createRng } from '../../core/index.js';
import { holm, kendallTau, kendallTauB, quantile7 } from '../../stats/index.js';
import { accuracies, categoriesOf, flatAccuracies, flatten, PackedItems, type AuditItem, type AuditPanel } from './benchmark-matrix.js';

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

export function benchmarkPairs(panel: AuditPanel): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < panel.benchmarks.length; i++) for (let j = i + 1; j < panel.benchmarks.length; j++) out.push([i, j]);
  return out;
}

export function convergentValidity(panel: AuditPanel, opts: ConvergenceOptions = {}): ConvergenceResult {
  const iterations = opts.iterations ?? 1000;
  const tauMin = opts.tauMin ?? 0.6;
  const lowerMin = opts.lowerMin ?? 0.4;
  const M = panel.models.length;
  const cells: ConvergenceCell[] = [];
  const pairs: ConvergenceResult['pairs'] = [];
  for (const [i, j] of benchmarkPairs(panel)) {
    const A = panel.benchmarks[i];
    const B = panel.benchmarks[j];
    const catsA = categoriesOf(A);
    const catsB = categoriesOf(B);
    const shared = catsA.filter((c) => catsB.includes(c));
    const excluded = [...catsA, ...catsB].filter((c) => !shared.includes(c)).filter((c, k, xs) => xs.indexOf(c) === k);
    const pairCells: ConvergenceCell[] = [];
    for (const c of shared) {
      const itemsA = A.items.filter((it) => it.category === c);
      const itemsB = B.items.filter((it) => it.category === c);
      const k = kendallTauB(accuracies(itemsA, M), accuracies(itemsB, M));
      const rng = createRng(`stage1:${opts.seed ?? 0}:${A.name}:${B.name}:${c}`);
      const idxA = new Int32Array(itemsA.length);
      const idxB = new Int32Array(itemsB.length);
      // Packed sums where a category is small enough, plain sums otherwise.
      const summer = (items: AuditItem[]) => {
        if (items.length < PackedItems.BASE) {
          const packed = new PackedItems(items, M);
          return (idx: Int32Array, out: Float64Array) => packed.accuracies(idx, out);
        }
        const flat = flatten(items, M);
        return (idx: Int32Array, out: Float64Array): Float64Array => flatAccuracies(flat, M, idx, out as Float64Array<ArrayBuffer>);
      };
      const sumA = summer(itemsA);
      const sumB = summer(itemsB);
      const accA = new Float64Array(M);
      const accB = new Float64Array(M);
      const reps: number[] = [];
      for (let b = 0; b < iterations; b++) {
        rng.fillInts(idxA, itemsA.length);
        rng.fillInts(idxB, itemsB.length);
        const tau = kendallTau(sumA(idxA, accA), sumB(idxB, accB));
        if (!Number.isNaN(tau)) reps.push(tau);
      }
      pairCells.push({
        pair: [A.name, B.name],
        category: c,
        itemsA: itemsA.length,
        itemsB: itemsB.length,
        tau: k.tau,
        lower: quantile7(reps, 0.025),
        upper: quantile7(reps, 0.975),
        p: k.p,
        pHolm: Number.NaN,
        accepted: false,
      });
    }
    const adjusted = holm(pairCells.map((c) => (Number.isNaN(c.p) ? null : c.p)));
    pairCells.forEach((c, k) => {
      c.pHolm = adjusted[k] ?? Number.NaN;
      c.accepted = c.tau >= tauMin && c.lower >= lowerMin;
    });
    cells.push(...pairCells);
    const meanTau = pairCells.reduce((s, c) => s + c.tau, 0) / pairCells.length;
    pairs.push({ pair: [A.name, B.name], meanTau, accepted: pairCells.filter((c) => c.accepted).length, categories: pairCells.length, excludedCategories: excluded });
  }
  return { cells, pairs, overallMeanTau: pairs.reduce((s, p) => s + p.meanTau, 0) / pairs.length, rule: { tauMin, lowerMin } };
}
