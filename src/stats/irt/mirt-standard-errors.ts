// Standard errors of M2PL item parameters from the observed information of the marginal log
// posterior, one item block at a time (Louis 1982, as item-standard-errors.ts does in one
// dimension): for item i with parameters (a_i, d_i) and x = (theta, 1),
//   I_i = sum_j ( E_post[P (1 - P) x x^T] - Var_post[(y_ij - P) x] ) + prior precision,
// the expectations over person j's posterior (on nodes adapted to it, mirt-accuracy.ts) at the
// estimates. Slopes fixed at zero by a pattern are left out of the block (their SE is NaN).
// Inverting the blocks one by one ignores the covariances between items; for an exploratory
// solution the SEs are those of the reported (rotated) slopes with the rotation taken as fixed,
// so they understate the slopes' uncertainty by whatever the rotation's own is. The intercepts
// do not depend on the rotation.

import { mirtAccuracyModel, mirtPersonPosterior } from './mirt-accuracy.js';
import { type MirtItems, mirtLogit, solveSpd } from './mirt-model.js';
import type { IrtResponses } from './responses.js';

export interface MirtStandardErrors {
  /** J x k, item-major; NaN for fixed slopes. */
  slopes: Float64Array;
  intercepts: Float64Array;
}

/** Per-item standard errors of the slopes and intercepts at the estimates (priors N(0, slopeSd^2), N(0, interceptSd^2)). */
export function mirtItemStandardErrors(
  items: MirtItems,
  responses: IrtResponses,
  opts: { slopeSd: number; interceptSd: number },
): MirtStandardErrors {
  const { k } = items;
  const J = items.intercepts.length;
  if (responses.nItems !== J) throw new Error(`mirtItemStandardErrors: ${responses.nItems} response columns for ${J} items`);
  const m = k + 1;
  // Per item: the running information block (m x m, before the prior).
  const info = new Float64Array(J * m * m);
  const model = mirtAccuracyModel(items, []);
  const x = new Float64Array(m);
  const mean = new Float64Array(m);
  for (let j = 0; j < responses.nPersons; j++) {
    const y = responses.values.subarray(j * J, (j + 1) * J);
    const answered: number[] = [];
    for (let i = 0; i < J; i++) if (!Number.isNaN(y[i]!)) answered.push(i);
    if (answered.length === 0) continue;
    const post = mirtPersonPosterior(model, y, answered);
    const Q = post.weights.length;
    for (const i of answered) {
      const base = i * m * m;
      mean.fill(0);
      for (let q = 0; q < Q; q++) {
        const w = post.weights[q]!;
        if (w < 1e-14) continue;
        const p = 1 / (1 + Math.exp(-mirtLogit(items, i, post.nodes, q * k)));
        const r = y[i]! - p;
        for (let d = 0; d < k; d++) x[d] = post.nodes[q * k + d]!;
        x[k] = 1;
        // E[P (1 - P) x x^T] - E[r^2 x x^T]; the mean of r x is added back below.
        const c = w * (p * (1 - p) - r * r);
        for (let s = 0; s < m; s++) {
          mean[s]! += w * r * x[s]!;
          for (let t = 0; t < m; t++) info[base + s * m + t]! += c * x[s]! * x[t]!;
        }
      }
      for (let s = 0; s < m; s++) for (let t = 0; t < m; t++) info[base + s * m + t]! += mean[s]! * mean[t]!;
    }
  }
  const slopes = new Float64Array(J * k).fill(Number.NaN);
  const intercepts = new Float64Array(J).fill(Number.NaN);
  for (let i = 0; i < J; i++) {
    // The free parameters: the unmasked slopes and the intercept.
    const free: number[] = [];
    for (let d = 0; d < k; d++) if (items.mask[i * k + d]) free.push(d);
    free.push(k);
    const f = free.length;
    const H = new Float64Array(f * f);
    free.forEach((s, r) => {
      free.forEach((t, c) => {
        H[r * f + c] = info[i * m * m + s * m + t]!;
      });
      H[r * f + r]! += 1 / (s === k ? opts.interceptSd : opts.slopeSd) ** 2;
    });
    free.forEach((s, r) => {
      const e = new Float64Array(f);
      e[r] = 1;
      const col = solveSpd(H, e, f);
      const v = col ? col[r]! : Number.NaN;
      const se = v > 0 ? Math.sqrt(v) : Number.NaN;
      if (s === k) intercepts[i] = se;
      else slopes[i * k + s] = se;
    });
  }
  return { slopes, intercepts };
}
