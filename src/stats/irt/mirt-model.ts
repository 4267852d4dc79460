// The compensatory multidimensional 2PL (M2PL) on k latent dimensions:
//   P(correct | theta) = 1 / (1 + exp(-(a_i . theta + d_i))),   theta ~ N(0, I_k)
// a_i: the item's slopes (loadings), d_i: its intercept. A loading pattern (mask) fixes some
// slopes at zero (confirmatory: each item on the general dimension and its category's). The
// latent integrals run over a node set: a product grid of equally spaced nodes with normal
// weights for k <= 3 (the rectangular rule of the one-dimensional EM), or, for larger k, a
// randomly shifted Halton set mapped through the normal quantile, with equal weights
// (quasi-Monte-Carlo; the shift comes from a seed).

import { createRng } from '../../core/random.js';
import { normalQuantile } from '../distributions.js';

/** Parameters of J items on k dimensions; slopes and mask are item-major (J x k). */
export interface MirtItems {
  k: number;
  slopes: Float64Array;
  intercepts: Float64Array;
  /** 1 where the slope is free, 0 where it is fixed at zero. */
  mask: Uint8Array;
}

/** Nodes (Q x k, node-major) and their prior weights (summing to 1). */
export interface MirtNodes {
  k: number;
  nodes: Float64Array;
  weights: Float64Array;
}

/** The largest k for which product grids are used; above it, quasi-Monte-Carlo nodes. */
export const MIRT_MAX_GRID_DIMS = 3;

/** Item parameters from plain rows of slopes and intercepts; mask defaults to all free. */
export function mirtItems(
  slopes: ReadonlyArray<ArrayLike<number>>,
  intercepts: ArrayLike<number>,
  mask?: ReadonlyArray<ArrayLike<number>>,
): MirtItems {
  const J = slopes.length;
  if (intercepts.length !== J) throw new Error(`mirtItems: ${J} slope rows, ${intercepts.length} intercepts`);
  const k = J > 0 ? slopes[0]!.length : 1;
  const out: MirtItems = {
    k,
    slopes: new Float64Array(J * k),
    intercepts: Float64Array.from(intercepts),
    mask: new Uint8Array(J * k).fill(1),
  };
  for (let i = 0; i < J; i++) {
    if (slopes[i]!.length !== k) throw new Error(`mirtItems: item ${i} has ${slopes[i]!.length} slopes, item 0 has ${k}`);
    for (let d = 0; d < k; d++) {
      out.slopes[i * k + d] = slopes[i]![d]!;
      if (mask) out.mask[i * k + d] = mask[i]![d]! ? 1 : 0;
    }
  }
  return out;
}

/** Logit a_i . theta + d_i of item i at one ability vector (theta[off .. off + k)). */
export function mirtLogit(items: MirtItems, i: number, theta: ArrayLike<number>, off = 0): number {
  const k = items.k;
  let z = items.intercepts[i]!;
  for (let d = 0; d < k; d++) z += items.slopes[i * k + d]! * theta[off + d]!;
  return z;
}

/** Probability of a correct answer to item i at theta. */
export function mirtProbability(items: MirtItems, i: number, theta: ArrayLike<number>, off = 0): number {
  return 1 / (1 + Math.exp(-mirtLogit(items, i, theta, off)));
}

/** Fisher information matrix (k x k, row-major) of item i at theta: P (1 - P) a a^T. */
export function mirtItemInformation(items: MirtItems, i: number, theta: ArrayLike<number>): Float64Array {
  const k = items.k;
  const p = mirtProbability(items, i, theta);
  const w = p * (1 - p);
  const out = new Float64Array(k * k);
  for (let r = 0; r < k; r++) for (let c = 0; c < k; c++) out[r * k + c] = w * items.slopes[i * k + r]! * items.slopes[i * k + c]!;
  return out;
}

/** Probabilities P[i * Q + q] of every item at every node. */
export function mirtNodeProbabilities(items: MirtItems, nodes: MirtNodes): Float64Array {
  const J = items.intercepts.length;
  const Q = nodes.weights.length;
  const out = new Float64Array(J * Q);
  for (let i = 0; i < J; i++)
    for (let q = 0; q < Q; q++) out[i * Q + q] = 1 / (1 + Math.exp(-mirtLogit(items, i, nodes.nodes, q * items.k)));
  return out;
}

/** Product grid: `points` equally spaced nodes per dimension on [-range, range], N(0, I) weights. */
export function productGrid(k: number, points: number, range: number): MirtNodes {
  if (!(k >= 1 && Number.isInteger(k))) throw new Error(`productGrid: k must be a positive integer, got ${k}`);
  if (!(points >= 3)) throw new Error(`productGrid: need at least 3 points, got ${points}`);
  const Q = points ** k;
  const nodes = new Float64Array(Q * k);
  const weights = new Float64Array(Q);
  let total = 0;
  for (let q = 0; q < Q; q++) {
    let rest = q;
    let r2 = 0;
    for (let d = k - 1; d >= 0; d--) {
      const x = -range + (2 * range * (rest % points)) / (points - 1);
      rest = Math.floor(rest / points);
      nodes[q * k + d] = x;
      r2 += x * x;
    }
    weights[q] = Math.exp(-0.5 * r2);
    total += weights[q]!;
  }
  for (let q = 0; q < Q; q++) weights[q]! /= total;
  return { k, nodes, weights };
}

const PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71];

function radicalInverse(n: number, base: number): number {
  let f = 1 / base;
  let x = 0;
  while (n > 0) {
    x += f * (n % base);
    n = Math.floor(n / base);
    f /= base;
  }
  return x;
}

/** `count` quasi-Monte-Carlo N(0, I_k) nodes: a Halton set with a seeded random shift, equal weights. */
export function qmcNodes(k: number, count: number, seed: number): MirtNodes {
  if (k > PRIMES.length) throw new Error(`qmcNodes: at most ${PRIMES.length} dimensions, got ${k}`);
  const rng = createRng(`mirt-qmc:${seed}`);
  const shift = Array.from({ length: k }, () => rng.next());
  const nodes = new Float64Array(count * k);
  for (let q = 0; q < count; q++)
    for (let d = 0; d < k; d++) {
      const u = (radicalInverse(q + 1, PRIMES[d]!) + shift[d]!) % 1;
      nodes[q * k + d] = normalQuantile(Math.min(1 - 1e-12, Math.max(1e-12, u)));
    }
  return { k, nodes, weights: new Float64Array(count).fill(1 / count) };
}

/**
 * The default node set for k dimensions: for estimation (`fine`) 121, 41 x 41 or 21^3 grid
 * nodes; for calibration 41, 21 x 21 or 11^3; above 3 dimensions 2,000 (fine: 4,000)
 * quasi-Monte-Carlo nodes.
 */
export function defaultMirtNodes(k: number, opts: { fine?: boolean; seed?: number } = {}): MirtNodes {
  const fine = opts.fine ?? false;
  if (k === 1) return fine ? productGrid(1, 121, 6) : productGrid(1, 41, 6);
  if (k === 2) return fine ? productGrid(2, 41, 5) : productGrid(2, 21, 5);
  if (k === 3) return fine ? productGrid(3, 21, 4.5) : productGrid(3, 11, 4.5);
  return qmcNodes(k, fine ? 4000 : 2000, opts.seed ?? 1);
}

/**
 * Log likelihood of one response vector (NaN = not answered) at every node. `probs` are
 * mirtNodeProbabilities; `indices` limits the items (default all).
 */
export function mirtNodeLogLik(probs: Float64Array, Q: number, y: ArrayLike<number>, indices?: ArrayLike<number>): Float64Array {
  const ll = new Float64Array(Q);
  const n = indices ? indices.length : y.length;
  for (let k = 0; k < n; k++) {
    const i = indices ? indices[k]! : k;
    const v = y[i]!;
    if (Number.isNaN(v)) continue;
    const row = i * Q;
    for (let q = 0; q < Q; q++) {
      const p = Math.min(1 - 1e-12, Math.max(1e-12, probs[row + q]!));
      ll[q]! += v * Math.log(p) + (1 - v) * Math.log(1 - p);
    }
  }
  return ll;
}

/** Posterior weights over the nodes from node log likelihoods (prior: the node weights). */
export function mirtPosterior(nodes: MirtNodes, ll: Float64Array): { weights: Float64Array; logMarginal: number } {
  const Q = nodes.weights.length;
  let max = Number.NEGATIVE_INFINITY;
  for (let q = 0; q < Q; q++) if (ll[q]! > max) max = ll[q]!;
  const w = new Float64Array(Q);
  let total = 0;
  for (let q = 0; q < Q; q++) {
    w[q] = nodes.weights[q]! * Math.exp(ll[q]! - max);
    total += w[q]!;
  }
  for (let q = 0; q < Q; q++) w[q]! /= total;
  return { weights: w, logMarginal: max + Math.log(total) };
}

/** Posterior mean vector and covariance (k x k) of theta under node weights. */
export function mirtPosteriorMoments(nodes: MirtNodes, w: ArrayLike<number>): { mean: Float64Array; cov: Float64Array } {
  const k = nodes.k;
  const Q = w.length;
  const mean = new Float64Array(k);
  const cov = new Float64Array(k * k);
  for (let q = 0; q < Q; q++) for (let d = 0; d < k; d++) mean[d]! += w[q]! * nodes.nodes[q * k + d]!;
  for (let q = 0; q < Q; q++)
    for (let r = 0; r < k; r++) {
      const xr = nodes.nodes[q * k + r]! - mean[r]!;
      for (let c = 0; c < k; c++) cov[r * k + c]! += w[q]! * xr * (nodes.nodes[q * k + c]! - mean[c]!);
    }
  return { mean, cov };
}

/** Eigenvalues (descending) and eigenvectors (columns, row-major k x k) of a small symmetric matrix, by Jacobi rotations. */
export function smallSymmetricEigen(m: ArrayLike<number>, k: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(m);
  const v = new Float64Array(k * k);
  for (let d = 0; d < k; d++) v[d * k + d] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < k; p++) for (let q = p + 1; q < k; q++) off += a[p * k + q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < k; p++)
      for (let q = p + 1; q < k; q++) {
        const apq = a[p * k + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * k + q]! - a[p * k + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let r = 0; r < k; r++) {
          const arp = a[r * k + p]!;
          const arq = a[r * k + q]!;
          a[r * k + p] = c * arp - s * arq;
          a[r * k + q] = s * arp + c * arq;
        }
        for (let r = 0; r < k; r++) {
          const apr = a[p * k + r]!;
          const aqr = a[q * k + r]!;
          a[p * k + r] = c * apr - s * aqr;
          a[q * k + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < k; r++) {
          const vrp = v[r * k + p]!;
          const vrq = v[r * k + q]!;
          v[r * k + p] = c * vrp - s * vrq;
          v[r * k + q] = s * vrp + c * vrq;
        }
      }
  }
  const order = Array.from({ length: k }, (_, d) => d).sort((x, y) => a[y * k + y]! - a[x * k + x]!);
  const values = Float64Array.from(order, (d) => a[d * k + d]!);
  const vectors = new Float64Array(k * k);
  order.forEach((src, dst) => {
    for (let r = 0; r < k; r++) vectors[r * k + dst] = v[r * k + src]!;
  });
  return { values, vectors };
}

/** Solve the symmetric positive definite system M x = b (n x n, row-major) by Cholesky; null when not positive definite. */
export function solveSpd(m: ArrayLike<number>, b: ArrayLike<number>, n: number): Float64Array | null {
  const L = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = m[i * n + j]!;
      for (let t = 0; t < j; t++) s -= L[i * n + t]! * L[j * n + t]!;
      if (i === j) {
        if (!(s > 0)) return null;
        L[i * n + i] = Math.sqrt(s);
      } else L[i * n + j] = s / L[j * n + j]!;
    }
  const x = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    let s = x[i]!;
    for (let t = 0; t < i; t++) s -= L[i * n + t]! * x[t]!;
    x[i] = s / L[i * n + i]!;
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i]!;
    for (let t = i + 1; t < n; t++) s -= L[t * n + i]! * x[t]!;
    x[i] = s / L[i * n + i]!;
  }
  return x;
}
