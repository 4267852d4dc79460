// Tiny benchmarks: k items per suite chosen by one of the tinyBenchmarks strategies (Polo et
// al., ICML 2024), each with an anchor weight, so that a new model's accuracy can be estimated
// from its answers on them (tiny-estimate.ts).
//   random       simple random sample; weight 1/k
//   stratified   k allocated to categories in proportion to their size (largest remainder,
//                at least one each when k allows), then within each category the items sorted by
//                difficulty b are cut into equal bins and one item drawn per bin; weight = bin share
//   correctness  k-means on the items' correctness vectors across the panel (missing cells at the
//                item's mean); anchors are the items nearest the centres, weighted by cluster share
//   irt          the same on the items' IRT parameters (a, b)
// On a multidimensional (m2pl) bank, 'information' and 'irt' use every dimension
// (stats/irt/mirt-design.ts): the c-optimal design for the accuracy, and k-means on the items'
// predicted-correctness profiles over the panel's abilities.
//   information  not in the paper: a greedy design for estimating ability over the panel's
//                range: each step adds the item that most increases sum_q w_q log(1 + I(theta_q)),
//                I the information of the items chosen so far, theta_q, w_q an N(0, 1) grid (the
//                calibration's ability distribution). Anchor weights: each item of the unit goes
//                to the chosen item nearest in difficulty, so the anchor estimator is a
//                difficulty-stratified mean (of more discriminating items than average).
// With `by: 'category'` the clustering strategies (and random) run within each category on its
// proportional share of k, so that every category gets anchors of its own; with `by: 'suite'`
// they run over the whole suite. Category-level anchor weights are the suite-level ones
// renormalised within the category.

import { createRng, InputError } from '../../core/index.js';
import type { ResponseMatrix } from '../../store/index.js';
import { irtItemInformation, kMeans, normalQuadrature, selectMirtItems } from '../../stats/irt/index.js';
import { type IrtBank, irtItemKey } from './irt-bank.js';
import { bankMirtAbilities, bankMirtItems } from './mirt-bank.js';

export type TinyStrategy = 'random' | 'stratified' | 'correctness' | 'irt' | 'information';
export const TINY_STRATEGIES: readonly TinyStrategy[] = ['random', 'stratified', 'correctness', 'irt', 'information'];

export interface TinySet {
  format: 'mindscope-irt-tiny';
  formatVersion: 1;
  bankId: string;
  strategy: TinyStrategy;
  by: 'suite' | 'category';
  /** Items asked per suite (fewer when a suite is smaller). */
  k: number;
  seed: number;
  /** The chosen items, per suite in bank order of suites; weights sum to 1 within each suite. */
  items: Array<{ suite: string; id: string; category: string; weight: number }>;
  warnings: string[];
}

/** Panels below this many models make the information design select on noise (see defaultTinyStrategy). */
export const INFORMATION_DESIGN_MIN_MODELS = 100;

/**
 * The strategy to use when none is named: the information design on panels of at least 100
 * models; below that it picks items on noisy discrimination estimates (a winner's curse: at 27
 * models x 2,860 items its p-IRT error was above random sampling's, see the README), so
 * correctness clustering when the panel's answers are at hand, else stratified sampling.
 */
export function defaultTinyStrategy(bank: IrtBank, haveMatrix: boolean): TinyStrategy {
  if (bank.panel.models.length >= INFORMATION_DESIGN_MIN_MODELS) return 'information';
  return haveMatrix ? 'correctness' : 'stratified';
}

export interface TinySelectionOptions {
  k: number;
  strategy: TinyStrategy;
  by?: 'suite' | 'category';
  seed: number;
  /** The panel's answers; needed by the correctness strategy. */
  matrix?: ResponseMatrix;
}

/**
 * Allocation of k over parts of the given sizes: Hamilton's largest-remainder apportionment of
 * k x size / total, then, when k allows, one for every empty part, taken from the part most
 * above its quota; never more than a part's size.
 */
export function allocateProportionally(sizes: readonly number[], k: number): number[] {
  const total = sizes.reduce((s, v) => s + v, 0);
  if (k >= total) return sizes.slice();
  const quota = sizes.map((s) => (s * k) / total);
  const out = quota.map((q) => Math.floor(q));
  const order = quota.map((q, i) => ({ i, r: q - Math.floor(q) })).sort((x, y) => y.r - x.r || x.i - y.i);
  let left = k - out.reduce((s, v) => s + v, 0);
  for (const { i } of order) {
    if (left === 0) break;
    out[i]!++;
    left--;
  }
  if (k >= sizes.length) {
    for (let i = 0; i < sizes.length; i++) {
      if (out[i]! > 0 || sizes[i]! === 0) continue;
      let donor = -1;
      for (let d = 0; d < sizes.length; d++) if (out[d]! > 1 && (donor < 0 || out[d]! - quota[d]! > out[donor]! - quota[donor]!)) donor = d;
      if (donor < 0) break;
      out[donor]!--;
      out[i] = 1;
    }
  }
  return out;
}

interface Unit {
  members: number[];
  /** Share of the suite's items in this unit. */
  share: number;
  k: number;
}

function correctnessPoints(bank: IrtBank, members: number[], matrix: ResponseMatrix): { points: Float64Array; d: number } {
  const rowOf = new Map<string, number>();
  matrix.items.forEach((it, i) => rowOf.set(irtItemKey(it.suite, it.itemId), i));
  const d = matrix.subjects.length;
  const points = new Float64Array(members.length * d);
  members.forEach((m, r) => {
    const it = bank.items[m]!;
    const row = rowOf.get(irtItemKey(it.suite, it.id));
    if (row === undefined) throw new InputError(`the panel matrix has no row for bank item ${it.suite}/${it.id}`);
    const cells = matrix.cells[row]!;
    let s = 0;
    let n = 0;
    for (const v of cells)
      if (v !== null) {
        s += v;
        n++;
      }
    const mean = n > 0 ? s / n : 0.5;
    cells.forEach((v, j) => {
      points[r * d + j] = v ?? mean;
    });
  });
  return { points, d };
}

function chooseInUnit(
  bank: IrtBank,
  unit: Unit,
  strategy: TinyStrategy,
  seed: string,
  matrix?: ResponseMatrix,
): Array<{ item: number; weight: number }> {
  const { members, k, share } = unit;
  if (k === 0) return [];
  const rng = createRng(seed);
  if (strategy === 'random')
    return rng
      .shuffle(members)
      .slice(0, k)
      .map((item) => ({ item, weight: share / k }));
  if (strategy === 'stratified') {
    const sorted = members.slice().sort((x, y) => bank.items[x]!.b - bank.items[y]!.b || x - y);
    const out: Array<{ item: number; weight: number }> = [];
    for (let s = 0; s < k; s++) {
      const lo = Math.floor((s * sorted.length) / k);
      const hi = Math.floor(((s + 1) * sorted.length) / k);
      out.push({ item: sorted[lo + rng.int(hi - lo)]!, weight: (share * (hi - lo)) / sorted.length });
    }
    return out;
  }
  if (bank.model === 'm2pl' && (strategy === 'information' || strategy === 'irt'))
    return selectMirtItems(bankMirtItems(bank), members, k, bankMirtAbilities(bank), {
      method: strategy === 'information' ? 'information' : 'profiles',
      seed: rng.int(2 ** 31),
    }).map(({ item, weight }) => ({ item, weight: share * weight }));
  if (strategy === 'information') return informationDesign(bank, members, k, share);
  let points: Float64Array;
  let d: number;
  if (strategy === 'irt') {
    d = 2;
    points = new Float64Array(members.length * 2);
    members.forEach((m, r) => {
      points[r * 2] = bank.items[m]!.a;
      points[r * 2 + 1] = bank.items[m]!.b;
    });
  } else {
    if (!matrix) throw new InputError('the correctness strategy needs the panel response matrix (--matrix)');
    ({ points, d } = correctnessPoints(bank, members, matrix));
  }
  const km = kMeans(points, members.length, d, k, { seed: rng.int(2 ** 31) });
  return Array.from(km.anchors, (r, c) => ({ item: members[r]!, weight: share * km.anchorWeights[c]! }));
}

function informationDesign(bank: IrtBank, members: number[], k: number, share: number): Array<{ item: number; weight: number }> {
  const quad = normalQuadrature(41, 5);
  const Q = quad.nodes.length;
  const info = new Float64Array(members.length * Q);
  members.forEach((m, r) => {
    const it = bank.items[m]!;
    for (let q = 0; q < Q; q++) info[r * Q + q] = irtItemInformation(it.a, it.b, it.c, quad.nodes[q]!);
  });
  const total = new Float64Array(Q);
  const used = new Uint8Array(members.length);
  const chosen: number[] = [];
  for (let step = 0; step < k; step++) {
    let best = -1;
    let bestGain = Number.NEGATIVE_INFINITY;
    for (let r = 0; r < members.length; r++) {
      if (used[r]) continue;
      let gain = 0;
      for (let q = 0; q < Q; q++) gain += quad.weights[q]! * (Math.log1p(total[q]! + info[r * Q + q]!) - Math.log1p(total[q]!));
      if (gain > bestGain) {
        bestGain = gain;
        best = r;
      }
    }
    used[best] = 1;
    chosen.push(best);
    for (let q = 0; q < Q; q++) total[q]! += info[best * Q + q]!;
  }
  const counts = new Float64Array(chosen.length);
  members.forEach((m) => {
    let best = 0;
    let bestD = Number.POSITIVE_INFINITY;
    chosen.forEach((r, c) => {
      const d = Math.abs(bank.items[members[r]!]!.b - bank.items[m]!.b);
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    });
    counts[best]!++;
  });
  return chosen.map((r, c) => ({ item: members[r]!, weight: (share * counts[c]!) / members.length }));
}

/** Choose a tiny benchmark from a bank. */
export function selectTinyItems(bank: IrtBank, opts: TinySelectionOptions): TinySet {
  if (!Number.isInteger(opts.k) || opts.k < 1) throw new InputError(`k must be a positive integer, got ${opts.k}`);
  if (!TINY_STRATEGIES.includes(opts.strategy))
    throw new InputError(`unknown strategy "${opts.strategy}" (expected ${TINY_STRATEGIES.join(', ')})`);
  const by = opts.by ?? 'category';
  const suites = [...new Set(bank.items.map((i) => i.suite))];
  const chosen: TinySet['items'] = [];
  for (const suite of suites) {
    const members = bank.items.map((it, i) => (it.suite === suite ? i : -1)).filter((i) => i >= 0);
    const cats = [...new Set(members.map((i) => bank.items[i]!.category))].sort();
    const k = Math.min(opts.k, members.length);
    let units: Unit[];
    if (by === 'category' || opts.strategy === 'stratified') {
      const groups = cats.map((c) => members.filter((i) => bank.items[i]!.category === c));
      const alloc = allocateProportionally(
        groups.map((g) => g.length),
        k,
      );
      units = groups.map((g, u) => ({ members: g, share: g.length / members.length, k: alloc[u]! }));
    } else units = [{ members, share: 1, k }];
    units.forEach((unit, u) => {
      for (const { item, weight } of chooseInUnit(bank, unit, opts.strategy, `tiny:${opts.seed}:${suite}:${u}`, opts.matrix)) {
        const it = bank.items[item]!;
        chosen.push({ suite, id: it.id, category: it.category, weight });
      }
    });
  }
  const warnings: string[] = [];
  if (opts.strategy === 'information' && bank.panel.models.length < INFORMATION_DESIGN_MIN_MODELS)
    warnings.push(
      `the information design on a ${bank.panel.models.length}-model panel selects items on noisy discrimination estimates; correctness or stratified selection did better below ${INFORMATION_DESIGN_MIN_MODELS} models`,
    );
  return {
    format: 'mindscope-irt-tiny',
    formatVersion: 1,
    bankId: bank.bankId,
    strategy: opts.strategy,
    by,
    k: opts.k,
    seed: opts.seed,
    items: chosen,
    warnings,
  };
}

/** Validate a parsed tiny set against its bank. */
export function parseTinySet(value: unknown, bank: IrtBank, file = '<tiny>'): TinySet {
  const v = value as Partial<TinySet> | null;
  if (v?.format !== 'mindscope-irt-tiny') throw new InputError('not a tiny benchmark file (format mindscope-irt-tiny)', file);
  if (v.formatVersion !== 1) throw new InputError(`tiny set format version ${String(v.formatVersion)} is not 1`, file);
  if (v.bankId !== bank.bankId) throw new InputError(`chosen from bank ${v.bankId}, not from this bank (${bank.bankId})`, file);
  if (!Array.isArray(v.items) || v.items.length === 0) throw new InputError('items: expected a non-empty list', file);
  const known = new Set(bank.items.map((i) => irtItemKey(i.suite, i.id)));
  v.items.forEach((it, k) => {
    if (!it || typeof it.suite !== 'string' || typeof it.id !== 'string' || typeof it.weight !== 'number' || !(it.weight >= 0))
      throw new InputError(`items.${k}: expected { suite, id, category, weight >= 0 }`, file);
    if (!known.has(irtItemKey(it.suite, it.id))) throw new InputError(`items.${k}: ${it.suite}/${it.id} is not in the bank`, file);
  });
  return v as TinySet;
}
