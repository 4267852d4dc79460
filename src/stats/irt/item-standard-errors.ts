// Standard errors of the item parameters from the observed information of the marginal log
// posterior, one item block at a time (Louis 1982): for item i,
//   I_i = sum_j ( E_post[-d2 log f_ij] - Var_post[d log f_ij] ) + prior precision,
// where f_ij is person j's likelihood of the answer to item i at a node and the expectations
// run over person j's posterior on the nodes at the estimates. This is the exact i-th diagonal
// block of the observed information; inverting the blocks one by one ignores the covariances
// between items (small when the panel's posteriors are narrow, that is, with long tests).
// Derivatives are taken in (log a, b, logit c) and carried to (a, b, c) by the delta method.
// The shared a of the 1PL gets its own 1 x 1 block, with the variance of each person's summed
// score over all items.

import type { IrtItems, IrtModelType } from './irt-model.js';
import { type ActiveParams, invertActive, type IrtPriors } from './item-step.js';
import type { Quadrature } from './quadrature.js';
import type { IrtResponses } from './responses.js';

export interface ItemStandardErrors {
  a: Float64Array;
  b: Float64Array;
  c: Float64Array;
}

/** Gradient (3) and Hessian (row-major 3 x 3) of log P and log(1 - P) in (alpha, b, gamma) at one node. */
function logDerivatives(
  a: number,
  b: number,
  c: number,
  theta: number,
  g1: Float64Array,
  H1: Float64Array,
  g0: Float64Array,
  H0: Float64Array,
): void {
  const z = a * (theta - b);
  const ps = 1 / (1 + Math.exp(-z));
  const P = c + (1 - c) * ps;
  const dz = [z, -a, 0];
  const dc = [0, 0, c * (1 - c)];
  const d2z = [z, -a, 0, -a, 0, 0, 0, 0, 0];
  const d2c = [0, 0, 0, 0, 0, 0, 0, 0, c * (1 - c) * (1 - 2 * c)];
  // log P
  const Fz1 = ((1 - c) * ps * (1 - ps)) / P;
  const Fc1 = (1 - ps) / P;
  const Fzz1 = ((1 - c) * ps * (1 - ps) * (1 - 2 * ps)) / P - Fz1 * Fz1;
  const Fzc1 = (-ps * (1 - ps)) / P - Fz1 * Fc1;
  const Fcc1 = -Fc1 * Fc1;
  // log(1 - P)
  const Fz0 = -ps;
  const Fc0 = -1 / (1 - c);
  const Fzz0 = -ps * (1 - ps);
  const Fcc0 = -1 / ((1 - c) * (1 - c));
  for (let u = 0; u < 3; u++) {
    g1[u] = Fz1 * dz[u]! + Fc1 * dc[u]!;
    g0[u] = Fz0 * dz[u]! + Fc0 * dc[u]!;
    for (let v = 0; v < 3; v++) {
      const k = u * 3 + v;
      const zz = dz[u]! * dz[v]!;
      const zc = dz[u]! * dc[v]! + dc[u]! * dz[v]!;
      const cc = dc[u]! * dc[v]!;
      H1[k] = Fzz1 * zz + Fzc1 * zc + Fcc1 * cc + Fz1 * d2z[k]! + Fc1 * d2c[k]!;
      H0[k] = Fzz0 * zz + Fcc0 * cc + Fz0 * d2z[k]! + Fc0 * d2c[k]!;
    }
  }
}

/**
 * Standard errors of a, b, c for a fitted model. `posterior` holds each person's weights over
 * the quadrature nodes at the estimates (nPersons x Q).
 */
export function itemStandardErrors(
  responses: IrtResponses,
  items: IrtItems,
  quad: Quadrature,
  posterior: Float64Array,
  model: IrtModelType,
  active: ActiveParams,
  priorsOf: (i: number) => IrtPriors,
): ItemStandardErrors {
  const { nPersons: N, nItems: J, values } = responses;
  const Q = quad.nodes.length;
  const out: ItemStandardErrors = {
    a: new Float64Array(J).fill(Number.NaN),
    b: new Float64Array(J).fill(Number.NaN),
    c: new Float64Array(J).fill(Number.NaN),
  };
  const itemActive: ActiveParams = model === '1pl' ? { a: false, b: true, c: false } : active;
  const G1 = new Float64Array(Q * 3);
  const G0 = new Float64Array(Q * 3);
  const H1 = new Float64Array(Q * 9);
  const H0 = new Float64Array(Q * 9);
  // For binary answers, E[H + s s'] needs only A = H + g g' per node.
  const A1 = new Float64Array(Q * 9);
  const A0 = new Float64Array(Q * 9);
  const g1 = new Float64Array(3);
  const g0 = new Float64Array(3);
  const h1 = new Float64Array(9);
  const h0 = new Float64Array(9);
  const info = new Float64Array(9);
  const es = new Float64Array(3);
  const W1 = new Float64Array(Q);
  const W0 = new Float64Array(Q);
  const sq = new Float64Array(3);
  // 1PL shared slope: per person and node, the summed alpha-score over items; and E[-H] summed.
  const shared = model === '1pl' ? new Float64Array(N * Q) : null;
  let sharedNegH = 0;
  for (let i = 0; i < J; i++) {
    const a = items.a[i]!;
    const b = items.b[i]!;
    const c = items.c[i]!;
    for (let q = 0; q < Q; q++) {
      logDerivatives(a, b, c, quad.nodes[q]!, g1, h1, g0, h0);
      G1.set(g1, q * 3);
      G0.set(g0, q * 3);
      H1.set(h1, q * 9);
      H0.set(h0, q * 9);
      for (let u = 0; u < 3; u++)
        for (let v = 0; v < 3; v++) {
          A1[q * 9 + u * 3 + v] = h1[u * 3 + v]! + g1[u]! * g1[v]!;
          A0[q * 9 + u * 3 + v] = h0[u * 3 + v]! + g0[u]! * g0[v]!;
        }
    }
    info.fill(0);
    W1.fill(0);
    W0.fill(0);
    for (let j = 0; j < N; j++) {
      const y = values[j * J + i]!;
      if (Number.isNaN(y)) continue;
      const po = j * Q;
      es.fill(0);
      if (y === 1 || y === 0) {
        // E[H + s s'] is linear in the posterior: summed per node into W1 / W0 below.
        const G = y === 1 ? G1 : G0;
        const W = y === 1 ? W1 : W0;
        for (let q = 0; q < Q; q++) {
          const w = posterior[po + q]!;
          W[q]! += w;
          es[0]! += w * G[q * 3]!;
          es[1]! += w * G[q * 3 + 1]!;
          es[2]! += w * G[q * 3 + 2]!;
        }
      } else {
        for (let q = 0; q < Q; q++) {
          const w = posterior[po + q]!;
          for (let u = 0; u < 3; u++) {
            sq[u] = y * G1[q * 3 + u]! + (1 - y) * G0[q * 3 + u]!;
            es[u]! += w * sq[u]!;
          }
          for (let u = 0; u < 3; u++)
            for (let v = 0; v < 3; v++) {
              const k = u * 3 + v;
              info[k]! -= w * (y * H1[q * 9 + k]! + (1 - y) * H0[q * 9 + k]! + sq[u]! * sq[v]!);
            }
        }
      }
      // -E[H] - (E[s s'] - E[s] E[s]') = -E[H + s s'] + E[s] E[s]'.
      for (let u = 0; u < 3; u++) for (let v = 0; v < 3; v++) info[u * 3 + v]! += es[u]! * es[v]!;
      if (shared) {
        for (let q = 0; q < Q; q++) {
          const w = posterior[po + q]!;
          shared[po + q]! += y * G1[q * 3]! + (1 - y) * G0[q * 3]!;
          sharedNegH -= w * (y * H1[q * 9]! + (1 - y) * H0[q * 9]!);
        }
      }
    }
    for (let q = 0; q < Q; q++) {
      const w1 = W1[q]!;
      const w0 = W0[q]!;
      if (w1 === 0 && w0 === 0) continue;
      for (let k = 0; k < 9; k++) info[k]! -= w1 * A1[q * 9 + k]! + w0 * A0[q * 9 + k]!;
    }
    const pr = priorsOf(i);
    if (itemActive.a && pr.logA) info[0]! += 1 / (pr.logA.sd * pr.logA.sd);
    if (pr.b) info[4]! += 1 / (pr.b.sd * pr.b.sd);
    if (itemActive.c && pr.c) info[8]! += (pr.c.alpha - 1) * (1 - c) * (1 - c) + (pr.c.beta - 1) * c * c;
    const cov = invertActive(info, itemActive);
    if (itemActive.a) out.a[i] = a * Math.sqrt(cov[0]!);
    out.b[i] = Math.sqrt(cov[4]!);
    if (itemActive.c) out.c[i] = c * (1 - c) * Math.sqrt(cov[8]!);
  }
  if (shared) {
    let infoA = sharedNegH;
    for (let j = 0; j < N; j++) {
      let m1 = 0;
      let m2 = 0;
      for (let q = 0; q < Q; q++) {
        const w = posterior[j * Q + q]!;
        const s = shared[j * Q + q]!;
        m1 += w * s;
        m2 += w * s * s;
      }
      infoA -= m2 - m1 * m1;
    }
    const pr = priorsOf(0);
    if (pr.logA) infoA += 1 / (pr.logA.sd * pr.logA.sd);
    out.a.fill(infoA > 0 ? items.a[0]! / Math.sqrt(infoA) : Number.NaN);
  }
  return out;
}
