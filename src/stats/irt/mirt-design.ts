// Choosing a tiny set of items for estimating accuracy under an M2PL.
//   information  a greedy c-optimal design for the group's accuracy A(theta) = mean_i P_i(theta):
//                at each of the calibration abilities theta_m (the panel's EAPs), the
//                large-sample variance of the estimated accuracy is g_m^T I_m^-1 g_m, with g_m
//                the gradient of A at theta_m and I_m = I + sum over chosen items of
//                P (1 - P) a a^T (the prior's information plus the items'); each step adds the
//                item that lowers the sum over m most (a Sherman-Morrison update per m). Unlike
//                D-optimality (log det I) it spends items on the directions the accuracy
//                depends on, weighted as the panel's abilities are spread over both or all
//                dimensions.
//   profiles     k-means on the items' predicted-correctness profiles over the calibration
//                abilities (the tinyBenchmarks IRT anchors on every dimension at once): items
//                alike on all dimensions share a stratum; the anchor is the item nearest each
//                centre.
// Anchor weights, for the anchor and gp-IRT estimators: every item of the group goes to the
// chosen item whose profile is nearest (mean squared difference of P over the calibration
// abilities), so the anchor estimator is a mean stratified on all dimensions.

import { kMeans } from './kmeans.js';
import { type MirtItems, mirtLogit } from './mirt-model.js';

/** P of each member (rows) at each ability (columns). */
function profiles(items: MirtItems, members: readonly number[], abilities: Float64Array): Float64Array {
  const k = items.k;
  const M = abilities.length / k;
  const out = new Float64Array(members.length * M);
  members.forEach((i, r) => {
    for (let m = 0; m < M; m++) out[r * M + m] = 1 / (1 + Math.exp(-mirtLogit(items, i, abilities, m * k)));
  });
  return out;
}

/** Share of the members nearest (in profile) each chosen item. */
function nearestShares(prof: Float64Array, M: number, n: number, chosen: readonly number[]): Float64Array {
  const counts = new Float64Array(chosen.length);
  for (let r = 0; r < n; r++) {
    let best = 0;
    let bestD = Number.POSITIVE_INFINITY;
    chosen.forEach((c, t) => {
      let d = 0;
      for (let m = 0; m < M; m++) d += (prof[r * M + m]! - prof[c * M + m]!) ** 2;
      if (d < bestD) {
        bestD = d;
        best = t;
      }
    });
    counts[best]!++;
  }
  return counts.map((c) => c / n);
}

/**
 * Choose `count` of the members (item indices) for estimating their mean accuracy; `abilities`
 * are the calibration abilities (M x k, ability-major). Returns the chosen items and their anchor
 * weights (summing to 1).
 */
export function selectMirtItems(
  items: MirtItems,
  members: readonly number[],
  count: number,
  abilities: Float64Array,
  opts: { method: 'information' | 'profiles'; seed?: number },
): Array<{ item: number; weight: number }> {
  const k = items.k;
  const M = abilities.length / k;
  const n = members.length;
  if (count >= n) return members.map((item) => ({ item, weight: 1 / n }));
  if (count <= 0) return [];
  const prof = profiles(items, members, abilities);
  let chosen: number[];
  if (opts.method === 'profiles') {
    const km = kMeans(prof, n, M, count, { seed: opts.seed ?? 1 });
    chosen = [...new Set(Array.from(km.anchors))];
  } else {
    // Gradients g_m of the members' mean accuracy, and each member's slopes.
    const g = new Float64Array(M * k);
    for (let r = 0; r < n; r++)
      for (let m = 0; m < M; m++) {
        const p = prof[r * M + m]!;
        for (let d = 0; d < k; d++) g[m * k + d]! += (p * (1 - p) * items.slopes[members[r]! * k + d]!) / n;
      }
    const inv = new Float64Array(M * k * k);
    for (let m = 0; m < M; m++) for (let d = 0; d < k; d++) inv[m * k * k + d * k + d] = 1;
    const used = new Uint8Array(n);
    chosen = [];
    const Ia = new Float64Array(k);
    for (let step = 0; step < count; step++) {
      let best = -1;
      let bestGain = Number.NEGATIVE_INFINITY;
      for (let r = 0; r < n; r++) {
        if (used[r]) continue;
        const i = members[r]!;
        let gain = 0;
        for (let m = 0; m < M; m++) {
          const p = prof[r * M + m]!;
          const w = p * (1 - p);
          const base = m * k * k;
          let gIa = 0;
          let aIa = 0;
          for (let s = 0; s < k; s++) {
            let t1 = 0;
            for (let t = 0; t < k; t++) t1 += inv[base + s * k + t]! * items.slopes[i * k + t]!;
            gIa += g[m * k + s]! * t1;
            aIa += items.slopes[i * k + s]! * t1;
          }
          gain += (w * gIa * gIa) / (1 + w * aIa);
        }
        if (gain > bestGain) {
          bestGain = gain;
          best = r;
        }
      }
      used[best] = 1;
      chosen.push(best);
      const i = members[best]!;
      for (let m = 0; m < M; m++) {
        const p = prof[best * M + m]!;
        const w = p * (1 - p);
        const base = m * k * k;
        let aIa = 0;
        for (let s = 0; s < k; s++) {
          let t1 = 0;
          for (let t = 0; t < k; t++) t1 += inv[base + s * k + t]! * items.slopes[i * k + t]!;
          Ia[s] = t1;
          aIa += items.slopes[i * k + s]! * t1;
        }
        const f = w / (1 + w * aIa);
        for (let s = 0; s < k; s++) for (let t = 0; t < k; t++) inv[base + s * k + t]! -= f * Ia[s]! * Ia[t]!;
      }
    }
  }
  const shares = nearestShares(prof, M, n, chosen);
  return chosen.map((r, t) => ({ item: members[r]!, weight: shares[t]! }));
}
