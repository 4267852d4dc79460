// Stage 1, convergent validity: per benchmark pair and shared category, Kendall tau-b between
// the models' mean accuracies, a paired item-bootstrap interval (items resampled within each
// benchmark), Holm-adjusted p-values within each pair, and the acceptance rule. Each cell is
// computed on its own (convergenceCell, from plain typed arrays, so that it can run on a worker
// thread) and the cells are then gathered per pair (gatherConvergence).
//
// Intervals: resampling items with replacement adds item noise to every model's accuracy a
// second time, which pulls the replicates' tau below the estimate; the paper's percentile
// interval then often excludes its own point estimate and, when tau is high and categories
// small, almost never covers the true tau. `mindscope simulate coverage` measures the coverage
// of a known true tau (README, Audit): no item-bootstrap interval reaches the nominal 95% in
// every setting (tau of accuracies is a step function of noisy values), but the basic
// (reverse-percentile, bias-corrected) interval stays near 80% throughout, while the
// percentile interval ranges from 1% to 96% and BC and BCa (the acceleration from the
// leave-one-item-out jackknife of both benchmarks) from 17% to 83%. The default is therefore
// the basic interval, clipped to [-1, 1]; the percentile interval is always reported beside it,
// with a note where the percentile interval misses the estimate or would change the acceptance.

import {
  createRng,
  bootstrapInterval,
  holm,
  jackknifeAcceleration,
  kendallTau,
  kendallTauB,
  type IntervalMethod,
} from '../../../stats/index.js';
import { categoriesOf, flatAccuracies, PackedItems, type AuditPanel } from './benchmark-matrix.js';
import { jackknifeTau } from './tau-jackknife.js';

export interface ConvergenceCell {
  pair: [string, string];
  category: string;
  itemsA: number;
  itemsB: number;
  tau: number;
  /** The interval of `interval` (basic by default); the acceptance rule reads its lower bound. */
  lower: number;
  upper: number;
  p: number;
  pHolm: number;
  accepted: boolean;
  interval: IntervalMethod;
  /** The paper's item-bootstrap percentile interval, always reported. */
  percentile: { lower: number; upper: number };
  /** Set when the percentile interval misses the estimate or would change the acceptance. */
  note?: string;
}

export interface ConvergenceResult {
  cells: ConvergenceCell[];
  pairs: Array<{
    pair: [string, string];
    meanTau: number;
    accepted: number;
    categories: number;
    /** Categories found in one benchmark of the pair only. */
    excludedCategories: string[];
    /** Categories in both benchmarks but outside the audit's category filter (not tested, not in the Holm family). */
    leftOutCategories: string[];
  }>;
  overallMeanTau: number;
  rule: { tauMin: number; lowerMin: number };
  interval: { method: IntervalMethod; level: number; iterations: number };
}

export interface ConvergenceOptions {
  iterations?: number;
  seed?: number;
  tauMin?: number;
  lowerMin?: number;
  /** Stage-1 interval: 'basic' (default), 'bca', 'bc', or 'percentile' (the paper's). */
  interval?: IntervalMethod;
}

/** Stage 1's default interval (see the file comment and `simulate coverage`). */
export const DEFAULT_STAGE1_INTERVAL: IntervalMethod = 'basic';

/** One cell's data: both benchmarks' items in one category, flattened item-major (item * models + model). */
export interface CellData {
  pair: [string, string];
  category: string;
  models: number;
  a: Uint8Array;
  b: Uint8Array;
}

/** Every pair of benchmark indices (i < j). */
export function benchmarkPairs(panel: AuditPanel): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < panel.benchmarks.length; i++) for (let j = i + 1; j < panel.benchmarks.length; j++) out.push([i, j]);
  return out;
}

/**
 * Per pair: the shared categories' cell data, the categories found in one benchmark only, and
 * the shared categories outside `categories` (when given, only those are tested).
 */
export function planCells(
  panel: AuditPanel,
  categories?: readonly string[],
): Array<{ pair: [string, string]; cells: CellData[]; excluded: string[]; leftOut: string[] }> {
  const M = panel.models.length;
  return benchmarkPairs(panel).map(([i, j]) => {
    const A = panel.benchmarks[i]!;
    const B = panel.benchmarks[j]!;
    const catsA = categoriesOf(A);
    const catsB = categoriesOf(B);
    const inBoth = catsA.filter((c) => catsB.includes(c));
    const shared = categories ? inBoth.filter((c) => categories.includes(c)) : inBoth;
    const leftOut = inBoth.filter((c) => !shared.includes(c));
    const excluded = [...new Set([...catsA, ...catsB])].filter((c) => !inBoth.includes(c));
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
      leftOut,
    };
  });
}

/** Sums of resampled items, several models per addition (exact at every category size). */
function resampler(flat: Uint8Array, models: number): (idx: Int32Array, out: Float64Array) => Float64Array {
  const packed = PackedItems.fromFlat(flat, models);
  return (idx, out) => packed.accuracies(idx, out);
}

const f3 = (x: number) => x.toFixed(3);

/** Stage 1's resampling for one cell: tau-b and its p on all items, and the paired item-bootstrap replicates (NaN left out). */
export function cellBootstrap(d: CellData, opts: ConvergenceOptions = {}): { tau: number; p: number; replicates: number[] } {
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
  const replicates: number[] = [];
  for (let b = 0; b < iterations; b++) {
    rng.fillInts(idxA, nA);
    rng.fillInts(idxB, nB);
    const tau = kendallTau(sumA(idxA, accA), sumB(idxB, accB));
    if (!Number.isNaN(tau)) replicates.push(tau);
  }
  return { tau: k.tau, p: k.p, replicates };
}

/** A stage-1 interval from a cell's replicates (BCa takes its acceleration from the items' jackknife). */
export function cellInterval(
  d: CellData,
  boot: { tau: number; replicates: number[] },
  method: IntervalMethod,
): { lower: number; upper: number } {
  const acceleration = method === 'bca' ? jackknifeAcceleration(Object.values(jackknifeTau(d.a, d.b, d.models))) : undefined;
  const r = bootstrapInterval(boot.replicates, boot.tau, { method, acceleration, bounds: [-1, 1] });
  return { lower: r.lower, upper: r.upper };
}

/** Stage 1 for one pair and category: tau-b, its bootstrap intervals and p (Holm comes later). */
export function convergenceCell(d: CellData, opts: ConvergenceOptions = {}): ConvergenceCell {
  const method = opts.interval ?? DEFAULT_STAGE1_INTERVAL;
  const M = d.models;
  const boot = cellBootstrap(d, opts);
  const percentile = cellInterval(d, boot, 'percentile');
  const chosen = method === 'percentile' ? percentile : cellInterval(d, boot, method);
  return {
    pair: d.pair,
    category: d.category,
    itemsA: d.a.length / M,
    itemsB: d.b.length / M,
    tau: boot.tau,
    lower: chosen.lower,
    upper: chosen.upper,
    p: boot.p,
    pHolm: Number.NaN,
    accepted: false,
    interval: method,
    percentile,
  };
}

/** The note for a cell whose percentile interval misses the estimate or changes the acceptance. */
function intervalNote(c: ConvergenceCell, rule: { tauMin: number; lowerMin: number }): string | undefined {
  if (c.interval === 'percentile' || Number.isNaN(c.tau)) return undefined;
  const notes: string[] = [];
  const p = c.percentile;
  // The basic interval reflects the resamples about the estimate: when item resampling pulls
  // (nearly) all of them below it, the interval lies wholly above the estimate. Said, not hidden.
  if (c.tau < c.lower || c.tau > c.upper)
    notes.push(
      `the ${c.interval} interval lies ${c.tau < c.lower ? 'above' : 'below'} the estimate ${f3(c.tau)}: the resamples' tau fall ${c.tau < c.lower ? 'below' : 'above'} it (item-resampling bias)`,
    );
  if (c.tau < p.lower || c.tau > p.upper)
    notes.push(`the percentile interval [${f3(p.lower)}, ${f3(p.upper)}] excludes the estimate ${f3(c.tau)}`);
  const acceptedPercentile = c.tau >= rule.tauMin && p.lower >= rule.lowerMin;
  if (acceptedPercentile !== c.accepted)
    notes.push(`the percentile interval would ${acceptedPercentile ? 'accept' : 'not accept'} this cell (lower bound ${f3(p.lower)})`);
  return notes.length ? `${notes.join('; ')}; ${c.interval} interval [${f3(c.lower)}, ${f3(c.upper)}]` : undefined;
}

/** Holm within each pair, the acceptance rule, and per-pair and overall means. */
export function gatherConvergence(
  plan: ReturnType<typeof planCells>,
  cells: ConvergenceCell[][],
  opts: ConvergenceOptions = {},
): ConvergenceResult {
  const tauMin = opts.tauMin ?? 0.6;
  const lowerMin = opts.lowerMin ?? 0.4;
  const pairs = plan.map(({ pair, excluded, leftOut }, k) => {
    const pairCells = cells[k]!;
    const adjusted = holm(pairCells.map((c) => (Number.isNaN(c.p) ? null : c.p)));
    pairCells.forEach((c, i) => {
      c.pHolm = adjusted[i] ?? Number.NaN;
      c.accepted = c.tau >= tauMin && c.lower >= lowerMin;
      const note = intervalNote(c, { tauMin, lowerMin });
      if (note) c.note = note;
    });
    const meanTau = pairCells.reduce((s, c) => s + c.tau, 0) / pairCells.length;
    return {
      pair,
      meanTau,
      accepted: pairCells.filter((c) => c.accepted).length,
      categories: pairCells.length,
      excludedCategories: excluded,
      leftOutCategories: leftOut,
    };
  });
  return {
    cells: cells.flat(),
    pairs,
    overallMeanTau: pairs.reduce((s, p) => s + p.meanTau, 0) / pairs.length,
    rule: { tauMin, lowerMin },
    interval: { method: opts.interval ?? DEFAULT_STAGE1_INTERVAL, level: 0.95, iterations: opts.iterations ?? 1000 },
  };
}

/** Stage 1: Kendall tau-b between benchmarks per shared category, with bootstrap intervals over items, p-values and Holm's correction. */
export function convergentValidity(
  panel: AuditPanel,
  opts: ConvergenceOptions & { categories?: readonly string[] } = {},
): ConvergenceResult {
  const plan = planCells(panel, opts.categories);
  return gatherConvergence(
    plan,
    plan.map((p) => p.cells.map((d) => convergenceCell(d, opts))),
    opts,
  );
}
