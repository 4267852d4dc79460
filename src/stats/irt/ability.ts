// Ability estimates for one response vector with known item parameters: MLE, MAP (normal
// prior) and EAP with the posterior SD. The EAP integrates on a grid centred at the mode and
// scaled by the curvature there (81 nodes over +-8 posterior SDs, within [-10, 10]), so it stays
// accurate both for a 10-item test and for a 16,000-item one whose posterior SD is 0.02, where
// a fixed grid with spacing 0.3 would not.

import type { IrtItems } from './irt-model.js';

export type AbilityMethod = 'eap' | 'map' | 'mle';

export interface AbilityEstimate {
  theta: number;
  /** Posterior SD (EAP), or 1 / sqrt(information) at the estimate (MAP: with the prior's). */
  se: number;
  method: AbilityMethod;
  /** Items answered (non-missing). */
  n: number;
}

export interface AbilityOptions {
  method?: AbilityMethod;
  /** Normal prior on theta for MAP and EAP (default N(0, 1)). */
  prior?: { mean: number; sd: number };
  /** Only these items (indices into items and responses); default all. */
  indices?: ArrayLike<number>;
  /** Nodes of the EAP grid (default 41, or 21 when the posterior SD is below 0.1). */
  points?: number;
}

const BOUND = 10;

/** Log likelihood, score and information (negative second derivative) at theta. */
export function abilityLogLik(
  items: IrtItems,
  y: ArrayLike<number>,
  theta: number,
  indices?: ArrayLike<number>,
): { ll: number; score: number; info: number } {
  let ll = 0;
  let score = 0;
  let info = 0;
  const n = indices ? indices.length : y.length;
  for (let k = 0; k < n; k++) {
    const i = indices ? indices[k]! : k;
    const v = y[i]!;
    if (Number.isNaN(v)) continue;
    const a = items.a[i]!;
    const c = items.c[i]!;
    const z = a * (theta - items.b[i]!);
    // One exp and one log1p per item: softplus(+-z) = max(+-z, 0) + log1p(exp(-|z|)).
    const e = Math.exp(-Math.abs(z));
    const l1p = Math.log1p(e);
    const ps = z >= 0 ? 1 / (1 + e) : e / (1 + e);
    const spPos = Math.max(z, 0) + l1p; // softplus(z) = -log(1 - ps)
    if (c === 0) {
      const spNeg = Math.max(-z, 0) + l1p; // softplus(-z) = -log(ps)
      ll -= v * spNeg + (1 - v) * spPos;
      score += a * (v - ps);
      info += a * a * ps * (1 - ps);
    } else {
      const P = c + (1 - c) * ps;
      ll += v * Math.log(P) + (1 - v) * (Math.log1p(-c) - spPos);
      // dP / (P (1 - P)) with 1 - P = (1 - c)(1 - ps) cancelled: a ps / P, finite where ps
      // rounds to 1 (far above the item), where the uncancelled form is 0 / 0.
      const ratio = (a * ps) / P;
      score += ratio * (v - P);
      // Observed information of the 3PL can be negative; the expected one is used for steps.
      info += ratio * a * (1 - c) * ps * (1 - ps);
    }
  }
  return { ll, score, info };
}

function logPost(
  items: IrtItems,
  y: ArrayLike<number>,
  theta: number,
  prior: { mean: number; sd: number } | null,
  indices?: ArrayLike<number>,
) {
  const r = abilityLogLik(items, y, theta, indices);
  if (prior) {
    const d = (theta - prior.mean) / prior.sd;
    r.ll -= 0.5 * d * d;
    r.score -= d / prior.sd;
    r.info += 1 / (prior.sd * prior.sd);
  }
  return r;
}

/** Mode of the log posterior (or likelihood, prior null) on [-10, 10]: coarse grid, then safeguarded Fisher scoring. */
function mode(items: IrtItems, y: ArrayLike<number>, prior: { mean: number; sd: number } | null, indices?: ArrayLike<number>): number {
  // The 2PL log posterior is concave: bisection-safeguarded scoring from 0 finds its mode. The
  // 3PL's can have several local maxima: start from the best point of a coarse grid.
  let anyGuessing = false;
  const n = indices ? indices.length : items.c.length;
  for (let k = 0; k < n && !anyGuessing; k++) anyGuessing = items.c[indices ? indices[k]! : k]! > 0;
  let lo = -BOUND;
  let hi = BOUND;
  let theta = prior ? prior.mean : 0;
  if (anyGuessing) {
    let bestLl = Number.NEGATIVE_INFINITY;
    for (let t = -BOUND; t <= BOUND; t += 0.5) {
      const ll = logPost(items, y, t, prior, indices).ll;
      if (ll > bestLl) {
        bestLl = ll;
        theta = t;
      }
    }
    lo = Math.max(-BOUND, theta - 0.5);
    hi = Math.min(BOUND, theta + 0.5);
  }
  for (let it = 0; it < 100; it++) {
    const r = logPost(items, y, theta, prior, indices);
    if (r.score > 0) lo = theta;
    else hi = theta;
    let next = theta + r.score / Math.max(r.info, 1e-12);
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - theta) < 1e-10) return next;
    theta = next;
    if (hi - lo < 1e-12) break;
  }
  return theta;
}

/** Posterior of theta on a grid: nodes, normalised weights, mean and SD. */
export interface AbilityPosterior {
  nodes: Float64Array;
  weights: Float64Array;
  mean: number;
  sd: number;
  mode: number;
}

/** The posterior of theta under a normal prior, on a grid adapted to its mode and curvature. */
export function abilityPosterior(items: IrtItems, y: ArrayLike<number>, opts: Omit<AbilityOptions, 'method'> = {}): AbilityPosterior {
  const prior = opts.prior ?? { mean: 0, sd: 1 };
  const m = mode(items, y, prior, opts.indices);
  const { info } = logPost(items, y, m, prior, opts.indices);
  const half = Math.min(BOUND, 8 / Math.sqrt(Math.max(info, 1e-6)));
  const lo = Math.max(-BOUND - 2, m - half);
  const hi = Math.min(BOUND + 2, m + half);
  // A posterior this narrow (SD < 0.1, a long test) is Gaussian to within O(1 / sqrt(items));
  // 21 nodes over +-8 SD integrate it to about 1e-10.
  const points = opts.points ?? (info > 100 ? 21 : 41);
  const nodes = new Float64Array(points);
  const weights = new Float64Array(points);
  let max = Number.NEGATIVE_INFINITY;
  for (let q = 0; q < points; q++) {
    nodes[q] = lo + ((hi - lo) * q) / (points - 1);
    weights[q] = logPost(items, y, nodes[q]!, prior, opts.indices).ll;
    if (weights[q]! > max) max = weights[q]!;
  }
  let sum = 0;
  for (let q = 0; q < points; q++) {
    weights[q] = Math.exp(weights[q]! - max);
    sum += weights[q]!;
  }
  let mean = 0;
  for (let q = 0; q < points; q++) {
    weights[q]! /= sum;
    mean += weights[q]! * nodes[q]!;
  }
  let v = 0;
  for (let q = 0; q < points; q++) v += weights[q]! * (nodes[q]! - mean) ** 2;
  return { nodes, weights, mean, sd: Math.sqrt(v), mode: m };
}

/**
 * Ability of one response vector (NaN = not answered). MLE is +-Infinity (se Infinity) when
 * every answered item is correct or every one is wrong, as the likelihood has no maximum then.
 */
export function estimateAbility(items: IrtItems, y: ArrayLike<number>, opts: AbilityOptions = {}): AbilityEstimate {
  const method = opts.method ?? 'eap';
  if (y.length !== items.a.length) throw new Error(`estimateAbility: ${y.length} responses for ${items.a.length} items`);
  let n = 0;
  let sum = 0;
  const count = opts.indices ? opts.indices.length : y.length;
  for (let k = 0; k < count; k++) {
    const v = y[opts.indices ? opts.indices[k]! : k]!;
    if (!Number.isNaN(v)) {
      n++;
      sum += v;
    }
  }
  const prior = opts.prior ?? { mean: 0, sd: 1 };
  if (method === 'eap') {
    const post = abilityPosterior(items, y, opts);
    return { theta: post.mean, se: post.sd, method, n };
  }
  if (method === 'map') {
    const t = mode(items, y, prior, opts.indices);
    return { theta: t, se: 1 / Math.sqrt(logPost(items, y, t, prior, opts.indices).info), method, n };
  }
  if (n === 0) return { theta: Number.NaN, se: Number.POSITIVE_INFINITY, method, n };
  if (sum === n) return { theta: Number.POSITIVE_INFINITY, se: Number.POSITIVE_INFINITY, method, n };
  if (sum === 0) return { theta: Number.NEGATIVE_INFINITY, se: Number.POSITIVE_INFINITY, method, n };
  const t = mode(items, y, null, opts.indices);
  return { theta: t, se: 1 / Math.sqrt(logPost(items, y, t, null, opts.indices).info), method, n };
}

/** Abilities of every person (row) of a persons x items value array. */
export function estimateAbilities(
  items: IrtItems,
  values: Float64Array,
  nPersons: number,
  opts: AbilityOptions = {},
): { theta: Float64Array; se: Float64Array } {
  const J = items.a.length;
  if (values.length !== nPersons * J) throw new Error(`estimateAbilities: ${values.length} values for ${nPersons} x ${J}`);
  const theta = new Float64Array(nPersons);
  const se = new Float64Array(nPersons);
  for (let j = 0; j < nPersons; j++) {
    const e = estimateAbility(items, values.subarray(j * J, (j + 1) * J), opts);
    theta[j] = e.theta;
    se[j] = e.se;
  }
  return { theta, se };
}
