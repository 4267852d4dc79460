// Stage 3, the repeated cross-fit: per benchmark pair and shared category, pool both
// benchmarks' items and split them into K folds (stratified by benchmark) for each of several
// seeds. In each fold an anchor score is computed from the training items (each model's mean
// over them); every held-out item is kept when its point-biserial with that anchor reaches the
// threshold; tau between the two benchmarks' accuracies over their held-out items is compared
// before and after the filter. The filter is never fitted and evaluated on the same items.

import { createRng } from '../../core/index.js';
import { bootstrap, holm } from '../../stats/index.js';
import { categoriesOf, type AuditItem, type AuditPanel } from './benchmark-matrix.js';
import { FoldScorer } from './fold-scorer.js';
import { benchmarkPairs } from './convergent-validity.js';

export interface CrossFitCell {
  pair: [string, string];
  category: string;
  folds: number;
  invalidFolds: number;
  meanDelta: number;
  lower: number;
  upper: number;
  p: number;
  pHolm: number;
  /** Mean share of held-out items the filter removed. */
  sampleLoss: number;
}

export interface CrossFitResult {
  cells: CrossFitCell[];
  /** Per category: the mean over pairs and the conservative interval (widest span of the pairs' intervals). */
  categories: Array<{ category: string; meanDelta: number; lower: number; upper: number }>;
  aggregate: { meanDelta: number; lower: number; upper: number; sampleLoss: number };
  settings: { folds: number; seeds: number; threshold: number; iterations: number };
}

export interface CrossFitOptions {
  folds?: number;
  seeds?: number;
  threshold?: number;
  iterations?: number;
  seed?: number;
}

export function crossFit(panel: AuditPanel, opts: CrossFitOptions = {}): CrossFitResult {
  const K = opts.folds ?? 5;
  const S = opts.seeds ?? 10;
  const threshold = opts.threshold ?? 0.15;
  const iterations = opts.iterations ?? 1000;
  const M = panel.models.length;
  const cells: CrossFitCell[] = [];
  for (const [i, j] of benchmarkPairs(panel)) {
    const A = panel.benchmarks[i];
    const B = panel.benchmarks[j];
    const shared = categoriesOf(A).filter((c) => categoriesOf(B).includes(c));
    const pairCells: CrossFitCell[] = [];
    for (const c of shared) {
      const pool: Array<{ item: AuditItem; side: 0 | 1 }> = [
        ...A.items.filter((it) => it.category === c).map((item) => ({ item, side: 0 as const })),
        ...B.items.filter((it) => it.category === c).map((item) => ({ item, side: 1 as const })),
      ];
      const folds = new FoldScorer(pool, M);
      const deltas: number[] = [];
      let invalid = 0;
      let lossSum = 0;
      for (let s = 0; s < S; s++) {
        const rng = createRng(`stage3:${opts.seed ?? 0}:${A.name}:${B.name}:${c}:${s}`);
        // Stratified: each benchmark's items are dealt round the folds separately.
        const fold = new Int32Array(pool.length);
        for (const side of [0, 1]) {
          const idx = rng.shuffle(pool.map((p, k) => (p.side === side ? k : -1)).filter((k) => k >= 0));
          idx.forEach((k, r) => (fold[k] = r % K));
        }
        folds.assign(fold, K);
        for (let f = 0; f < K; f++) {
          const r = folds.score(f, threshold);
          if (Number.isNaN(r.before) || Number.isNaN(r.after)) {
            invalid++;
            continue;
          }
          deltas.push(r.after - r.before);
          lossSum += r.loss;
        }
      }
      const mean = deltas.reduce((a, b) => a + b, 0) / deltas.length;
      const boot = bootstrap(deltas.length, (idx) => Array.from(idx).reduce((a, k) => a + deltas[k], 0) / idx.length, {
        iterations,
        seed: `stage3-boot:${opts.seed ?? 0}:${A.name}:${B.name}:${c}`,
      });
      const reps = Array.from(boot.replicates);
      const p = Math.min(1, 2 * Math.min(reps.filter((v) => v <= 0).length, reps.filter((v) => v >= 0).length) / reps.length);
      pairCells.push({ pair: [A.name, B.name], category: c, folds: deltas.length, invalidFolds: invalid, meanDelta: mean, lower: boot.lower, upper: boot.upper, p, pHolm: Number.NaN, sampleLoss: deltas.length ? lossSum / deltas.length : Number.NaN });
    }
    const adjusted = holm(pairCells.map((c) => c.p));
    pairCells.forEach((c, k) => (c.pHolm = adjusted[k] ?? Number.NaN));
    cells.push(...pairCells);
  }
  const cats = [...new Set(cells.map((c) => c.category))].sort();
  const categories = cats.map((category) => {
    const cc = cells.filter((c) => c.category === category);
    return { category, meanDelta: cc.reduce((s, c) => s + c.meanDelta, 0) / cc.length, lower: Math.min(...cc.map((c) => c.lower)), upper: Math.max(...cc.map((c) => c.upper)) };
  });
  return {
    cells,
    categories,
    aggregate: {
      meanDelta: categories.reduce((s, c) => s + c.meanDelta, 0) / categories.length,
      lower: Math.min(...categories.map((c) => c.lower)),
      upper: Math.max(...categories.map((c) => c.upper)),
      sampleLoss: cells.reduce((s, c) => s + c.sampleLoss, 0) / cells.length,
    },
    settings: { folds: K, seeds: S, threshold, iterations },
  };
}
