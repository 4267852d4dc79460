// Stage 3, the repeated cross-fit: per benchmark pair and shared category, pool both
// benchmarks' items and split them into K folds (stratified by benchmark) for each of several
// seeds. In each fold an anchor score is computed from the training items (each model's mean
// over them); every held-out item is kept when its point-biserial with that anchor reaches the
// threshold; tau between the two benchmarks' accuracies over their held-out items is compared
// before and after the filter. The filter is never fitted and evaluated on the same items.

import { createRng, bootstrap, bootstrapPValue, holmWithBounds } from '../../../stats/index.js';
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
  /** Two-sided bootstrap p of a zero mean delta; when no replicate lies on one side of 0, the bound 2/B (`pUpperBound`), never 0. */
  p: number;
  /** True when p is an upper bound: print it as "< p". */
  pUpperBound: boolean;
  pHolm: number;
  /** True when pHolm is an upper bound (computed from bounds that could lower it). */
  pHolmUpperBound: boolean;
  /** Mean share of held-out items the filter removed (mean over folds of each fold's share). */
  sampleLoss: number;
  /** The paper's Table 6, per valid fold: held-out items tested, kept and lost (means), and lost / tested. */
  testItems: number;
  keptItems: number;
  lostItems: number;
  lossRate: number;
}

/** Table 6 counts: mean held-out items per fold tested, kept, lost, and the loss rate lost / tested. */
export interface SampleLossCounts {
  testItems: number;
  keptItems: number;
  lostItems: number;
  lossRate: number;
}

export interface CrossFitResult {
  cells: CrossFitCell[];
  /**
   * Per category: the mean over pairs and the conservative interval (widest span of the pairs'
   * intervals); Table 6's pooled row (the pairs' mean counts per fold, averaged over pairs).
   */
  categories: Array<{ category: string; meanDelta: number; lower: number; upper: number } & SampleLossCounts>;
  /** Over all pairs, categories and valid folds: held-out item-evaluations tested and removed, and their ratio. */
  aggregate: { meanDelta: number; lower: number; upper: number; sampleLoss: number; tested: number; lost: number; lossRate: number };
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
  let testedSum = 0;
  let keptSum = 0;
  for (let s = 0; s < S; s++) {
    const rng = createRng(`stage3:${opts.seed ?? 0}:${nameA}:${nameB}:${d.category}:${s}`);
    // Stratified: each benchmark's items are dealt round the folds separately.
    const fold = new Int32Array(folds.size);
    for (const side of [0, 1]) {
      const own: number[] = [];
      for (let k = 0; k < folds.size; k++) if (folds.sideOf(k) === side) own.push(k);
      const idx = rng.shuffle(own);
      for (let r = 0; r < idx.length; r++) fold[idx[r]!] = r % K;
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
      testedSum += r.tested;
      keptSum += r.kept;
    }
  }
  const mean = deltas.reduce((a, b) => a + b, 0) / deltas.length;
  const boot = bootstrap(deltas.length, (idx) => Array.from(idx).reduce((a, k) => a + deltas[k]!, 0) / idx.length, {
    iterations,
    seed: `stage3-boot:${opts.seed ?? 0}:${nameA}:${nameB}:${d.category}`,
  });
  const pb = bootstrapPValue(boot.replicates);
  return {
    pair: d.pair,
    category: d.category,
    folds: deltas.length,
    invalidFolds: invalid,
    meanDelta: mean,
    lower: boot.lower,
    upper: boot.upper,
    p: pb.p,
    pUpperBound: pb.upperBound,
    pHolm: Number.NaN,
    pHolmUpperBound: false,
    sampleLoss: deltas.length ? lossSum / deltas.length : Number.NaN,
    testItems: deltas.length ? testedSum / deltas.length : Number.NaN,
    keptItems: deltas.length ? keptSum / deltas.length : Number.NaN,
    lostItems: deltas.length ? (testedSum - keptSum) / deltas.length : Number.NaN,
    lossRate: testedSum ? (testedSum - keptSum) / testedSum : Number.NaN,
  };
}

/** Holm within each pair; per category the mean over pairs and the conservative interval. */
export function gatherCrossFit(byPair: CrossFitCell[][], opts: CrossFitOptions = {}): CrossFitResult {
  for (const pairCells of byPair) {
    const { adjusted, upperBound } = holmWithBounds(
      pairCells.map((c) => c.p),
      pairCells.map((c) => c.pUpperBound),
    );
    pairCells.forEach((c, k) => {
      c.pHolm = adjusted[k] ?? Number.NaN;
      c.pHolmUpperBound = upperBound[k]!;
    });
  }
  const cells = byPair.flat();
  // Item-evaluations over all valid folds (the paper's 72,288 of 265,200).
  const tested = Math.round(cells.reduce((s, c) => s + (c.folds ? c.testItems * c.folds : 0), 0));
  const lost = Math.round(cells.reduce((s, c) => s + (c.folds ? c.lostItems * c.folds : 0), 0));
  const cats = [...new Set(cells.map((c) => c.category))].sort();
  const categories = cats.map((category) => {
    const cc = cells.filter((c) => c.category === category);
    const mean = (f: (c: CrossFitCell) => number) => cc.reduce((s, c) => s + f(c), 0) / cc.length;
    const testItems = mean((c) => c.testItems);
    const lostItems = mean((c) => c.lostItems);
    return {
      category,
      meanDelta: mean((c) => c.meanDelta),
      lower: Math.min(...cc.map((c) => c.lower)),
      upper: Math.max(...cc.map((c) => c.upper)),
      testItems,
      keptItems: mean((c) => c.keptItems),
      lostItems,
      lossRate: lostItems / testItems,
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
      tested,
      lost,
      lossRate: lost / tested,
    },
    settings: { folds: opts.folds ?? 5, seeds: opts.seeds ?? 10, threshold: opts.threshold ?? 0.15, iterations: opts.iterations ?? 1000 },
  };
}

/** Stage 3: repeated cross-fitting of the item filter (filter on training folds, tau on held-out items) per pair and category. */
export function crossFit(panel: AuditPanel, opts: CrossFitOptions = {}): CrossFitResult {
  return gatherCrossFit(
    planCells(panel).map((p) => p.cells.map((d) => crossFitCell(d, opts))),
    opts,
  );
}
