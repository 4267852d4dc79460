// The bifactor 2PL: a general ability theta and one specific ability eta_k per category (the
// audit's "general + ToM facets" structure), all independent N(0, 1); item i of category k has
//   P(correct) = 1 / (1 + exp(-(aG_i theta + aS_i eta_k + d_i))).
// Marginal MAP by EM with the Gibbons-Hedeker (1992) reduction: given theta the categories are
// independent, so each person's likelihood is a product over categories of 1-D integrals over
// eta_k, and every integral runs on a Qg x Qs product grid instead of a (K + 1)-dimensional one.
//   E-step: per person and category, log L_k(theta_g, eta_s) over the grid (shared sums over all
//     items plus the person's positive and missing cells, as in the unidimensional EM); the
//     posterior of theta; the joint posterior of (theta, eta_k) per category; expected counts.
//   M-step: per item, Fisher scoring in (log aG, log aS, d) on its category's grid, with normal
//     priors on log aG, log aS (centres floating to the items' means) and on d.
//   Scale: after each M-step, theta and each eta_k are standardised to the panel's posterior
//     moments (as in calibrate.ts; `parameterExpansion: false` runs plain EM to the exact MAP).
// What the panel supports: each specific slope rests on the covariation among one category's
// items beyond the general factor. With 20-60 models the specific slopes are weakly identified
// (their recovery in tests/irt-bifactor.test.ts is at 300 models; at 27 it is noise) and the
// priors dominate them; the general slopes are as well determined as a 2PL's.

import type { IrtItems } from './irt-model.js';
import { type ActiveParams, invertActive, type NormalPrior } from './item-step.js';
import { normalQuadrature } from './quadrature.js';
import { checkResponses, type IrtResponses, packResponses } from './responses.js';

export interface BifactorOptions {
  /** Category (0..K-1) of each item. */
  categories: ArrayLike<number>;
  /** Nodes per dimension: general (default 21) and specific (default 15), on [-5, 5]. */
  generalPoints?: number;
  specificPoints?: number;
  priors?: { logAGeneral?: NormalPrior | null; logASpecific?: NormalPrior | null; d?: NormalPrior | null };
  tolerance?: number;
  maxIterations?: number;
  mStepIterations?: number;
  /** Standardise theta and each eta_k to the panel after each M-step (default true); false: plain EM to the exact marginal MAP. */
  parameterExpansion?: boolean;
}

export interface BifactorCalibration {
  /** General slope, specific slope and intercept per item. */
  aGeneral: Float64Array;
  aSpecific: Float64Array;
  d: Float64Array;
  /** Standard errors of the three (item blocks, complete-data information at the final posteriors). */
  se: { aGeneral: Float64Array; aSpecific: Float64Array; d: Float64Array };
  /**
   * The general dimension's marginal 2PL per item, the specific factor integrated out by the
   * logistic-normal approximation a* = aG / sqrt(1 + pi aS^2 / 8), b* = -d / aG: the curves that
   * unidimensional tools (tiny estimates, adaptive tests) use with a bifactor bank.
   */
  marginal: IrtItems;
  iterations: number;
  converged: boolean;
  logLikelihood: number;
  nCategories: number;
}

const DEFAULTS = {
  logAGeneral: { mean: 0, sd: 0.5 },
  logASpecific: { mean: Math.log(0.5), sd: 0.5 },
  d: { mean: 0, sd: 3 },
};

/** Fit the bifactor 2PL (see the file comment). Persons are the panel's models. */
export function calibrateBifactor(responses: IrtResponses, opts: BifactorOptions): BifactorCalibration {
  checkResponses(responses);
  const packed = packResponses(responses);
  const { nPersons: N, nItems: J } = responses;
  if (opts.categories.length !== J) throw new Error(`bifactor: ${opts.categories.length} categories for ${J} items`);
  const cat = Int32Array.from(opts.categories);
  const K = Math.max(...cat) + 1;
  const gq = normalQuadrature(opts.generalPoints ?? 21, 5);
  const sq = normalQuadrature(opts.specificPoints ?? 15, 5);
  const Qg = gq.nodes.length;
  const Qs = sq.nodes.length;
  const Q2 = Qg * Qs;
  const pr = {
    logAGeneral: opts.priors?.logAGeneral === undefined ? { ...DEFAULTS.logAGeneral } : opts.priors.logAGeneral,
    logASpecific: opts.priors?.logASpecific === undefined ? { ...DEFAULTS.logASpecific } : opts.priors.logASpecific,
    d: opts.priors?.d === undefined ? { ...DEFAULTS.d } : opts.priors.d,
  };
  const aG = new Float64Array(J).fill(1);
  const aS = new Float64Array(J).fill(0.5);
  const d = new Float64Array(J);
  const sums = new Float64Array(J);
  for (let k = 0; k < packed.posItem.length; k++) sums[packed.posItem[k]!]! += packed.posValue[k]!;
  for (let i = 0; i < J; i++) {
    const p = Math.min(0.98, Math.max(0.02, (sums[i]! + 0.5) / (packed.observedPerItem[i]! + 1)));
    d[i] = Math.log(p / (1 - p)) * 1.3;
  }
  // Work arrays: per category (and, where cells are missing, per item) over the product grid
  // (g-major: index g * Qs + s). The logit z = aG theta + aS eta + d is linear in the nodes, so a
  // person's log likelihood on category k's grid needs only the sums SG, SS, SD of aG, aS and d
  // over the person's correct answers in k, and an item's expected correct answers enter its
  // M-step only through R0 = sum_j y, RG = sum_j y E[theta_j], RS = sum_j y E[eta_jk] (the same
  // exponential-family reduction as e-step.ts).
  const hasMissing = packed.missItem.length > 0;
  const l1m = new Float64Array(hasMissing ? J * Q2 : 0);
  const base = new Float64Array(K * Q2);
  const miss = new Float64Array(hasMissing ? J * Q2 : 0);
  const nk = new Float64Array(K * Q2); // expected persons per category grid point
  const llk = new Float64Array(K * Q2);
  const sk = new Float64Array(3 * K);
  const etaMean = new Float64Array(K);
  const R0 = new Float64Array(J);
  const RG = new Float64Array(J);
  const RS = new Float64Array(J);
  for (let p = 0; p < packed.posItem.length; p++) R0[packed.posItem[p]!]! += packed.posValue[p]!;
  const nItem = new Float64Array(Q2);
  const postG = new Float64Array(Qg);
  const logwG = gq.weights.map(Math.log);
  const logwS = sq.weights.map(Math.log);
  const xg = gq.nodes;
  const xs = sq.nodes;
  const Eg = new Float64Array(Qg);
  const Es = new Float64Array(Qs);
  const tol = opts.tolerance ?? 1e-4;
  const maxIter = opts.maxIterations ?? 500;
  const mSteps = opts.mStepIterations ?? 3;
  let iterations = 0;
  let converged = false;
  let logLik = 0;
  const momentsG = [0, 0];
  const momentsS = new Float64Array(2 * K);
  const massS = new Float64Array(K);

  /** exp(-z) on the grid as the product exp(-aG x_g - d) exp(-aS x_s) into Eg, Es; false where it could overflow. */
  const expGrid = (ag: number, as: number, di: number): boolean => {
    if (ag * 5 + as * 5 + Math.abs(di) >= 600) return false;
    for (let g = 0; g < Qg; g++) Eg[g] = Math.exp(-ag * xg[g]! - di);
    for (let s = 0; s < Qs; s++) Es[s] = Math.exp(-as * xs[s]!);
    return true;
  };

  const eStep = (): number => {
    base.fill(0);
    for (let i = 0; i < J; i++) {
      const o = i * Q2;
      const ko = cat[i]! * Q2;
      const ag = aG[i]!;
      const as = aS[i]!;
      const di = d[i]!;
      const product = expGrid(ag, as, di);
      for (let g = 0; g < Qg; g++)
        for (let s = 0; s < Qs; s++) {
          const z = ag * xg[g]! + as * xs[s]! + di;
          const eNeg = product ? Eg[g]! * Es[s]! : Math.exp(-z);
          // -softplus(z) = -(max(z, 0) + log1p(exp(-|z|))).
          const lm = -(Math.max(z, 0) + Math.log1p(z > 0 ? eNeg : 1 / eNeg));
          if (hasMissing) l1m[o + g * Qs + s] = lm;
          base[ko + g * Qs + s]! += lm;
        }
    }
    RG.fill(0);
    RS.fill(0);
    miss.fill(0);
    nk.fill(0);
    momentsG[0] = momentsG[1] = 0;
    momentsS.fill(0);
    massS.fill(0);
    let total = 0;
    for (let j = 0; j < N; j++) {
      sk.fill(0);
      for (let p = packed.posStart[j]!; p < packed.posStart[j + 1]!; p++) {
        const i = packed.posItem[p]!;
        const y = packed.posValue[p]!;
        const k3 = 3 * cat[i]!;
        sk[k3]! += y * aG[i]!;
        sk[k3 + 1]! += y * aS[i]!;
        sk[k3 + 2]! += y * d[i]!;
      }
      for (let k = 0; k < K; k++) {
        const ko = k * Q2;
        const sg = sk[3 * k]!;
        const ss = sk[3 * k + 1]!;
        const sd = sk[3 * k + 2]!;
        for (let g = 0; g < Qg; g++) {
          const off = ko + g * Qs;
          const cg = xg[g]! * sg + sd;
          for (let s = 0; s < Qs; s++) llk[off + s] = base[off + s]! + cg + xs[s]! * ss;
        }
      }
      for (let m = packed.missStart[j]!; m < packed.missStart[j + 1]!; m++) {
        const i = packed.missItem[m]!;
        const o = i * Q2;
        const ko = cat[i]! * Q2;
        for (let q = 0; q < Q2; q++) llk[ko + q]! -= l1m[o + q]!;
      }
      // log Lbar_k(g) = log sum_s w_s L_k(g, s); log posterior of theta. llk keeps each
      // w_s L_k(g, s) / sum_s w_s L_k(g, s) (eta_k's posterior given theta_g), for the joint posterior below.
      for (let g = 0; g < Qg; g++) postG[g] = logwG[g]!;
      for (let k = 0; k < K; k++)
        for (let g = 0; g < Qg; g++) {
          let mx = Number.NEGATIVE_INFINITY;
          const o = k * Q2 + g * Qs;
          for (let s = 0; s < Qs; s++) mx = Math.max(mx, llk[o + s]! + logwS[s]!);
          let sum = 0;
          for (let s = 0; s < Qs; s++) {
            const e = Math.exp(llk[o + s]! + logwS[s]! - mx);
            llk[o + s] = e;
            sum += e;
          }
          const inv = 1 / sum;
          for (let s = 0; s < Qs; s++) llk[o + s]! *= inv;
          postG[g]! += mx + Math.log(sum);
        }
      let mx = Number.NEGATIVE_INFINITY;
      for (let g = 0; g < Qg; g++) mx = Math.max(mx, postG[g]!);
      let sum = 0;
      for (let g = 0; g < Qg; g++) {
        postG[g] = Math.exp(postG[g]! - mx);
        sum += postG[g]!;
      }
      total += mx + Math.log(sum);
      let thetaMean = 0;
      for (let g = 0; g < Qg; g++) {
        postG[g]! /= sum;
        thetaMean += postG[g]! * xg[g]!;
        momentsG[1]! += postG[g]! * xg[g]! ** 2;
      }
      momentsG[0]! += thetaMean;
      // Joint posterior of (theta, eta_k), overwriting llk; the posterior mean of each eta_k.
      for (let k = 0; k < K; k++) {
        let m1 = 0;
        let m2 = 0;
        for (let g = 0; g < Qg; g++) {
          const o = k * Q2 + g * Qs;
          const pg = postG[g]!;
          for (let s = 0; s < Qs; s++) {
            const w = pg * llk[o + s]!;
            llk[o + s] = w;
            nk[o + s]! += w;
            m1 += w * xs[s]!;
            m2 += w * xs[s]! ** 2;
          }
        }
        etaMean[k] = m1;
        momentsS[2 * k]! += m1;
        momentsS[2 * k + 1]! += m2;
      }
      for (let k = 0; k < K; k++) massS[k]!++;
      for (let p = packed.posStart[j]!; p < packed.posStart[j + 1]!; p++) {
        const i = packed.posItem[p]!;
        const y = packed.posValue[p]!;
        RG[i]! += y * thetaMean;
        RS[i]! += y * etaMean[cat[i]!]!;
      }
      for (let m = packed.missStart[j]!; m < packed.missStart[j + 1]!; m++) {
        const i = packed.missItem[m]!;
        const o = i * Q2;
        const ko = cat[i]! * Q2;
        for (let q = 0; q < Q2; q++) miss[o + q]! += llk[ko + q]!;
      }
    }
    return total;
  };

  // One item's expected complete-data log posterior, gradient and Fisher information in (log aG, log aS, d).
  const g3 = new Float64Array(3);
  const I9 = new Float64Array(9);
  const itemStats = (i: number, ag: number, as: number, di: number): number => {
    const o = i * Q2;
    const ko = cat[i]! * Q2;
    for (let q = 0; q < Q2; q++) nItem[q] = hasMissing ? nk[ko + q]! - miss[o + q]! : nk[ko + q]!;
    const product = expGrid(ag, as, di);
    // sum_q r_q z_q from the sufficient statistics; the nodes add -n softplus(z) and the n P terms.
    let ll = ag * RG[i]! + as * RS[i]! + di * R0[i]!;
    let sp0 = 0;
    let sp1 = 0;
    let sp2 = 0;
    let i00 = 0;
    let i01 = 0;
    let i02 = 0;
    let i11 = 0;
    let i12 = 0;
    let i22 = 0;
    for (let g = 0; g < Qg; g++)
      for (let s = 0; s < Qs; s++) {
        const q = g * Qs + s;
        const n = nItem[q]!;
        if (n <= 1e-300) continue;
        const z = ag * xg[g]! + as * xs[s]! + di;
        const eNeg = product ? Eg[g]! * Es[s]! : Math.exp(-z);
        const e = z > 0 ? eNeg : 1 / eNeg; // exp(-|z|)
        const inv = 1 / (1 + e);
        const p = z > 0 ? inv : e * inv;
        ll -= n * (Math.max(z, 0) + Math.log1p(e));
        const np = n * p;
        const w = np * (z > 0 ? e * inv : inv);
        const v0 = xg[g]!;
        const v1 = xs[s]!;
        sp0 += np * v0;
        sp1 += np * v1;
        sp2 += np;
        i00 += w * v0 * v0;
        i01 += w * v0 * v1;
        i02 += w * v0;
        i11 += w * v1 * v1;
        i12 += w * v1;
        i22 += w;
      }
    g3[0] = ag * (RG[i]! - sp0);
    g3[1] = as * (RS[i]! - sp1);
    g3[2] = R0[i]! - sp2;
    I9[0] = ag * ag * i00;
    I9[1] = ag * as * i01;
    I9[2] = ag * i02;
    I9[4] = as * as * i11;
    I9[5] = as * i12;
    I9[8] = i22;
    const add = (idx: number, x: number, prior: NormalPrior | null) => {
      if (!prior) return;
      const s2 = prior.sd * prior.sd;
      ll -= (x - prior.mean) ** 2 / (2 * s2);
      g3[idx]! -= (x - prior.mean) / s2;
      I9[idx * 4]! += 1 / s2;
    };
    add(0, Math.log(ag), pr.logAGeneral);
    add(1, Math.log(as), pr.logASpecific);
    add(2, di, pr.d);
    I9[3] = I9[1]!;
    I9[6] = I9[2]!;
    I9[7] = I9[5]!;
    return ll;
  };
  const all: ActiveParams = { a: true, b: true, c: true };
  const mStep = (): void => {
    const mean = (f: (i: number) => number) => {
      let m = 0;
      for (let i = 0; i < J; i++) m += f(i);
      return m / J;
    };
    if (pr.logAGeneral) pr.logAGeneral.mean = mean((i) => Math.log(aG[i]!));
    if (pr.logASpecific) pr.logASpecific.mean = mean((i) => Math.log(aS[i]!));
    if (pr.d) pr.d.mean = mean((i) => d[i]!);
    for (let i = 0; i < J; i++) {
      let ag = aG[i]!;
      let as = aS[i]!;
      let di = d[i]!;
      let f0 = itemStats(i, ag, as, di);
      for (let it = 0; it < mSteps; it++) {
        const cov = invertActive(I9, all);
        if (Number.isNaN(cov[0]!)) break;
        const step = [0, 1, 2].map((u) => cov[u * 3]! * g3[0]! + cov[u * 3 + 1]! * g3[1]! + cov[u * 3 + 2]! * g3[2]!);
        const clip = (x: number, m: number) => Math.max(-m, Math.min(m, x));
        let t = 1;
        let accepted = false;
        for (let h = 0; h < 12; h++, t /= 2) {
          const na = ag * Math.exp(clip(t * step[0]!, 1));
          const ns = as * Math.exp(clip(t * step[1]!, 1));
          const nd = di + clip(t * step[2]!, 3);
          // The candidate's derivatives are the next step's when it is accepted.
          const f1 = itemStats(i, na, ns, nd);
          if (f1 >= f0 - 1e-12 * Math.abs(f0)) {
            ag = na;
            as = ns;
            di = nd;
            f0 = f1;
            accepted = true;
            break;
          }
        }
        if (!accepted) break;
      }
      aG[i] = ag;
      aS[i] = as;
      d[i] = di;
    }
  };

  const prev = new Float64Array(3 * J);
  for (; iterations < maxIter; ) {
    logLik = eStep();
    iterations++;
    for (let i = 0; i < J; i++) {
      prev[3 * i] = aG[i]!;
      prev[3 * i + 1] = aS[i]!;
      prev[3 * i + 2] = d[i]!;
    }
    mStep();
    // Standardise theta and each eta_k to the panel's posterior moments.
    const mg = momentsG[0]! / N;
    const sg = Math.sqrt(Math.max(1e-12, momentsG[1]! / N - mg * mg));
    for (let i = 0; i < J && opts.parameterExpansion !== false; i++) {
      const k = cat[i]!;
      const ms = momentsS[2 * k]! / massS[k]!;
      const ss = Math.sqrt(Math.max(1e-12, momentsS[2 * k + 1]! / massS[k]! - ms * ms));
      d[i] = d[i]! + aG[i]! * mg + aS[i]! * ms;
      aG[i]! *= sg;
      aS[i]! *= ss;
    }
    let change = 0;
    for (let i = 0; i < J; i++)
      change = Math.max(change, Math.abs(aG[i]! - prev[3 * i]!), Math.abs(aS[i]! - prev[3 * i + 1]!), Math.abs(d[i]! - prev[3 * i + 2]!));
    if (!Number.isFinite(change)) throw new Error('bifactor calibration diverged');
    if (change < tol) {
      converged = true;
      break;
    }
  }
  logLik = eStep();
  const se = { aGeneral: new Float64Array(J), aSpecific: new Float64Array(J), d: new Float64Array(J) };
  for (let i = 0; i < J; i++) {
    itemStats(i, aG[i]!, aS[i]!, d[i]!);
    const cov = invertActive(I9, all);
    se.aGeneral[i] = aG[i]! * Math.sqrt(cov[0]!);
    se.aSpecific[i] = aS[i]! * Math.sqrt(cov[4]!);
    se.d[i] = Math.sqrt(cov[8]!);
  }
  const marginal: IrtItems = { a: new Float64Array(J), b: new Float64Array(J), c: new Float64Array(J) };
  for (let i = 0; i < J; i++) {
    const shrink = Math.sqrt(1 + (Math.PI * aS[i]! * aS[i]!) / 8);
    marginal.a[i] = aG[i]! / shrink;
    marginal.b[i] = -d[i]! / aG[i]!;
  }
  return { aGeneral: aG, aSpecific: aS, d, se, marginal, iterations, converged, logLikelihood: logLik, nCategories: K };
}
