// Stage 3, the repeated cross-fit: per benchmark pair and shared category, pool both
// benchmarks' items and split them into K folds (stratified by benchmark) for each of several
// seeds. In each fold an anchor score is computed from the training items (each model's mean
// over them); every held-out item is kept when its point-biserial with that anchor reaches the
// threshold; tau between the two benchmarks' accuracies over their held-out items is compared
// before and after the filter. The filter is never fitted and evaluated on the same items.

import { createRng } from '../../core/index.js';
import { bootstrap, holm } from '../../stats/index.js';
import type { AuditPanel } from './benchmark-matrix.js';
import { planCells, type CellData } from './convergent-validity.js';
import { FoldScorer } from './fold-scorer.js';

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

/** Stage 3 for one pair and category: per-fold delta tau, its mean, bootstrap CI and p. */
export function crossFitCell(d: CellData, opts: CrossFitOptions = {}): CrossFitCell {
  const K = opts.folds ?? 5;
  const S = opts.seeds ?? 10;
  const threshold = opts.threshold ?? 0.15;
  const iterations = opts.iterations ?? 1000;
  const [nameA, nameB] = d.pair;
  const folds = new FoldScorer(d.a, d.b, d.models);
  const deltas: number[] = [];
  let invalid = 0;
  let lossSum = 0;
  for (let s = 0; s < S; s++) {
    const rng = createRng(`stage3:${opts.seed ?? 0}:${nameA}:${nameB}:${d.category}:${s}`);
    // Stratified: each benchmark's items are dealt round the folds separately.
    const fold = new Int32Array(folds.size);
    for (const side of [0, 1]) {
      const idx = rng.shuffle(Array.from({ length: folds.size }, (_, k) => (folds.sideOf(k) === side ? k : -1)).filter((k) => k >= 0));
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
    seed: `stage3-boot:${opts.seed ?? 0}:${nameA}:${nameB}:${d.category}`,
  });
  const reps = Array.from(boot.replicates);
  const p = Math.min(1, (2 * Math.min(reps.filter((v) => v <= 0).length, reps.filter((v) => v >= 0).length)) / reps.length);
  return {
    pair: d.pair,
    category: d.category,
    folds: deltas.length,
    invalidFolds: invalid,
    meanDelta: mean,
    lower: boot.lower,
    upper: boot.upper,
    p,
    pHolm: Number.NaN,
    sampleLoss: deltas.length ? lossSum / deltas.length : Number.NaN,
  };
}

/** Holm within each pair; per category the mean over pairs and the conservative interval. */
export function gatherCrossFit(byPair: CrossFitCell[][], opts: CrossFitOptions = {}): CrossFitResult {
  for (const pairCells of byPair) {
    const adjusted = holm(pairCells.map((c) => c.p));
    pairCells.forEach((c, k) => (c.pHolm = adjusted[k] ?? Number.NaN));
  }
  const cells = byPair.flat();
  const cats = [...new Set(cells.map((c) => c.category))].sort();
  const categories = cats.map((category) => {
    const cc = cells.filter((c) => c.category === category);
    return {
      category,
      meanDelta: cc.reduce((s, c) => s + c.meanDelta, 0) / cc.length,
      lower: Math.min(...cc.map((c) => c.lower)),
      upper: Math.max(...cc.map((c) => c.upper)),
    };
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
    settings: { folds: opts.folds ?? 5, seeds: opts.seeds ?? 10, threshold: opts.threshold ?? 0.15, iterations: opts.iterations ?? 1000 },
  };
}

export function crossFit(panel: AuditPanel, opts: CrossFitOptions = {}): CrossFitResult {
  return gatherCrossFit(
    planCells(panel).map((p) => p.cells.map((d) => crossFitCell(d, opts))),
    opts,
  );
}
