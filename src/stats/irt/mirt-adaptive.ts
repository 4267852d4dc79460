// Adaptive testing under an M2PL that stops at a target standard error of the ACCURACY estimate
// (the p-IRT estimate of the group's mean correctness, mirt-accuracy.ts), not of an ability.
//   Update: the posterior after every answer, on nodes adapted to it (mirt-accuracy.ts).
//   Selection: among the unanswered items, the 30 with the most information along the accuracy's
//     gradient at the posterior mean (P (1 - P) (a . g)^2) are scored exactly: the expected
//     posterior variance of the group's predicted number correct after the item is answered
//     (averaged over its two answers, each weighted by its predictive probability); the lowest
//     is given.
//   Stop: the accuracy's posterior SD (sqrt(Var[Z]), which includes the Bernoulli noise of the
//     unanswered items) is at most `targetSe` after `minItems`, or `maxItems` were given.

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
  /** SE of the accuracy estimate when the test stopped. */
  se: number;
  stopReason: 'se' | 'max-items' | 'exhausted';
}

/** Run one adaptive test; `answer(i)` gives the model's score on item i (0..1). */
export function runMirtAdaptiveTest(
  model: MirtAccuracyModel,
  answer: (item: number) => number,
  opts: MirtAdaptiveOptions = {},
): MirtAdaptiveResult {
  const gi = opts.group ?? 0;
  const group = model.groups[gi];
  if (!group) throw new Error(`runMirtAdaptiveTest: no group ${gi}`);
  const { items } = model;
  const k = items.k;
  const J = items.intercepts.length;
  const targetSe = opts.targetSe ?? 0.02;
  const minItems = opts.minItems ?? 5;
  const maxItems = Math.min(opts.maxItems ?? group.items.length, group.items.length);
  const cand = opts.candidates ?? 30;
  const answers = new Float64Array(J).fill(Number.NaN);
  const members = Array.from(group.items);
  const given: number[] = [];
  const n = members.length;
  const finish = (stopReason: MirtAdaptiveResult['stopReason']): MirtAdaptiveResult => {
    const g = estimateMirtAccuracy(model, answers).groups[gi]!;
    return { items: given, estimate: g, se: g.pIrt.rmse, stopReason };
  };
  for (;;) {
    const open = members.filter((i) => Number.isNaN(answers[i]!));
    const post = mirtPersonPosterior(model, answers, given);
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
    const se = Math.sqrt(Math.max(0, mS2 - mS * mS) + mV) / n;
    if (given.length >= minItems && se <= targetSe) return finish('se');
    if (given.length >= maxItems) return finish('max-items');
    if (open.length === 0) return finish('exhausted');
    // Gradient of the unanswered members' mean P at the posterior mean.
    const grad = new Float64Array(k);
    const pAt = new Map<number, number>();
    for (const i of open) {
      const p = 1 / (1 + Math.exp(-mirtLogit(items, i, mean)));
      pAt.set(i, p);
      for (let d = 0; d < k; d++) grad[d]! += p * (1 - p) * items.slopes[i * k + d]!;
    }
    const screened = open
      .map((i) => {
        const p = pAt.get(i)!;
        let ag = 0;
        for (let d = 0; d < k; d++) ag += items.slopes[i * k + d]! * grad[d]!;
        return { i, info: p * (1 - p) * ag * ag };
      })
      .sort((x, y) => y.info - x.info || x.i - y.i)
      .slice(0, cand);
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
    const y = answer(best);
    if (!(y >= 0 && y <= 1)) throw new Error(`runMirtAdaptiveTest: the answer to item ${best} is ${y}, not a score in [0, 1]`);
    answers[best] = y;
    given.push(best);
  }
}
