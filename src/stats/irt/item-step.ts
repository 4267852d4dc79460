// One item's M-step of the Bock-Aitkin EM: maximise the expected complete-data log posterior
//   sum_q [ r_q log P(theta_q) + (n_q - r_q) log(1 - P(theta_q)) ] + log prior
// over (alpha = log a, b, gamma = logit c) by Fisher scoring with step halving, where r_q and
// n_q are the expected numbers of correct and of observed answers at node q (item-quad-stats.ts).
// Priors: alpha ~ N(mu, sd^2) (lognormal on a), b ~ N(mu, sd^2), c ~ Beta(alpha, beta) (its
// mode, without the logit Jacobian, so the optimum over gamma is the MAP of c).

import { type ItemCounts, type ItemQuadStats, itemQuadStats } from './item-quad-stats.js';

export interface NormalPrior {
  mean: number;
  sd: number;
}

export interface IrtPriors {
  /** Normal prior on log a (lognormal on a); null for none. */
  logA: NormalPrior | null;
  /** Normal prior on b; null for none. */
  b: NormalPrior | null;
  /** Beta prior on c when c is estimated; null for none (not advised). */
  c: { alpha: number; beta: number } | null;
}

/** Which of (alpha, b, gamma) an item step updates. */
export interface ActiveParams {
  a: boolean;
  b: boolean;
  c: boolean;
}

/** Log prior density (up to a constant) of one item's parameters, adding its gradient and information to stats. */
function addItemPrior(a: number, b: number, c: number, active: ActiveParams, priors: IrtPriors, stats: ItemQuadStats | null): number {
  let lp = 0;
  if (active.a && priors.logA) {
    const s2 = priors.logA.sd * priors.logA.sd;
    const d = Math.log(a) - priors.logA.mean;
    lp -= (d * d) / (2 * s2);
    if (stats) {
      stats.g[0]! -= d / s2;
      stats.info[0]! += 1 / s2;
    }
  }
  if (active.b && priors.b) {
    const s2 = priors.b.sd * priors.b.sd;
    const d = b - priors.b.mean;
    lp -= (d * d) / (2 * s2);
    if (stats) {
      stats.g[1]! -= d / s2;
      stats.info[4]! += 1 / s2;
    }
  }
  if (active.c && priors.c) {
    const { alpha, beta } = priors.c;
    lp += (alpha - 1) * Math.log(c) + (beta - 1) * Math.log1p(-c);
    if (stats) {
      stats.g[2]! += (alpha - 1) * (1 - c) - (beta - 1) * c;
      stats.info[8]! += (alpha - 1) * (1 - c) * (1 - c) + (beta - 1) * c * c;
    }
  }
  return lp;
}

const SOLVE_IDX = new Int32Array(3);
const SOLVE_L = new Float64Array(9);
const SOLVE_Y = new Float64Array(3);

/**
 * Solve info[active] x = g[active] for the active coordinates (Cholesky with a small ridge);
 * writes the step into `step` (zeros for inactive ones). Returns false when not positive definite.
 */
function solveActive(info: Float64Array, g: Float64Array, active: ActiveParams, step: Float64Array): boolean {
  // Module-level work arrays: this runs several times per item and EM iteration.
  const idx = SOLVE_IDX;
  let k = 0;
  if (active.a) idx[k++] = 0;
  if (active.b) idx[k++] = 1;
  if (active.c) idx[k++] = 2;
  step.fill(0);
  if (k === 0) return true;
  // Cholesky of the k x k block.
  const L = SOLVE_L.fill(0);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j <= i; j++) {
      let s = info[idx[i]! * 3 + idx[j]!]!;
      if (i === j) s += 1e-10 * (1 + Math.abs(s));
      for (let m = 0; m < j; m++) s -= L[i * 3 + m]! * L[j * 3 + m]!;
      if (i === j) {
        if (!(s > 0)) return false;
        L[i * 3 + i] = Math.sqrt(s);
      } else L[i * 3 + j] = s / L[j * 3 + j]!;
    }
  }
  const y = SOLVE_Y;
  for (let i = 0; i < k; i++) {
    let s = g[idx[i]!]!;
    for (let m = 0; m < i; m++) s -= L[i * 3 + m]! * y[m]!;
    y[i] = s / L[i * 3 + i]!;
  }
  for (let i = k - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let m = i + 1; m < k; m++) s -= L[m * 3 + i]! * step[idx[m]!]!;
    step[idx[i]!] = s / L[i * 3 + i]!;
  }
  return true;
}

/** Inverse of the active block of a 3 x 3 information matrix (NaN rows/columns for inactive ones). */
export function invertActive(info: Float64Array, active: ActiveParams): Float64Array {
  const out = new Float64Array(9).fill(Number.NaN);
  const e = new Float64Array(3);
  const col = new Float64Array(3);
  const flags = [active.a, active.b, active.c];
  for (let j = 0; j < 3; j++) {
    if (!flags[j]) continue;
    e.fill(0);
    e[j] = 1;
    if (!solveActive(info, e, active, col)) return out.fill(Number.NaN);
    for (let i = 0; i < 3; i++) if (flags[i]) out[i * 3 + j] = col[i]!;
  }
  return out;
}

/** Clamp applied to every step in (alpha, b, gamma), so that one bad step cannot run away. */
const MAX_STEP = [1, 2, 2];

/**
 * Up to `maxSteps` Fisher-scoring steps on one item; params = [a, b, c] is updated in place.
 * Returns the largest change of a, b or c.
 */
export function fitItemStep(
  params: Float64Array,
  active: ActiveParams,
  priors: IrtPriors,
  counts: ItemCounts,
  maxSteps: number,
  scratch: { cur: ItemQuadStats; next: ItemQuadStats; step: Float64Array },
): number {
  let a = params[0]!;
  let b = params[1]!;
  let c = params[2]!;
  const general = active.c || c > 0;
  const a0 = a;
  const b0 = b;
  const c0 = c;
  let cur = itemQuadStats(a, b, c, general, counts, scratch.cur);
  let obj = cur.ll + addItemPrior(a, b, c, active, priors, cur);
  for (let it = 0; it < maxSteps; it++) {
    if (!solveActive(cur.info, cur.g, active, scratch.step)) break;
    for (let k = 0; k < 3; k++) scratch.step[k] = Math.max(-MAX_STEP[k]!, Math.min(MAX_STEP[k]!, scratch.step[k]!));
    let t = 1;
    let accepted = false;
    for (let h = 0; h < 12; h++, t /= 2) {
      const na = active.a ? a * Math.exp(t * scratch.step[0]!) : a;
      const nb = b + t * scratch.step[1]!;
      let nc = c;
      if (active.c) {
        const g = Math.log(c / (1 - c)) + t * scratch.step[2]!;
        nc = Math.min(1 - 1e-6, Math.max(1e-6, 1 / (1 + Math.exp(-g))));
      }
      const nxt = itemQuadStats(na, nb, nc, general, counts, scratch.next);
      const nobj = nxt.ll + addItemPrior(na, nb, nc, active, priors, nxt);
      if (nobj >= obj - 1e-12 * Math.abs(obj) || !Number.isFinite(obj)) {
        const moved = Math.max(Math.abs(na - a), Math.abs(nb - b), Math.abs(nc - c));
        a = na;
        b = nb;
        c = nc;
        obj = nobj;
        const swap = cur;
        cur = nxt;
        scratch.next = swap;
        scratch.cur = cur;
        accepted = true;
        if (moved < 1e-7) it = maxSteps;
        break;
      }
    }
    if (!accepted) break;
  }
  params[0] = a;
  params[1] = b;
  params[2] = c;
  return Math.max(Math.abs(a - a0), Math.abs(b - b0), Math.abs(c - c0));
}
