// One cross-fit fold, scored without copying items: the anchor (each model's mean over the
// training items) is the pool's totals less the held-out fold's; each held-out item's
// point-biserial with the anchor uses the item's precomputed mean and spread; tau-b between the
// two benchmarks' held-out accuracies before and after the filter.

import { kendallTau } from '../../../stats/index.js';

export interface FoldScore {
  before: number;
  after: number;
  /** Share of held-out items the filter removed. */
  loss: number;
  /** Held-out items tested, and of them the items the filter kept. */
  tested: number;
  kept: number;
}

export class FoldScorer {
  readonly #flat: Uint8Array;
  readonly #side: Uint8Array;
  readonly #mean: Float64Array;
  readonly #ss: Float64Array;
  readonly #total: Float64Array;
  /** The pool's items ordered by fold; fold f's are members[starts[f]] to members[starts[f + 1] - 1]. */
  #members: Int32Array = new Int32Array(0);
  #starts: Int32Array = new Int32Array(1);
  /** Per fold and side (index f * 2 + side): responses summed per model (row of M), and items. */
  #sideSums: Float64Array = new Float64Array(0);
  #sideCounts: Int32Array = new Int32Array(0);

  /** The pool: benchmark A's items (side 0) then B's (side 1), each flattened item-major. */
  constructor(
    a: Uint8Array,
    b: Uint8Array,
    readonly models: number,
  ) {
    const M = models;
    const nA = a.length / M;
    const n = nA + b.length / M;
    this.#flat = new Uint8Array(n * M);
    this.#flat.set(a, 0);
    this.#flat.set(b, a.length);
    this.#side = new Uint8Array(n).fill(1, 0, n).fill(0, 0, nA);
    this.#mean = new Float64Array(n);
    this.#ss = new Float64Array(n);
    this.#total = new Float64Array(M);
    for (let k = 0; k < n; k++) {
      let sum = 0;
      for (let m = 0; m < M; m++) sum += this.#flat[k * M + m]!;
      const mean = sum / M;
      this.#mean[k] = mean;
      this.#ss[k] = sum * (1 - mean) ** 2 + (M - sum) * mean ** 2;
      for (let m = 0; m < M; m++) this.#total[m]! += this.#flat[k * M + m]!;
    }
  }

  get size(): number {
    return this.#side.length;
  }

  sideOf(k: number): number {
    return this.#side[k]!;
  }

  /** Fold membership for the next K folds (one fold index per pooled item). */
  assign(fold: Int32Array, K: number): void {
    const M = this.models;
    // Each fold's items in pool order (a counting sort), and per fold and side the items' count
    // and their responses summed per model.
    const starts = new Int32Array(K + 1);
    for (let k = 0; k < fold.length; k++) starts[fold[k]! + 1]!++;
    for (let f = 0; f < K; f++) starts[f + 1]! += starts[f]!;
    const members = new Int32Array(fold.length);
    const next = starts.slice(0, K);
    const sums = new Float64Array(K * 2 * M);
    const counts = new Int32Array(K * 2);
    for (let k = 0; k < fold.length; k++) {
      const f = fold[k]!;
      members[next[f]!++] = k;
      const g = f * 2 + this.#side[k]!;
      counts[g]!++;
      const base = k * M;
      const at = g * M;
      for (let m = 0; m < M; m++) sums[at + m]! += this.#flat[base + m]!;
    }
    this.#members = members;
    this.#starts = starts;
    this.#sideSums = sums;
    this.#sideCounts = counts;
  }

  score(f: number, threshold: number): FoldScore {
    const M = this.models;
    const flat = this.#flat;
    const held = this.#sideCounts[f * 2]! + this.#sideCounts[f * 2 + 1]!;
    const nTrain = this.size - held;
    const all = [this.#sideSums.subarray(f * 2 * M, (f * 2 + 1) * M), this.#sideSums.subarray((f * 2 + 1) * M, (f * 2 + 2) * M)];
    const anchor = new Float64Array(M);
    let anchorMean = 0;
    for (let m = 0; m < M; m++) {
      // Sums of 0/1 responses are whole numbers, exact in any order: the fold's own is its two sides'.
      anchor[m] = (this.#total[m]! - (all[0]![m]! + all[1]![m]!)) / nTrain;
      anchorMean += anchor[m]!;
    }
    anchorMean /= M;
    let anchorSs = 0;
    for (let m = 0; m < M; m++) anchorSs += (anchor[m]! - anchorMean) ** 2;
    const centred = new Float64Array(M);
    for (let m = 0; m < M; m++) centred[m] = anchor[m]! - anchorMean;
    // The held-out items the filter removes, summed per side; what it keeps is the rest (whole
    // numbers again, so the kept sums are exactly those of adding the kept items).
    const dropped = [new Float64Array(M), new Float64Array(M)];
    const droppedCounts = [0, 0];
    for (let i = this.#starts[f]!; i < this.#starts[f + 1]!; i++) {
      const k = this.#members[i]!;
      const base = k * M;
      let cross = 0;
      for (let m = 0; m < M; m++) cross += flat[base + m]! * centred[m]!;
      const denom = Math.sqrt(this.#ss[k]! * anchorSs);
      const r = denom > 0 ? cross / denom : Number.NaN;
      if (!Number.isNaN(r) && r >= threshold) continue;
      const side = this.#side[k]!;
      droppedCounts[side]!++;
      const out = dropped[side]!;
      for (let m = 0; m < M; m++) out[m]! += flat[base + m]!;
    }
    const counts = [this.#sideCounts[f * 2]!, this.#sideCounts[f * 2 + 1]!];
    const keptCounts = [counts[0]! - droppedCounts[0]!, counts[1]! - droppedCounts[1]!];
    const acc = (sums: Float64Array, count: number) => sums.map((v) => v / count);
    const keptAcc = (side: number) => all[side]!.map((v, m) => (v - dropped[side]![m]!) / keptCounts[side]!);
    const before = kendallTau(acc(all[0]!, counts[0]!), acc(all[1]!, counts[1]!));
    const after = keptCounts[0] && keptCounts[1] ? kendallTau(keptAcc(0), keptAcc(1)) : Number.NaN;
    const kept = keptCounts[0]! + keptCounts[1]!;
    return { before, after, loss: 1 - kept / held, tested: held, kept };
  }
}
