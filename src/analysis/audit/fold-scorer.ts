// One cross-fit fold, scored without copying items: the anchor (each model's mean over the
// training items) is the pool's totals less the held-out fold's; each held-out item's
// point-biserial with the anchor uses the item's precomputed mean and spread; tau-b between the
// two benchmarks' held-out accuracies before and after the filter.

import { kendallTau } from '../../stats/index.js';

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
  #fold: Int32Array = new Int32Array(0);
  #foldSums: Float64Array[] = [];
  #foldSizes: number[] = [];

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
    this.#fold = fold;
    this.#foldSums = Array.from({ length: K }, () => new Float64Array(M));
    this.#foldSizes = new Array(K).fill(0);
    for (let k = 0; k < fold.length; k++) {
      const sums = this.#foldSums[fold[k]!]!;
      this.#foldSizes[fold[k]!]!++;
      for (let m = 0; m < M; m++) sums[m]! += this.#flat[k * M + m]!;
    }
  }

  score(f: number, threshold: number): FoldScore {
    const M = this.models;
    const nTrain = this.#fold.length - this.#foldSizes[f]!;
    const anchor = new Float64Array(M);
    let anchorMean = 0;
    for (let m = 0; m < M; m++) {
      anchor[m] = (this.#total[m]! - this.#foldSums[f]![m]!) / nTrain;
      anchorMean += anchor[m]!;
    }
    anchorMean /= M;
    let anchorSs = 0;
    for (let m = 0; m < M; m++) anchorSs += (anchor[m]! - anchorMean) ** 2;
    // Sums per model: [side 0 all, side 1 all, side 0 kept, side 1 kept].
    const sums = [new Float64Array(M), new Float64Array(M), new Float64Array(M), new Float64Array(M)];
    const counts = [0, 0, 0, 0];
    for (let k = 0; k < this.#fold.length; k++) {
      if (this.#fold[k] !== f) continue;
      const side = this.#side[k]!;
      const base = k * M;
      let cross = 0;
      for (let m = 0; m < M; m++) cross += this.#flat[base + m]! * (anchor[m]! - anchorMean);
      const denom = Math.sqrt(this.#ss[k]! * anchorSs);
      const r = denom > 0 ? cross / denom : Number.NaN;
      const kept = !Number.isNaN(r) && r >= threshold;
      counts[side]!++;
      for (let m = 0; m < M; m++) sums[side]![m]! += this.#flat[base + m]!;
      if (kept) {
        counts[2 + side]!++;
        for (let m = 0; m < M; m++) sums[2 + side]![m]! += this.#flat[base + m]!;
      }
    }
    const acc = (g: number) => sums[g]!.map((v) => v / counts[g]!);
    const before = kendallTau(acc(0), acc(1));
    const after = counts[2] && counts[3] ? kendallTau(acc(2), acc(3)) : Number.NaN;
    const tested = counts[0]! + counts[1]!;
    const kept = counts[2]! + counts[3]!;
    return { before, after, loss: 1 - kept / tested, tested, kept };
  }
}
