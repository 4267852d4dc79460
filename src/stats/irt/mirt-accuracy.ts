// Accuracy on groups of items from answers to some of them, under a calibrated M2PL: the
// tinyBenchmarks estimators of tiny-estimators.ts on the multidimensional ability posterior.
// The posterior is integrated on nodes adapted to the person (as ability.ts does in one
// dimension): the posterior mode m and the Cholesky factor L of the inverse Hessian there
// (Newton steps from 0 on the log posterior, prior N(0, I)) map a standard set z_q to
// theta_q = m + L z_q: a 15-point-per-dimension grid on [-5, 5] for k <= 3, else 1,000 seeded
// quasi-Monte-Carlo points scaled by 1.5 (importance weights). A fixed grid would not do: with
// a hundred answers the posterior SD is about 0.15, below a fine grid's spacing, and the
// estimated accuracy would jump between nodes. Per node the group's predicted number correct
// S_q (unanswered items) and its Bernoulli variance V_q give
//   p-IRT   (answered correct + E[S]) / n,   Var[Z] = (Var_q(S) + E_q(V)) / n^2
// and the anchor, IRT and gp-IRT estimators and their intervals as in the one-dimensional case.

import { normalQuantile } from '../distributions.js';
import { type MirtItems, type MirtNodes, mirtLogit, productGrid, qmcNodes, solveSpd } from './mirt-model.js';
import { gpIrtLambda, type TinyGroup, type TinyGroupEstimate, type TinyPointEstimate } from './tiny-estimators.js';

/** Items and groups for repeated estimation with one item bank. */
export interface MirtAccuracyModel {
  items: MirtItems;
  groups: readonly TinyGroup[];
  /** Group indices of each item. */
  groupsOf: number[][];
  /** Standard node set z (before the person's shift and scale) and whether it is a grid. */
  standard: MirtNodes;
  grid: boolean;
}

/** Prepare a bank's items and groups for estimation. */
export function mirtAccuracyModel(items: MirtItems, groups: readonly TinyGroup[]): MirtAccuracyModel {
  const J = items.intercepts.length;
  const groupsOf: number[][] = Array.from({ length: J }, () => []);
  groups.forEach((g, k) => {
    for (let m = 0; m < g.items.length; m++) groupsOf[g.items[m]!]!.push(k);
  });
  const grid = items.k <= 3;
  const standard = grid ? productGrid(items.k, 15, 5) : qmcNodes(items.k, 1000, 1);
  return { items, groups, groupsOf, standard, grid };
}

/** Posterior mode and Cholesky factor (lower, k x k) of the inverse Hessian there, from the answered items. */
export function mirtPosteriorMode(
  items: MirtItems,
  answers: ArrayLike<number>,
  answered: readonly number[],
): { mode: Float64Array; chol: Float64Array } {
  const k = items.k;
  const theta = new Float64Array(k);
  const H = new Float64Array(k * k);
  const g = new Float64Array(k);
  const logPost = (t: ArrayLike<number>) => {
    let s = 0;
    for (let d = 0; d < k; d++) s -= 0.5 * t[d]! ** 2;
    for (const i of answered) {
      const z = mirtLogit(items, i, t);
      s += answers[i]! * z - (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));
    }
    return s;
  };
  const hessian = () => {
    H.fill(0);
    for (let d = 0; d < k; d++) {
      H[d * k + d] = 1;
      g[d] = -theta[d]!;
    }
    for (const i of answered) {
      const p = 1 / (1 + Math.exp(-mirtLogit(items, i, theta)));
      const w = p * (1 - p);
      for (let r = 0; r < k; r++) {
        const ar = items.slopes[i * k + r]!;
        g[r]! += ar * (answers[i]! - p);
        for (let c = 0; c < k; c++) H[r * k + c]! += w * ar * items.slopes[i * k + c]!;
      }
    }
  };
  let current = logPost(theta);
  for (let it = 0; it < 50; it++) {
    hessian();
    const step = solveSpd(H, g, k);
    if (!step) break;
    let scale = 1;
    const next = new Float64Array(k);
    let accepted = false;
    for (let half = 0; half < 20; half++) {
      for (let d = 0; d < k; d++) next[d] = theta[d]! + scale * step[d]!;
      const v = logPost(next);
      if (v >= current - 1e-12) {
        current = v;
        accepted = true;
        break;
      }
      scale /= 2;
    }
    if (!accepted) break;
    let moved = 0;
    for (let d = 0; d < k; d++) moved = Math.max(moved, Math.abs(next[d]! - theta[d]!));
    theta.set(next);
    if (moved < 1e-7) break;
  }
  hessian();
  // Cholesky factor of H^-1: invert H column by column, then factor.
  const inv = new Float64Array(k * k);
  for (let c = 0; c < k; c++) {
    const e = new Float64Array(k);
    e[c] = 1;
    const col = solveSpd(H, e, k) ?? e;
    for (let r = 0; r < k; r++) inv[r * k + c] = col[r]!;
  }
  const L = new Float64Array(k * k);
  for (let r = 0; r < k; r++)
    for (let c = 0; c <= r; c++) {
      let s = (inv[r * k + c]! + inv[c * k + r]!) / 2;
      for (let t = 0; t < c; t++) s -= L[r * k + t]! * L[c * k + t]!;
      L[r * k + c] = r === c ? Math.sqrt(Math.max(s, 1e-12)) : s / L[c * k + c]!;
    }
  return { mode: theta, chol: L };
}

/** The person's nodes theta_q = mode + L z_q and their normalised posterior weights. */
export function mirtPersonPosterior(
  model: MirtAccuracyModel,
  answers: ArrayLike<number>,
  answered: readonly number[],
): { nodes: Float64Array; weights: Float64Array; mode: Float64Array } {
  const { items, standard, grid } = model;
  const k = items.k;
  const Q = standard.weights.length;
  const { mode, chol } = mirtPosteriorMode(items, answers, answered);
  const nodes = new Float64Array(Q * k);
  const logw = new Float64Array(Q);
  const spread = grid ? 1 : 1.5;
  for (let q = 0; q < Q; q++) {
    let s = 0;
    let z2 = 0;
    for (let r = 0; r < k; r++) {
      let x = mode[r]!;
      for (let c = 0; c <= r; c++) x += chol[r * k + c]! * spread * standard.nodes[q * k + c]!;
      nodes[q * k + r] = x;
      s -= 0.5 * x * x;
      z2 += standard.nodes[q * k + r]! ** 2;
    }
    // Grid: uniform proposal; QMC: divide by the N(0, spread^2) proposal density.
    logw[q] = s + (grid ? 0 : 0.5 * z2);
  }
  for (const i of answered) {
    const y = answers[i]!;
    for (let q = 0; q < Q; q++) {
      const z = mirtLogit(items, i, nodes, q * k);
      logw[q]! += y * z - (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));
    }
  }
  let max = Number.NEGATIVE_INFINITY;
  for (let q = 0; q < Q; q++) if (logw[q]! > max) max = logw[q]!;
  const weights = new Float64Array(Q);
  let total = 0;
  for (let q = 0; q < Q; q++) {
    weights[q] = Math.exp(logw[q]! - max);
    total += weights[q]!;
  }
  for (let q = 0; q < Q; q++) weights[q]! /= total;
  return { nodes, weights, mode };
}

export interface MirtAccuracyResult {
  /** Posterior mean and covariance (k x k) of the abilities. */
  mean: Float64Array;
  cov: Float64Array;
  answered: number;
  groups: TinyGroupEstimate[];
}

function interval(estimate: number, center: number, variance: number, z: number): TinyPointEstimate {
  const rmse = Math.sqrt(Math.max(0, variance + (estimate - center) ** 2));
  return { estimate, lower: Math.max(0, estimate - z * rmse), upper: Math.min(1, estimate + z * rmse), rmse };
}

/** Estimate the accuracy on each group of the model from answers (NaN = not given); see the file comment. */
export function estimateMirtAccuracy(
  model: MirtAccuracyModel,
  answers: ArrayLike<number>,
  opts: { level?: number } = {},
): MirtAccuracyResult {
  const { items, groups } = model;
  const J = items.intercepts.length;
  if (answers.length !== J) throw new Error(`estimateMirtAccuracy: ${answers.length} answers for ${J} items`);
  const answered: number[] = [];
  for (let i = 0; i < J; i++) if (!Number.isNaN(answers[i]!)) answered.push(i);
  const { nodes, weights: post } = mirtPersonPosterior(model, answers, answered);
  const k = items.k;
  const Q = post.length;
  const mean = new Float64Array(k);
  const cov = new Float64Array(k * k);
  for (let q = 0; q < Q; q++) for (let d = 0; d < k; d++) mean[d]! += post[q]! * nodes[q * k + d]!;
  for (let q = 0; q < Q; q++)
    for (let r = 0; r < k; r++)
      for (let c = 0; c < k; c++) cov[r * k + c]! += post[q]! * (nodes[q * k + r]! - mean[r]!) * (nodes[q * k + c]! - mean[c]!);
  // Per group and node: sums over all items (All) and over the unanswered ones (S, V).
  const All = groups.map(() => new Float64Array(Q));
  const S = groups.map(() => new Float64Array(Q));
  const V = groups.map(() => new Float64Array(Q));
  const seenSum = new Float64Array(groups.length);
  const seen = new Float64Array(groups.length);
  for (let i = 0; i < J; i++) {
    const gs = model.groupsOf[i]!;
    if (gs.length === 0) continue;
    const y = answers[i]!;
    const isSeen = !Number.isNaN(y);
    if (isSeen)
      for (const g of gs) {
        seenSum[g]! += y;
        seen[g]!++;
      }
    for (let q = 0; q < Q; q++) {
      const p = 1 / (1 + Math.exp(-mirtLogit(items, i, nodes, q * k)));
      for (const g of gs) {
        All[g]![q]! += p;
        if (!isSeen) {
          S[g]![q]! += p;
          V[g]![q]! += p * (1 - p);
        }
      }
    }
  }
  const z = normalQuantile(0.5 + (opts.level ?? 0.95) / 2);
  const out: TinyGroupEstimate[] = groups.map((g, gi) => {
    const n = g.items.length;
    let mS = 0;
    let mS2 = 0;
    let mV = 0;
    let mAll = 0;
    for (let q = 0; q < Q; q++) {
      const w = post[q]!;
      mS += w * S[gi]![q]!;
      mS2 += w * S[gi]![q]! ** 2;
      mV += w * Math.max(0, V[gi]![q]!);
      mAll += w * All[gi]![q]!;
    }
    const center = (seenSum[gi]! + mS) / n;
    const variance = (Math.max(0, mS2 - mS * mS) + mV) / (n * n);
    let anchorSum = 0;
    let anchorW = 0;
    for (let t = 0; t < g.anchors.length; t++) {
      const y = answers[g.anchors[t]!]!;
      if (Number.isNaN(y)) continue;
      anchorSum += g.anchorWeights[t]! * y;
      anchorW += g.anchorWeights[t]!;
    }
    const anchor = anchorW > 0 ? anchorSum / anchorW : Number.NaN;
    const lambdaGp = g.irtMae === null || !(anchorW > 0) ? null : gpIrtLambda(g.irtMae, g.meanVariance, g.anchors.length);
    const gp = lambdaGp === null ? null : lambdaGp * anchor + (1 - lambdaGp) * center;
    return {
      items: n,
      answered: seen[gi]!,
      anchor: interval(anchor, center, variance, z),
      irt: interval(mAll / n, center, variance, z),
      pIrt: interval(center, center, variance, z),
      gpIrt: gp === null ? null : interval(gp, center, variance, z),
      lambdaP: seen[gi]! / n,
      lambdaGp,
    };
  });
  return { mean, cov, answered: answered.length, groups: out };
}
