// Adaptive testing under an M2PL that stops at a target standard error of the ACCURACY estimate
// (the p-IRT estimate of the group's mean correctness, mirt-accuracy.ts), not of an ability.
//   Update: the posterior after every answer, on nodes adapted to it (mirt-accuracy.ts).
//   Selection: among the unanswered items, the 30 with the most information along the accuracy's
//     gradient at the posterior mean (P (1 - P) (a . g)^2) are scored exactly: the expected
//     posterior variance of the group's predicted number correct after the item is answered
//     (averaged over its two answers, each weighted by its predictive probability); the lowest
//     is given.
//   Stop: the accuracy's posterior SD (sqrt(Var[Z]), which includes the Bernoulli noise of the
//     unanswered items) is at most `targetSe` after `minItems`, or `maxItems` were given. While
//     every answer is the same (all right or all wrong) the SD does not stop the test: the
//     posterior then rests on the prior's tail, and a subject beyond the panel (a model that
//     gets everything right) would be stopped early at an estimate and interval below its own.
// MirtAdaptiveTest is driven item by item or in waves (next() several times before record():
// items given but not yet answered are skipped, and the posterior is the answered items'), so a
// runner can ask a wave at once; runMirtAdaptiveTest drives it with an answer function.

import { type MirtAccuracyModel, estimateMirtAccuracy, mirtPersonPosterior } from './mirt-accuracy.js';
import { mirtLogit } from './mirt-model.js';
import type { TinyGroupEstimate } from './tiny-estimators.js';

export interface MirtAdaptiveOptions {
  /** Index of the group (in the accuracy model) whose accuracy is targeted (default 0). */
  group?: number;
  /** Stop when the accuracy estimate's SE is at most this (default 0.02: two points). */
  targetSe?: number;
  minItems?: number;
  maxItems?: number;
  /** Items screened exactly per step (default 30). */
  candidates?: number;
}

export interface MirtAdaptiveResult {
  /** Items given, in order. */
  items: number[];
  estimate: TinyGroupEstimate;
  /** SE of the accuracy estimate (when the test stopped, or now). */
  se: number;
  /** Why the test stopped; null while it goes on (a result read mid-test). */
  stopReason: 'se' | 'max-items' | 'exhausted' | null;
  /** Posterior mean and covariance (k x k) of the abilities. */
  mean: Float64Array;
  cov: Float64Array;
}

/** One adaptive test: next() gives an item (null when stopped), record() its answer, result() the estimate. */
export class MirtAdaptiveTest {
  readonly #model: MirtAccuracyModel;
  readonly #gi: number;
  readonly #targetSe: number;
  readonly #minItems: number;
  readonly #maxItems: number;
  readonly #cand: number;
  readonly #answers: Float64Array;
  readonly #members: number[];
  /** Items given, in order; those not yet recorded are pending. */
  readonly #given: number[] = [];
  readonly #pending = new Set<number>();
  #stop: MirtAdaptiveResult['stopReason'] = null;

  constructor(model: MirtAccuracyModel, opts: MirtAdaptiveOptions = {}) {
    const gi = opts.group ?? 0;
    const group = model.groups[gi];
    if (!group) throw new Error(`MirtAdaptiveTest: no group ${gi}`);
    this.#model = model;
    this.#gi = gi;
    this.#targetSe = opts.targetSe ?? 0.02;
    this.#minItems = opts.minItems ?? 5;
    this.#maxItems = Math.min(opts.maxItems ?? group.items.length, group.items.length);
    this.#cand = opts.candidates ?? 30;
    this.#answers = new Float64Array(model.items.intercepts.length).fill(Number.NaN);
    this.#members = Array.from(group.items);
  }

  /** Why the test stopped, or null while it goes on. */
  get stopReason(): MirtAdaptiveResult['stopReason'] {
    return this.#stop;
  }

  /** Items given so far, in order (answered or pending). */
  administered(): number[] {
    return [...this.#given];
  }

  /** Scores so far by item (NaN: not answered). */
  answers(): Float64Array {
    return Float64Array.from(this.#answers);
  }

  /** Record the score (0..1) of a given item. */
  record(item: number, y: number): void {
    if (!this.#pending.has(item)) throw new Error(`MirtAdaptiveTest: item ${item} was not given or is answered`);
    if (!(y >= 0 && y <= 1)) throw new Error(`MirtAdaptiveTest: the answer to item ${item} is ${y}, not a score in [0, 1]`);
    this.#answers[item] = y;
    this.#pending.delete(item);
  }

  /** The next item to give, or null when the test stops (target SE, budget, or no item left). */
  next(): number | null {
    if (this.#stop) return null;
    const { items } = this.#model;
    const k = items.k;
    const answers = this.#answers;
    const answered = this.#given.filter((i) => !this.#pending.has(i));
    const open = this.#members.filter((i) => Number.isNaN(answers[i]!));
    const post = mirtPersonPosterior(this.#model, answers, answered);
    const Q = post.weights.length;
    // Per node: the unanswered members' predicted number correct S and its Bernoulli variance V.
    const S = new Float64Array(Q);
    const V = new Float64Array(Q);
    for (const i of open)
      for (let q = 0; q < Q; q++) {
        const p = 1 / (1 + Math.exp(-mirtLogit(items, i, post.nodes, q * k)));
        S[q]! += p;
        V[q]! += p * (1 - p);
      }
    let mS = 0;
    let mS2 = 0;
    let mV = 0;
    const mean = new Float64Array(k);
    for (let q = 0; q < Q; q++) {
      const w = post.weights[q]!;
      mS += w * S[q]!;
      mS2 += w * S[q]! ** 2;
      mV += w * V[q]!;
      for (let d = 0; d < k; d++) mean[d]! += w * post.nodes[q * k + d]!;
    }
    const se = Math.sqrt(Math.max(0, mS2 - mS * mS) + mV) / this.#members.length;
    // Stop on the answered items only: a pending wave is asked in full.
    const mixed = answered.some((i) => answers[i]! > 0) && answered.some((i) => answers[i]! < 1);
    if (this.#pending.size === 0 && answered.length >= this.#minItems && se <= this.#targetSe && mixed) this.#stop = 'se';
    else if (this.#given.length >= this.#maxItems) this.#stop = 'max-items';
    const candidates = open.filter((i) => !this.#pending.has(i));
    if (!this.#stop && candidates.length === 0) this.#stop = 'exhausted';
    if (this.#stop) return null;
    // Gradient of the unanswered members' mean P at the posterior mean.
    const grad = new Float64Array(k);
    const pAt = new Map<number, number>();
    for (const i of open) {
      const p = 1 / (1 + Math.exp(-mirtLogit(items, i, mean)));
      pAt.set(i, p);
      for (let d = 0; d < k; d++) grad[d]! += p * (1 - p) * items.slopes[i * k + d]!;
    }
    const screened = candidates
      .map((i) => {
        const p = pAt.get(i)!;
        let ag = 0;
        for (let d = 0; d < k; d++) ag += items.slopes[i * k + d]! * grad[d]!;
        return { i, info: p * (1 - p) * ag * ag };
      })
      .sort((x, y) => y.info - x.info || x.i - y.i)
      .slice(0, this.#cand);
    let best = screened[0]!.i;
    let bestVar = Number.POSITIVE_INFINITY;
    const row = new Float64Array(Q);
    for (const { i } of screened) {
      for (let q = 0; q < Q; q++) row[q] = 1 / (1 + Math.exp(-mirtLogit(items, i, post.nodes, q * k)));
      let expected = 0;
      for (const y of [0, 1]) {
        let mass = 0;
        let m1 = 0;
        let m2 = 0;
        for (let q = 0; q < Q; q++) {
          const w = post.weights[q]! * (y ? row[q]! : 1 - row[q]!);
          const s = S[q]! - row[q]!;
          mass += w;
          m1 += w * s;
          m2 += w * s * s;
        }
        if (mass > 0) expected += mass * (m2 / mass - (m1 / mass) ** 2);
      }
      if (expected < bestVar) {
        bestVar = expected;
        best = i;
      }
    }
    this.#given.push(best);
    this.#pending.add(best);
    return best;
  }

  /** The estimate from the answered items (pending ones count as not asked). */
  result(): MirtAdaptiveResult {
    const est = estimateMirtAccuracy(this.#model, this.#answers);
    const g = est.groups[this.#gi]!;
    return {
      items: this.#given.filter((i) => !this.#pending.has(i)),
      estimate: g,
      se: g.pIrt.rmse,
      stopReason: this.#stop,
      mean: est.mean,
      cov: est.cov,
    };
  }
}

/** Run one adaptive test; `answer(i)` gives the model's score on item i (0..1). */
export function runMirtAdaptiveTest(
  model: MirtAccuracyModel,
  answer: (item: number) => number,
  opts: MirtAdaptiveOptions = {},
): MirtAdaptiveResult {
  const test = new MirtAdaptiveTest(model, opts);
  for (let i = test.next(); i !== null; i = test.next()) test.record(i, answer(i));
  return test.result();
}
