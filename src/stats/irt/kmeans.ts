// Weighted k-means (Lloyd's algorithm) with k-means++ seeding from a seeded generator, for the
// anchor points of tiny benchmarks: points are items, either their correctness vectors across
// the panel or their IRT parameters. The anchors are the points nearest each centre, as in
// tinyBenchmarks (Polo et al. 2024), and each carries its cluster's share of the total weight.

import { createRng } from '../../core/random.js';

export interface KMeansResult {
  /** Cluster of each point. */
  labels: Int32Array;
  /** k x d centres, row-major. */
  centers: Float64Array;
  /** Index of the point nearest each centre (distinct points). */
  anchors: Int32Array;
  /** Share of the total weight in each cluster (sums to 1). */
  anchorWeights: Float64Array;
  iterations: number;
}

function dist2(x: Float64Array, i: number, c: Float64Array, k: number, d: number): number {
  let s = 0;
  const oi = i * d;
  const ok = k * d;
  for (let t = 0; t < d; t++) {
    const v = x[oi + t]! - c[ok + t]!;
    s += v * v;
  }
  return s;
}

/**
 * Cluster n points of dimension d (row-major `points`) into k groups. `weights` (default all 1)
 * weigh points in the centres and in the anchor weights.
 */
export function kMeans(
  points: Float64Array,
  n: number,
  d: number,
  k: number,
  opts: { seed: number; weights?: ArrayLike<number>; maxIterations?: number },
): KMeansResult {
  if (points.length !== n * d) throw new Error(`kMeans: ${points.length} values for ${n} points of dimension ${d}`);
  if (!(k >= 1 && k <= n)) throw new Error(`kMeans: k = ${k} must be between 1 and the number of points (${n})`);
  const rng = createRng(`kmeans:${opts.seed}`);
  const w = opts.weights ? Float64Array.from(opts.weights) : new Float64Array(n).fill(1);
  const centers = new Float64Array(k * d);
  // k-means++: each next centre drawn with probability proportional to weight x squared distance.
  const nearest = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  let first = 0;
  {
    let total = 0;
    for (let i = 0; i < n; i++) total += w[i]!;
    let u = rng.next() * total;
    for (let i = 0; i < n; i++) {
      u -= w[i]!;
      if (u <= 0) {
        first = i;
        break;
      }
    }
  }
  centers.set(points.subarray(first * d, first * d + d), 0);
  for (let c = 1; c < k; c++) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      const dd = dist2(points, i, centers, c - 1, d);
      if (dd < nearest[i]!) nearest[i] = dd;
      total += w[i]! * nearest[i]!;
    }
    let pick = -1;
    if (total > 0) {
      let u = rng.next() * total;
      for (let i = 0; i < n; i++) {
        u -= w[i]! * nearest[i]!;
        if (u <= 0 && w[i]! * nearest[i]! > 0) {
          pick = i;
          break;
        }
      }
    }
    if (pick < 0) pick = rng.int(n); // all points coincide with centres already
    centers.set(points.subarray(pick * d, pick * d + d), c * d);
  }
  const labels = new Int32Array(n).fill(-1);
  const sums = new Float64Array(k * d);
  const mass = new Float64Array(k);
  const maxIter = opts.maxIterations ?? 100;
  let iterations = 0;
  for (; iterations < maxIter; iterations++) {
    let moved = 0;
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestD = Number.POSITIVE_INFINITY;
      for (let c = 0; c < k; c++) {
        const dd = dist2(points, i, centers, c, d);
        if (dd < bestD) {
          bestD = dd;
          best = c;
        }
      }
      if (labels[i] !== best) {
        labels[i] = best;
        moved++;
      }
    }
    if (moved === 0) break;
    sums.fill(0);
    mass.fill(0);
    for (let i = 0; i < n; i++) {
      const c = labels[i]!;
      mass[c]! += w[i]!;
      for (let t = 0; t < d; t++) sums[c * d + t]! += w[i]! * points[i * d + t]!;
    }
    for (let c = 0; c < k; c++) {
      if (mass[c]! > 0) for (let t = 0; t < d; t++) centers[c * d + t] = sums[c * d + t]! / mass[c]!;
    }
  }
  // Anchors: the nearest point to each centre, distinct, searched within the cluster first.
  const anchors = new Int32Array(k).fill(-1);
  const taken = new Uint8Array(n);
  const anchorWeights = new Float64Array(k);
  let totalW = 0;
  for (let i = 0; i < n; i++) {
    anchorWeights[labels[i]!]! += w[i]!;
    totalW += w[i]!;
  }
  for (let c = 0; c < k; c++) {
    let best = -1;
    let bestD = Number.POSITIVE_INFINITY;
    for (let pass = 0; pass < 2 && best < 0; pass++) {
      for (let i = 0; i < n; i++) {
        if (taken[i] || (pass === 0 && labels[i] !== c)) continue;
        const dd = dist2(points, i, centers, c, d);
        if (dd < bestD) {
          bestD = dd;
          best = i;
        }
      }
    }
    anchors[c] = best;
    taken[best] = 1;
    anchorWeights[c]! /= totalW;
  }
  return { labels, centers, anchors, anchorWeights, iterations };
}
