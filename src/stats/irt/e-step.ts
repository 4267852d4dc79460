// The E-step of the unidimensional Bock-Aitkin EM (calibrate.ts): each person's posterior over
// the quadrature nodes, and the expected counts the M-step reads.
//
// Logistic items (c = 0: the 1PL and 2PL) take the exponential-family route. Their log odds
// z_iq = a_i (x_q - b_i) are linear in the node, so a person's log likelihood at node q is
//   base_q + x_q S1_j - S0_j,   S1_j = sum_{i: y > 0} y a_i,   S0_j = sum_{i: y > 0} y a_i b_i,
// with base_q = sum_i log(1 - P_iq) (less the person's missing items), and the expected
// complete-data log likelihood of item i needs only
//   R0_i = sum_j y_ji,   R1_i = sum_j y_ji E[theta_j],   n_iq = N_q - sum_{j missing i} post_jq,
// because sum_q r_iq z_iq = a_i (R1_i - b_i R0_i). This is the same EM on the same grid, not an
// approximation: the E-step costs one pass over the positive cells plus J x Q log terms, and the
// M-step reads two numbers per item (and one shared count vector when nothing is missing),
// reused across its Fisher-scoring steps.
//
// Items with a guessing floor (3PL) have log P - log(1 - P) = log(c + e^z) - log(1 - c), not
// linear in the node: their E-step sums the per-node terms over each person's positive and
// missing cells and accumulates the full expected counts r_iq.

import type { IrtItems } from './irt-model.js';
import type { Quadrature } from './quadrature.js';
import type { PackedResponses } from './responses.js';

/** Work arrays and results of one E-step. */
export interface EStepState {
  Q: number;
  /** True for the logistic route (every c = 0). */
  logistic: boolean;
  /** Whether any cell is missing. */
  hasMissing: boolean;
  logw: Float64Array;
  /** log P - log(1 - P) per item and node (the 3PL route only). */
  d: Float64Array;
  /** log(1 - P) per item and node (the 3PL route, or where cells are missing). */
  l1m: Float64Array;
  base: Float64Array;
  /** Expected correct answers per item and node (the 3PL route only). */
  r: Float64Array;
  /** Expected persons per item and node who did not answer it. */
  miss: Float64Array;
  /** Expected persons per node. */
  Nq: Float64Array;
  /** Sum of the answers per item (R0) and of the answers times the posterior mean ability (R1). */
  R0: Float64Array;
  R1: Float64Array;
  /** Posterior weights, person-major (N x Q). */
  post: Float64Array;
  ll: Float64Array;
  /** The panel's posterior ability mean and SD. */
  moments: [number, number];
}

/** Work arrays for an EM on `packed` whose items are logistic (every c = 0) or not. */
export function newEStepState(packed: PackedResponses, quad: Quadrature, logistic: boolean): EStepState {
  const J = packed.nItems;
  const N = packed.nPersons;
  const Q = quad.nodes.length;
  const hasMissing = packed.missItem.length > 0;
  const R0 = new Float64Array(J);
  for (let k = 0; k < packed.posItem.length; k++) R0[packed.posItem[k]!]! += packed.posValue[k]!;
  const dense = (on: boolean) => new Float64Array(on ? J * Q : 0);
  return {
    Q,
    logistic,
    hasMissing,
    logw: quad.weights.map(Math.log),
    d: dense(!logistic),
    l1m: dense(!logistic || hasMissing),
    base: new Float64Array(Q),
    r: dense(!logistic),
    miss: dense(hasMissing),
    Nq: new Float64Array(Q),
    R0,
    R1: new Float64Array(J),
    post: new Float64Array(N * Q),
    ll: new Float64Array(Q),
    moments: [0, 1],
  };
}

/** E-step at the given items on equally spaced nodes (normalQuadrature's); returns the marginal log likelihood. Fills the state's counts, posteriors and moments. */
export function eStep(packed: PackedResponses, items: IrtItems, quad: Quadrature, s: EStepState): number {
  const { Q, base, l1m, logw } = s;
  const nodes = quad.nodes;
  const J = packed.nItems;
  const keepL1m = l1m.length > 0;
  base.set(logw);
  const x0 = nodes[0]!;
  const xQ = nodes[Q - 1]!;
  const ratioStep = (xQ - x0) / (Q - 1);
  for (let i = 0; i < J; i++) {
    const a = items.a[i]!;
    const b = items.b[i]!;
    const c = items.c[i]!;
    const lc = c > 0 ? Math.log1p(-c) : 0;
    const o = i * Q;
    // exp(-z_q) as a geometric sequence over the equally spaced nodes (see item-quad-stats.ts).
    const geometric = a * (Math.abs(b) + Math.max(-x0, xQ)) < 600;
    let E = geometric ? Math.exp(-a * (x0 - b)) : 0;
    const ratio = geometric ? Math.exp(-a * ratioStep) : 0;
    for (let q = 0; q < Q; q++, E *= ratio) {
      const z = a * (nodes[q]! - b);
      const e = geometric ? (z > 0 ? E : 1 / E) : Math.exp(z > 0 ? -z : z);
      // log(1 - P) = log(1 - c) - softplus(z), softplus(z) = max(z, 0) + log1p(exp(-|z|)).
      const lm = lc - (Math.max(z, 0) + Math.log1p(e));
      if (keepL1m) l1m[o + q] = lm;
      if (!s.logistic) s.d[o + q] = c > 0 ? Math.log(c + (1 - c) / (1 + Math.exp(-z))) - lm : z;
      base[q]! += lm;
    }
  }
  return s.logistic ? logisticPass(packed, items, nodes, s) : generalPass(packed, nodes, s);
}

/** Normalise a person's log likelihood row `ll` into post[po..po + Q); returns log of its sum and adds to Nq. */
function normaliseRow(ll: Float64Array, post: Float64Array, po: number, Nq: Float64Array, Q: number): number {
  let max = Number.NEGATIVE_INFINITY;
  for (let q = 0; q < Q; q++) if (ll[q]! > max) max = ll[q]!;
  let sum = 0;
  for (let q = 0; q < Q; q++) {
    const e = Math.exp(ll[q]! - max);
    post[po + q] = e;
    sum += e;
  }
  const inv = 1 / sum;
  for (let q = 0; q < Q; q++) {
    const w = post[po + q]! * inv;
    post[po + q] = w;
    Nq[q]! += w;
  }
  return max + Math.log(sum);
}

function logisticPass(packed: PackedResponses, items: IrtItems, nodes: Float64Array, s: EStepState): number {
  const { Q, base, l1m, miss, Nq, post, ll, R1 } = s;
  const { posStart, posItem, posValue, missStart, missItem } = packed;
  const A = items.a;
  const B = items.b;
  R1.fill(0);
  miss.fill(0);
  Nq.fill(0);
  let total = 0;
  let m1 = 0;
  let m2 = 0;
  for (let j = 0; j < packed.nPersons; j++) {
    const p0 = posStart[j]!;
    const p1 = posStart[j + 1]!;
    let s1 = 0;
    let s0 = 0;
    for (let k = p0; k < p1; k++) {
      const i = posItem[k]!;
      const ya = posValue[k]! * A[i]!;
      s1 += ya;
      s0 += ya * B[i]!;
    }
    for (let q = 0; q < Q; q++) ll[q] = base[q]! + nodes[q]! * s1 - s0;
    const m0 = missStart[j]!;
    const mEnd = missStart[j + 1]!;
    for (let k = m0; k < mEnd; k++) {
      const o = missItem[k]! * Q;
      for (let q = 0; q < Q; q++) ll[q]! -= l1m[o + q]!;
    }
    const po = j * Q;
    total += normaliseRow(ll, post, po, Nq, Q);
    let mean = 0;
    let sq = 0;
    for (let q = 0; q < Q; q++) {
      const w = post[po + q]!;
      mean += w * nodes[q]!;
      sq += w * nodes[q]! * nodes[q]!;
    }
    m1 += mean;
    m2 += sq;
    for (let k = p0; k < p1; k++) R1[posItem[k]!]! += posValue[k]! * mean;
    for (let k = m0; k < mEnd; k++) {
      const o = missItem[k]! * Q;
      for (let q = 0; q < Q; q++) miss[o + q]! += post[po + q]!;
    }
  }
  setMoments(s, m1, m2, packed.nPersons);
  return total;
}

function generalPass(packed: PackedResponses, nodes: Float64Array, s: EStepState): number {
  const { Q, d, l1m, base, r, miss, Nq, post, ll, R1 } = s;
  R1.fill(0);
  r.fill(0);
  miss.fill(0);
  Nq.fill(0);
  let total = 0;
  let m1 = 0;
  let m2 = 0;
  const { posStart, posItem, posValue, missStart, missItem } = packed;
  for (let j = 0; j < packed.nPersons; j++) {
    ll.set(base);
    const p0 = posStart[j]!;
    const p1 = posStart[j + 1]!;
    const m0 = missStart[j]!;
    const mEnd = missStart[j + 1]!;
    for (let k = p0; k < p1; k++) {
      const o = posItem[k]! * Q;
      const y = posValue[k]!;
      for (let q = 0; q < Q; q++) ll[q]! += y * d[o + q]!;
    }
    for (let k = m0; k < mEnd; k++) {
      const o = missItem[k]! * Q;
      for (let q = 0; q < Q; q++) ll[q]! -= l1m[o + q]!;
    }
    const po = j * Q;
    total += normaliseRow(ll, post, po, Nq, Q);
    let mean = 0;
    for (let q = 0; q < Q; q++) {
      const w = post[po + q]!;
      mean += w * nodes[q]!;
      m2 += w * nodes[q]! * nodes[q]!;
    }
    m1 += mean;
    for (let k = p0; k < p1; k++) {
      const o = posItem[k]! * Q;
      const y = posValue[k]!;
      R1[posItem[k]!]! += y * mean;
      for (let q = 0; q < Q; q++) r[o + q]! += y * post[po + q]!;
    }
    for (let k = m0; k < mEnd; k++) {
      const o = missItem[k]! * Q;
      for (let q = 0; q < Q; q++) miss[o + q]! += post[po + q]!;
    }
  }
  setMoments(s, m1, m2, packed.nPersons);
  return total;
}

function setMoments(s: EStepState, m1: number, m2: number, N: number): void {
  const mean = m1 / N;
  s.moments = [mean, Math.sqrt(Math.max(1e-12, m2 / N - mean * mean))];
}
