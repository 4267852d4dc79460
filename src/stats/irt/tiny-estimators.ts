// Accuracy of a model on a full suite (or one category) from its answers on a few items, by the
// tinyBenchmarks estimators (Polo et al., ICML 2024), given calibrated item parameters:
//   anchor  sum_k w_k y_k over the group's anchor items (weights from the selection)
//   IRT     mean over all the group's items of the predicted probability of a correct answer
//   p-IRT   lambda * mean(answered y) + (1 - lambda) * mean(predicted, unanswered items),
//           lambda = answered / items: answered items count as observed, the rest as predicted
//   gp-IRT  lambda_gp * anchor + (1 - lambda_gp) * p-IRT, lambda_gp = b^2 / (b^2 + v / (4 k)),
//           where b is the IRT predictions' mean absolute error on held-out panel models, v the
//           panel's mean per-model variance of correctness and k the number of anchors (the
//           rule of the tinyBenchmarks code).
// Predictions are posterior means: E[P_i(theta) | answers] over the ability posterior, not
// P_i at a point estimate, so that few or extreme answers do not give overconfident predictions.
//
// Interval: the posterior predictive distribution of the group's accuracy Z given the answers,
// under the calibrated model: answered items are known; each unanswered item is Bernoulli(P_i(theta))
// with theta from its posterior, so
//   E[Z] = (sum answered y + sum_unanswered E[P_i]) / n   (= the p-IRT estimate)
//   Var[Z] = (Var_theta(sum_unanswered P_i) + E_theta(sum_unanswered P_i (1 - P_i))) / n^2.
// For any estimator E, E[(E - Z)^2 | answers] = Var[Z] + (E - E[Z])^2, and its interval is
// E +- z sqrt(that), clipped to [0, 1]. With `parameterDraws`, the item parameters' own
// uncertainty is added: the p-IRT centre is recomputed under `draws` parameter sets drawn from
// N(log a, (se_a / a)^2) and N(b, se_b^2) per item (seeded), and the variance of those centres
// joins Var[Z]. Coverage on simulated panels: tests/irt-tiny.test.ts and bench/irt.mjs.

import { createRng } from '../../core/random.js';
import { abilityPosterior, type AbilityPosterior } from './ability.js';
import type { IrtItems } from './irt-model.js';
import { normalQuantile } from '../distributions.js';

export interface TinyGroup {
  /** Items (indices into the item parameters) whose mean accuracy is estimated. */
  items: ArrayLike<number>;
  /** The group's anchor items and their weights (summing to 1), for the anchor and gp-IRT estimators. */
  anchors: ArrayLike<number>;
  anchorWeights: ArrayLike<number>;
  /** Mean absolute error of IRT predictions on held-out panel models (b of gp-IRT); null when unknown. */
  irtMae: number | null;
  /** The panel's mean per-model variance of correctness on the group (v of gp-IRT). */
  meanVariance: number;
}

export interface TinyPointEstimate {
  estimate: number;
  lower: number;
  upper: number;
  /** Posterior root mean squared error of this estimator. */
  rmse: number;
}

export interface TinyGroupEstimate {
  items: number;
  answered: number;
  anchor: TinyPointEstimate;
  irt: TinyPointEstimate;
  pIrt: TinyPointEstimate;
  /** null when the group has no irtMae (gp-IRT needs it). */
  gpIrt: TinyPointEstimate | null;
  lambdaP: number;
  lambdaGp: number | null;
}

export interface TinyEstimateResult {
  theta: number;
  thetaSd: number;
  answered: number;
  groups: TinyGroupEstimate[];
}

/** Variance, per group, of the p-IRT centre over item parameter sets drawn from their standard errors. */
function drawVariance(
  items: IrtItems,
  answers: ArrayLike<number>,
  answered: number[],
  groups: readonly TinyGroup[],
  pd: { seA: ArrayLike<number>; seB: ArrayLike<number>; draws: number; seed: number },
  prior?: { mean: number; sd: number },
): Float64Array {
  const rng = createRng(`tiny-parameter-draws:${pd.seed}`);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const J = items.a.length;
  const drawn: IrtItems = { a: new Float64Array(J), b: new Float64Array(J), c: items.c };
  const sum = new Float64Array(groups.length);
  const sum2 = new Float64Array(groups.length);
  for (let d = 0; d < pd.draws; d++) {
    for (let i = 0; i < J; i++) {
      const sa = pd.seA[i]!;
      const sb = pd.seB[i]!;
      drawn.a[i] = items.a[i]! * (Number.isFinite(sa) ? Math.exp((normal() * sa) / items.a[i]!) : 1);
      drawn.b[i] = items.b[i]! + (Number.isFinite(sb) ? normal() * sb : 0);
    }
    const post = abilityPosterior(drawn, answers, { prior, indices: answered });
    groups.forEach((g, k) => {
      let total = 0;
      for (let m = 0; m < g.items.length; m++) {
        const i = g.items[m]!;
        const y = answers[i]!;
        if (!Number.isNaN(y)) {
          total += y;
          continue;
        }
        const a = drawn.a[i]!;
        const b = drawn.b[i]!;
        const c = drawn.c[i]!;
        for (let q = 0; q < post.nodes.length; q++) total += post.weights[q]! * (c + (1 - c) / (1 + Math.exp(-a * (post.nodes[q]! - b))));
      }
      const centre = total / g.items.length;
      sum[k]! += centre;
      sum2[k]! += centre * centre;
    });
  }
  return sum.map((s, k) => Math.max(0, sum2[k]! / pd.draws - (s / pd.draws) ** 2));
}

/** lambda of gp-IRT from the IRT validation error b, the panel variance v and k anchors. */
export function gpIrtLambda(irtMae: number, meanVariance: number, anchors: number): number {
  const b2 = irtMae * irtMae;
  const v = meanVariance / (4 * anchors);
  return b2 + v > 0 ? b2 / (b2 + v) : 0;
}

function interval(estimate: number, center: number, variance: number, z: number): TinyPointEstimate {
  const rmse = Math.sqrt(Math.max(0, variance + (estimate - center) ** 2));
  return { estimate, lower: Math.max(0, estimate - z * rmse), upper: Math.min(1, estimate + z * rmse), rmse };
}

/**
 * Estimate the accuracy of one model on each group from its answers (`answers[i]`: 0..1, NaN for
 * items not given). The ability posterior uses every answered item.
 */
export function estimateTinyAccuracy(
  items: IrtItems,
  answers: ArrayLike<number>,
  groups: readonly TinyGroup[],
  opts: {
    level?: number;
    prior?: { mean: number; sd: number };
    posterior?: AbilityPosterior;
    /** Propagate item parameter uncertainty (standard errors of a and b; NaN = none). */
    parameterDraws?: { seA: ArrayLike<number>; seB: ArrayLike<number>; draws: number; seed: number };
  } = {},
): TinyEstimateResult {
  const J = items.a.length;
  if (answers.length !== J) throw new Error(`estimateTinyAccuracy: ${answers.length} answers for ${J} items`);
  const answered: number[] = [];
  for (let i = 0; i < J; i++) if (!Number.isNaN(answers[i]!)) answered.push(i);
  const post = opts.posterior ?? abilityPosterior(items, answers, { prior: opts.prior, indices: answered });
  const z = normalQuantile(0.5 + (opts.level ?? 0.95) / 2);
  const paramVariance = opts.parameterDraws ? drawVariance(items, answers, answered, groups, opts.parameterDraws, opts.prior) : null;
  const Q = post.nodes.length;
  const S = new Float64Array(Q);
  const V = new Float64Array(Q);
  const all = new Float64Array(Q);
  const out: TinyGroupEstimate[] = [];
  for (const g of groups) {
    const n = g.items.length;
    if (n === 0) throw new Error('estimateTinyAccuracy: a group has no items');
    S.fill(0);
    V.fill(0);
    all.fill(0);
    let seenSum = 0;
    let seen = 0;
    for (let k = 0; k < n; k++) {
      const i = g.items[k]!;
      const y = answers[i]!;
      const a = items.a[i]!;
      const b = items.b[i]!;
      const c = items.c[i]!;
      const isSeen = !Number.isNaN(y);
      if (isSeen) {
        seenSum += y;
        seen++;
      }
      for (let q = 0; q < Q; q++) {
        const p = c + (1 - c) / (1 + Math.exp(-a * (post.nodes[q]! - b)));
        all[q]! += p;
        if (!isSeen) {
          S[q]! += p;
          V[q]! += p * (1 - p);
        }
      }
    }
    let mS = 0;
    let mS2 = 0;
    let mV = 0;
    let mAll = 0;
    for (let q = 0; q < Q; q++) {
      const w = post.weights[q]!;
      mS += w * S[q]!;
      mS2 += w * S[q]! * S[q]!;
      mV += w * V[q]!;
      mAll += w * all[q]!;
    }
    const center = (seenSum + mS) / n;
    const variance = (Math.max(0, mS2 - mS * mS) + mV) / (n * n) + (paramVariance?.[out.length] ?? 0);
    let anchorSum = 0;
    let anchorW = 0;
    for (let k = 0; k < g.anchors.length; k++) {
      const y = answers[g.anchors[k]!]!;
      if (Number.isNaN(y)) continue;
      anchorSum += g.anchorWeights[k]! * y;
      anchorW += g.anchorWeights[k]!;
    }
    const anchor = anchorW > 0 ? anchorSum / anchorW : Number.NaN;
    const lambdaGp = g.irtMae === null || !(anchorW > 0) ? null : gpIrtLambda(g.irtMae, g.meanVariance, g.anchors.length);
    const gp = lambdaGp === null ? null : lambdaGp * anchor + (1 - lambdaGp) * center;
    out.push({
      items: n,
      answered: seen,
      anchor: interval(anchor, center, variance, z),
      irt: interval(mAll / n, center, variance, z),
      pIrt: interval(center, center, variance, z),
      gpIrt: gp === null ? null : interval(gp, center, variance, z),
      lambdaP: seen / n,
      lambdaGp,
    });
  }
  return { theta: post.mean, thetaSd: post.sd, answered: answered.length, groups: out };
}
