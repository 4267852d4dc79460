// Marginal maximum likelihood (with priors: marginal MAP) calibration of 1PL, 2PL and 3PL
// models by the Bock-Aitkin EM over a fixed quadrature grid with a standard normal ability
// distribution.
//   E-step: each person's posterior over the nodes; expected counts r[i,q] (correct) and
//     n[i,q] (observed) per item. The log likelihood at node q is
//     sum_i log(1 - P_iq) + sum_{i: y > 0} y (log P_iq - log(1 - P_iq)) - sum_{i missing} log(1 - P_iq),
//     so a person costs (positive + missing cells) x nodes, not items x nodes.
//   M-step: per item, Fisher scoring on the expected complete-data log posterior (item-step.ts);
//     1PL updates each b, then the shared a.
//   Scale: after each M-step the items are rescaled so that the panel's posterior ability mean
//     and SD are 0 and 1 (a <- a sd, b <- (b - mean) / sd). Without priors this is the
//     parameter-expanded EM of Liu, Rubin and Wu (1998): the same maximum likelihood as plain EM,
//     reached in far fewer iterations (plain EM creeps along the scale ridge when items outnumber
//     models, as every posterior is narrow). With priors it also keeps the priors from setting
//     the scale: a proper prior on thousands of item parameters outweighs N(0, 1) abilities of a
//     few dozen models, and the exact MAP drifts (measured with the default priors, 200 items:
//     mean a 2.34 against 1.41 true at 27 models and 1.63 against 1.41 at 300, where this
//     rescaling gives 1.57 and 1.43). The result is a penalised marginal likelihood estimate
//     whose scale is the panel's; `parameterExpansion: false` runs plain EM to the exact marginal
//     MAP instead. Both are checked against independent code in tests/irt-calibration.test.ts.
// Standard errors come from item-standard-errors.ts.

import { type IrtItems, type IrtModelType, softplus } from './irt-model.js';
import { type EStepState, eStep, newEStepState } from './e-step.js';
import { type ItemCounts, newQuadStats } from './item-quad-stats.js';
import { type ActiveParams, fitItemStep, type IrtPriors } from './item-step.js';
import { autoQuadraturePoints, normalQuadrature, type Quadrature } from './quadrature.js';
import { checkResponses, type IrtResponses, type PackedResponses, packResponses } from './responses.js';
import { itemStandardErrors, type ItemStandardErrors } from './item-standard-errors.js';

export interface IrtCalibrationOptions {
  model: IrtModelType;
  /**
   * 3PL guessing floor: a number for all items, or one per item (1/k for k-option items). Fixed
   * unless `estimateGuessing`; then it is the mode of c's Beta prior and the start.
   */
  guessing?: number | ArrayLike<number>;
  /** 3PL: estimate c with a Beta prior of mode `guessing` and strength `guessingPriorStrength`. */
  estimateGuessing?: boolean;
  /** Pseudo-observations of c's Beta prior (default 20: Beta(1 + 20 g, 1 + 20 (1 - g))). */
  guessingPriorStrength?: number;
  /** Priors; defaults DEFAULT_IRT_PRIORS. Pass null members to switch one off. */
  priors?: Partial<IrtPriors>;
  /**
   * Estimate the normal priors' means from the items (default true; see floatPriors). The 1PL's
   * shared a keeps its prior centre.
   */
  floatPriors?: boolean;
  /**
   * Quadrature nodes (default 41) on [-range, range] (default 6), or 'auto': enough for the
   * panel's longest test (autoQuadraturePoints), which long suites need: 41 nodes are coarser
   * than a model's posterior once it answered a few hundred items.
   */
  quadraturePoints?: number | 'auto';
  quadratureRange?: number;
  /** Stop when no parameter moves by more than this in an iteration (default 1e-4). */
  tolerance?: number;
  maxIterations?: number;
  /**
   * Fisher-scoring steps per item and M-step, fewer where an item's step falls below 1e-7 (default
   * 3; 25 for the 3PL, whose items at the floor otherwise alternate between two points from one
   * EM iteration to the next and never settle).
   */
  mStepIterations?: number;
  /**
   * Rescale the items to the panel's posterior ability moments after each M-step (default true;
   * see the file comment); false runs the plain Bock-Aitkin EM to the exact marginal MAP.
   */
  parameterExpansion?: boolean;
  /** Start values (for example a previous fit). */
  start?: IrtItems;
  /** Compute standard errors (default true). */
  standardErrors?: boolean;
}

/** Lognormal(0, 0.5^2) on a, N(0, 2^2) on b: see the README for why. */
export const DEFAULT_IRT_PRIORS: IrtPriors = {
  logA: { mean: 0, sd: 0.5 },
  b: { mean: 0, sd: 2 },
  c: null,
};

export interface IrtCalibration {
  model: IrtModelType;
  items: IrtItems;
  /** Standard errors of a, b and c (NaN where a parameter is fixed or shared). */
  se: ItemStandardErrors;
  /** Which parameters were estimated. */
  estimated: { a: 'item' | 'shared'; c: boolean };
  priors: IrtPriors;
  quadrature: Quadrature;
  iterations: number;
  converged: boolean;
  /** Largest parameter change of the last iteration. */
  lastChange: number;
  /** Marginal log likelihood at the estimates, and with the log priors added. */
  logLikelihood: number;
  logPosterior: number;
  /** Posterior weights of each person over the quadrature nodes, person-major (nPersons x Q). */
  posterior: Float64Array;
  nPersons: number;
}

/** Per-item priors; the normal priors' objects are shared, so floating their means moves all items' priors. */
function resolvePriors(opts: IrtCalibrationOptions, guessing: Float64Array): { of: (i: number) => IrtPriors; base: IrtPriors } {
  const copy = (p: { mean: number; sd: number } | null) => (p ? { mean: p.mean, sd: p.sd } : null);
  const base: IrtPriors = {
    logA: copy(opts.priors?.logA === undefined ? DEFAULT_IRT_PRIORS.logA : opts.priors.logA),
    b: copy(opts.priors?.b === undefined ? DEFAULT_IRT_PRIORS.b : opts.priors.b),
    c: null,
  };
  if (!(opts.model === '3pl' && opts.estimateGuessing)) return { of: () => base, base };
  if (opts.priors?.c) {
    const fixed = { logA: base.logA, b: base.b, c: opts.priors.c };
    return { of: () => fixed, base };
  }
  const s = opts.guessingPriorStrength ?? 20;
  const perItem = Array.from(guessing, (g) => ({ logA: base.logA, b: base.b, c: { alpha: 1 + s * g, beta: 1 + s * (1 - g) } }));
  return { of: (i) => perItem[i]!, base };
}

/**
 * Float the normal priors' means to the items' current mean log a and mean b (BILOG's FLOAT):
 * the MAP of a hierarchical prior with flat hyperpriors on its means. A fixed centre would set
 * the latent scale itself once items outnumber models (J priors pulling every a towards one
 * outweigh N abilities drawn from N(0, 1)); a floating one is invariant to a common shift.
 */
function floatPriors(items: IrtItems, base: IrtPriors, floatA: boolean): void {
  const J = items.a.length;
  if (base.logA && floatA) {
    let m = 0;
    for (let i = 0; i < J; i++) m += Math.log(items.a[i]!);
    base.logA.mean = m / J;
  }
  if (base.b) {
    let m = 0;
    for (let i = 0; i < J; i++) m += items.b[i]!;
    base.b.mean = m / J;
  }
}

function guessingVector(opts: IrtCalibrationOptions, nItems: number): Float64Array {
  const g = new Float64Array(nItems);
  if (opts.model !== '3pl') return g;
  const src = opts.guessing;
  if (src === undefined) throw new Error('3PL calibration needs `guessing` (1/k for k-option items), fixed or as the prior mode');
  for (let i = 0; i < nItems; i++) {
    const v = typeof src === 'number' ? src : src[i];
    if (v === undefined || !(v > 0 && v < 1)) throw new Error(`3PL guessing floor of item ${i} must be in (0, 1), got ${v}`);
    g[i] = v;
  }
  return g;
}

/** Start values: b from the proportion correct (logit scaled for a = 1 and N(0, 1) abilities). */
function startValues(packed: PackedResponses, guessing: Float64Array): IrtItems {
  const J = packed.nItems;
  const sums = new Float64Array(J);
  for (let k = 0; k < packed.posItem.length; k++) sums[packed.posItem[k]!]! += packed.posValue[k]!;
  const items: IrtItems = { a: new Float64Array(J).fill(1), b: new Float64Array(J), c: Float64Array.from(guessing) };
  for (let i = 0; i < J; i++) {
    const obs = packed.observedPerItem[i]!;
    const c = guessing[i]!;
    let p = obs > 0 ? (sums[i]! + 0.5) / (obs + 1) : 0.5;
    p = Math.min(0.98, Math.max(0.02, (p - c) / (1 - c)));
    items.b[i] = -Math.log(p / (1 - p)) * 1.16;
  }
  return items;
}

/** Sum of the log priors of all items. */
function logPriorTotal(items: IrtItems, priorsOf: (i: number) => IrtPriors, active: ActiveParams, model: IrtModelType): number {
  let lp = 0;
  for (let i = 0; i < items.a.length; i++) {
    const pr = priorsOf(i);
    if (pr.logA && (active.a || (model === '1pl' && i === 0))) {
      const d = Math.log(items.a[i]!) - pr.logA.mean;
      lp -= (d * d) / (2 * pr.logA.sd * pr.logA.sd);
    }
    if (pr.b) {
      const d = items.b[i]! - pr.b.mean;
      lp -= (d * d) / (2 * pr.b.sd * pr.b.sd);
    }
    if (active.c && pr.c) lp += (pr.c.alpha - 1) * Math.log(items.c[i]!) + (pr.c.beta - 1) * Math.log1p(-items.c[i]!);
  }
  return lp;
}

/** 1PL: one Fisher-scoring step (with halving) on the shared log a, b fixed; logistic counts (e-step.ts). */
function sharedSlopeStep(items: IrtItems, quad: Quadrature, s: EStepState, counts: ItemCounts, priors: IrtPriors): number {
  const Q = s.Q;
  const J = items.a.length;
  const nodes = quad.nodes;
  const objective = (a: number): { ll: number; g: number; info: number } => {
    let ll = 0;
    let g = 0;
    let info = 0;
    for (let i = 0; i < J; i++) {
      const b = items.b[i]!;
      const n = observedCounts(s, i, counts);
      const o = counts.nOffset;
      // sum_q r_q z_q = a (R1 - b R0); the nodes add -n softplus(z) and the n p terms.
      const rz = a * (s.R1[i]! - b * s.R0[i]!);
      ll += rz;
      g += rz;
      for (let q = 0; q < Q; q++) {
        const nq = n[o + q]!;
        if (nq <= 0) continue;
        const z = a * (nodes[q]! - b);
        const ps = 1 / (1 + Math.exp(-z));
        ll -= nq * softplus(z);
        g -= nq * ps * z;
        info += nq * ps * (1 - ps) * z * z;
      }
    }
    if (priors.logA) {
      const s2 = priors.logA.sd * priors.logA.sd;
      const dd = Math.log(a) - priors.logA.mean;
      ll -= (dd * dd) / (2 * s2);
      g -= dd / s2;
      info += 1 / s2;
    }
    return { ll, g, info };
  };
  const a0 = items.a[0]!;
  const cur = objective(a0);
  const step = Math.max(-1, Math.min(1, cur.g / cur.info));
  for (let t = 1, h = 0; h < 12; h++, t /= 2) {
    const na = a0 * Math.exp(t * step);
    if (objective(na).ll >= cur.ll - 1e-12 * Math.abs(cur.ll)) {
      items.a.fill(na);
      return Math.abs(na - a0);
    }
  }
  return 0;
}

/**
 * Point `counts` at item i's expected observed answers per node: the shared N_q when nothing is
 * missing, else N_q less the item's missing mass (written into counts' own buffer). Returns counts.n.
 */
function observedCounts(s: EStepState, i: number, counts: ItemCounts): Float64Array {
  if (!s.hasMissing) {
    counts.n = s.Nq;
    counts.nOffset = 0;
    return s.Nq;
  }
  const Q = s.Q;
  const o = i * Q;
  const n = counts.n === s.Nq ? (counts.n = new Float64Array(Q)) : counts.n;
  for (let q = 0; q < Q; q++) n[q] = s.Nq[q]! - s.miss[o + q]!;
  counts.nOffset = 0;
  return n;
}

/**
 * Calibrate item parameters on a persons x items response matrix (NaN = missing). Persons are
 * the models of a panel. See the file comment for the method.
 */
export function calibrateIrt(responses: IrtResponses, opts: IrtCalibrationOptions): IrtCalibration {
  checkResponses(responses);
  const packed = packResponses(responses);
  const J = packed.nItems;
  const N = packed.nPersons;
  if (N < 2) throw new Error(`IRT calibration needs at least 2 persons (models), got ${N}`);
  let longest = 0;
  for (let j = 0; j < N; j++) longest = Math.max(longest, J - (packed.missStart[j + 1]! - packed.missStart[j]!));
  const points = opts.quadraturePoints === 'auto' ? autoQuadraturePoints(longest) : (opts.quadraturePoints ?? 41);
  const quad = normalQuadrature(points, opts.quadratureRange ?? 6);
  const Q = quad.nodes.length;
  const guessing = guessingVector(opts, J);
  const { of: priorsOf, base: basePriors } = resolvePriors(opts, guessing);
  const floating = opts.floatPriors !== false;
  const active: ActiveParams = { a: opts.model !== '1pl', b: true, c: opts.model === '3pl' && !!opts.estimateGuessing };
  const items = opts.start
    ? { a: Float64Array.from(opts.start.a), b: Float64Array.from(opts.start.b), c: Float64Array.from(opts.start.c) }
    : startValues(packed, guessing);
  if (opts.model === '1pl') items.a.fill(items.a[0] ?? 1);
  if (opts.model !== '3pl') items.c.fill(0);
  else if (!active.c) items.c.set(guessing);
  if (items.a.length !== J) throw new Error(`IRT calibration: start values for ${items.a.length} items, data has ${J}`);
  const tol = opts.tolerance ?? 1e-4;
  const maxIter = opts.maxIterations ?? 500;
  const mSteps = opts.mStepIterations ?? (opts.model === '3pl' ? 25 : 3);
  const expand = opts.parameterExpansion !== false;
  const previous: IrtItems = { a: new Float64Array(J), b: new Float64Array(J), c: new Float64Array(J) };
  const s = newEStepState(packed, quad, !active.c && items.c.every((c) => c === 0));
  const counts: ItemCounts = {
    nodes: quad.nodes,
    equallySpaced: true,
    n: new Float64Array(Q),
    nOffset: 0,
    r: s.r,
    rOffset: 0,
    R0: 0,
    R1: 0,
  };
  const params = new Float64Array(3);
  const scratch = { cur: newQuadStats(), next: newQuadStats(), step: new Float64Array(3) };
  let iterations = 0;
  let converged = false;
  let change = Number.POSITIVE_INFINITY;
  for (; iterations < maxIter; ) {
    eStep(packed, items, quad, s);
    iterations++;
    if (floating) floatPriors(items, basePriors, opts.model !== '1pl');
    previous.a.set(items.a);
    previous.b.set(items.b);
    previous.c.set(items.c);
    const itemActive = opts.model === '1pl' ? { a: false, b: true, c: false } : active;
    for (let i = 0; i < J; i++) {
      params[0] = items.a[i]!;
      params[1] = items.b[i]!;
      params[2] = items.c[i]!;
      observedCounts(s, i, counts);
      counts.rOffset = i * Q;
      counts.R0 = s.R0[i]!;
      counts.R1 = s.R1[i]!;
      fitItemStep(params, itemActive, priorsOf(i), counts, mSteps, scratch);
      items.a[i] = params[0]!;
      items.b[i] = params[1]!;
      items.c[i] = params[2]!;
    }
    if (opts.model === '1pl') sharedSlopeStep(items, quad, s, counts, priorsOf(0));
    if (expand) {
      const [mu, sd] = s.moments;
      for (let i = 0; i < J; i++) {
        items.a[i]! *= sd;
        items.b[i] = (items.b[i]! - mu) / sd;
      }
    }
    change = 0;
    for (let i = 0; i < J; i++) {
      const d = Math.max(
        Math.abs(items.a[i]! - previous.a[i]!),
        Math.abs(items.b[i]! - previous.b[i]!),
        Math.abs(items.c[i]! - previous.c[i]!),
      );
      if (d > change || Number.isNaN(d)) change = d;
    }
    if (!Number.isFinite(change)) throw new Error('IRT calibration diverged (a parameter became NaN or infinite)');
    if (change < tol) {
      converged = true;
      break;
    }
  }
  const logLikelihood = eStep(packed, items, quad, s);
  const logPosterior = logLikelihood + logPriorTotal(items, priorsOf, active, opts.model);
  const se =
    opts.standardErrors === false
      ? { a: new Float64Array(J).fill(Number.NaN), b: new Float64Array(J).fill(Number.NaN), c: new Float64Array(J).fill(Number.NaN) }
      : itemStandardErrors(responses, items, quad, s.post, opts.model, active, priorsOf);
  return {
    model: opts.model,
    items,
    se,
    estimated: { a: opts.model === '1pl' ? 'shared' : 'item', c: active.c },
    priors: priorsOf(0),
    quadrature: quad,
    iterations,
    converged,
    lastChange: change,
    logLikelihood,
    logPosterior,
    posterior: s.post,
    nPersons: N,
  };
}
