// Calibration of the compensatory M2PL (mirt-model.ts) by the Bock-Aitkin EM over a node set.
//   E-step: each person's posterior over the nodes; expected counts r[i,q] (correct) and
//     n[i,q] (observed). As in the one-dimensional EM a person costs (positive + missing cells)
//     x nodes: the node log likelihood starts from sum_i log(1 - P_iq) over all items.
//   M-step: per item, Newton steps on the expected complete-data log posterior in its free
//     slopes and intercept (normal priors: slopes N(0, slopeSd^2), intercept N(0, interceptSd^2)).
//   Scale: after each M-step the items are re-expressed so that the panel's posterior ability
//     distribution is N(0, I) again (parameter expansion, as in calibrate.ts): exploratory fits
//     take the mean and the Cholesky factor of the covariance, confirmatory ones (a pattern
//     with fixed zeros) the mean and the per-dimension SDs, so the zeros stay zero.
// Identification: theta ~ N(0, I_k). An exploratory fit is unique up to an orthogonal rotation;
// it is reported in principal axes (the slope matrix A rotated by the eigenvectors of A^T A,
// dimensions in decreasing order of their sum of squared slopes, each signed so its slopes sum
// to a positive number), so dimension 1 is the dominant (general) one. A confirmatory fit keeps
// the pattern's dimensions, each signed the same way.
// Limits: product grids for k <= 3 (41, 21^2, 11^3 nodes); above that 2,000 seeded
// quasi-Monte-Carlo nodes, whose integration error grows with k (mirt-model.ts).

import { createRng } from '../../core/random.js';
import { defaultMirtNodes, type MirtItems, type MirtNodes, smallSymmetricEigen, solveSpd } from './mirt-model.js';
import { softplus } from './irt-model.js';
import { checkResponses, type IrtResponses, packResponses, type PackedResponses } from './responses.js';

export interface MirtCalibrationOptions {
  /** Number of latent dimensions. */
  k: number;
  /** Loading pattern (J x k, item-major, 1 = free): confirmatory; default all free (exploratory). */
  pattern?: Uint8Array;
  /** Node set (default defaultMirtNodes(k)). */
  nodes?: MirtNodes;
  /** SD of the normal priors on slopes (default 1.5) and intercepts (default 3). */
  slopeSd?: number;
  interceptSd?: number;
  /** Stop when no parameter moves by more than this in an iteration (default 1e-3). */
  tolerance?: number;
  maxIterations?: number;
  start?: MirtItems;
  /** Seed of the quasi-Monte-Carlo nodes (k > 3). */
  seed?: number;
}

export interface MirtCalibration {
  items: MirtItems;
  nodes: MirtNodes;
  /** 'principal-axes' (exploratory) or 'pattern' (confirmatory). */
  rotation: 'principal-axes' | 'pattern';
  iterations: number;
  converged: boolean;
  logLikelihood: number;
}

interface EStep {
  r: Float64Array;
  n: Float64Array;
  total: Float64Array;
  logLik: number;
}

function eStep(items: MirtItems, nodes: MirtNodes, packed: PackedResponses): EStep {
  const { k } = items;
  const J = packed.nItems;
  const Q = nodes.weights.length;
  const G = new Float64Array(J * Q);
  const S = new Float64Array(J * Q);
  const base = new Float64Array(Q);
  for (let i = 0; i < J; i++)
    for (let q = 0; q < Q; q++) {
      let z = items.intercepts[i]!;
      for (let d = 0; d < k; d++) z += items.slopes[i * k + d]! * nodes.nodes[q * k + d]!;
      G[i * Q + q] = z;
      const s = softplus(z);
      S[i * Q + q] = s;
      base[q]! -= s;
    }
  const logW = nodes.weights.map((w) => Math.log(w));
  const r = new Float64Array(J * Q);
  const n = new Float64Array(J * Q);
  const total = new Float64Array(Q);
  const ll = new Float64Array(Q);
  let logLik = 0;
  for (let j = 0; j < packed.nPersons; j++) {
    ll.set(base);
    for (let p = packed.posStart[j]!; p < packed.posStart[j + 1]!; p++) {
      const row = packed.posItem[p]! * Q;
      const v = packed.posValue[p]!;
      for (let q = 0; q < Q; q++) ll[q]! += v * G[row + q]!;
    }
    for (let m = packed.missStart[j]!; m < packed.missStart[j + 1]!; m++) {
      const row = packed.missItem[m]! * Q;
      for (let q = 0; q < Q; q++) ll[q]! += S[row + q]!;
    }
    let max = Number.NEGATIVE_INFINITY;
    for (let q = 0; q < Q; q++) {
      ll[q]! += logW[q]!;
      if (ll[q]! > max) max = ll[q]!;
    }
    let sum = 0;
    for (let q = 0; q < Q; q++) {
      ll[q] = Math.exp(ll[q]! - max);
      sum += ll[q]!;
    }
    logLik += max + Math.log(sum);
    for (let q = 0; q < Q; q++) {
      ll[q]! /= sum;
      total[q]! += ll[q]!;
    }
    for (let p = packed.posStart[j]!; p < packed.posStart[j + 1]!; p++) {
      const row = packed.posItem[p]! * Q;
      const v = packed.posValue[p]!;
      for (let q = 0; q < Q; q++) r[row + q]! += v * ll[q]!;
    }
    for (let m = packed.missStart[j]!; m < packed.missStart[j + 1]!; m++) {
      const row = packed.missItem[m]! * Q;
      for (let q = 0; q < Q; q++) n[row + q]! -= ll[q]!;
    }
  }
  for (let i = 0; i < J; i++) for (let q = 0; q < Q; q++) n[i * Q + q]! += total[q]!;
  return { r, n, total, logLik };
}

/** Newton steps for item i's free slopes and intercept; returns the largest change. */
function mStepItem(items: MirtItems, i: number, nodes: MirtNodes, e: EStep, slopeSd: number, interceptSd: number): number {
  const { k } = items;
  const Q = nodes.weights.length;
  const free: number[] = [];
  for (let d = 0; d < k; d++) if (items.mask[i * k + d]) free.push(d);
  const m = free.length + 1;
  const grad = new Float64Array(m);
  const hess = new Float64Array(m * m);
  const u = new Float64Array(m);
  let change = 0;
  for (let step = 0; step < 2; step++) {
    grad.fill(0);
    hess.fill(0);
    for (let q = 0; q < Q; q++) {
      const nq = e.n[i * Q + q]!;
      if (nq <= 1e-12) continue;
      let z = items.intercepts[i]!;
      for (let d = 0; d < k; d++) z += items.slopes[i * k + d]! * nodes.nodes[q * k + d]!;
      const p = 1 / (1 + Math.exp(-z));
      const res = e.r[i * Q + q]! - nq * p;
      const w = nq * p * (1 - p);
      for (let t = 0; t < free.length; t++) u[t] = nodes.nodes[q * k + free[t]!]!;
      u[m - 1] = 1;
      for (let s = 0; s < m; s++) {
        grad[s]! += res * u[s]!;
        for (let t = 0; t <= s; t++) hess[s * m + t]! += w * u[s]! * u[t]!;
      }
    }
    for (let s = 0; s < m; s++) for (let t = 0; t < s; t++) hess[t * m + s] = hess[s * m + t]!;
    for (let t = 0; t < free.length; t++) {
      grad[t]! -= items.slopes[i * k + free[t]!]! / (slopeSd * slopeSd);
      hess[t * m + t]! += 1 / (slopeSd * slopeSd);
    }
    grad[m - 1]! -= items.intercepts[i]! / (interceptSd * interceptSd);
    hess[(m - 1) * m + m - 1]! += 1 / (interceptSd * interceptSd);
    const delta = solveSpd(hess, grad, m);
    if (!delta) break;
    let norm = 0;
    for (let s = 0; s < m; s++) norm = Math.max(norm, Math.abs(delta[s]!));
    const scale = norm > 1 ? 1 / norm : 1;
    for (let t = 0; t < free.length; t++) items.slopes[i * k + free[t]!]! += scale * delta[t]!;
    items.intercepts[i]! += scale * delta[m - 1]!;
    change = Math.max(change, scale * norm);
    if (scale * norm < 1e-6) break;
  }
  return change;
}

/** Re-express the items so that the posterior ability distribution (moments from the E-step) is N(0, I). */
function standardise(items: MirtItems, nodes: MirtNodes, total: Float64Array, confirmatory: boolean): void {
  const { k } = items;
  const Q = total.length;
  let N = 0;
  for (let q = 0; q < Q; q++) N += total[q]!;
  const mean = new Float64Array(k);
  const cov = new Float64Array(k * k);
  for (let q = 0; q < Q; q++) for (let d = 0; d < k; d++) mean[d]! += (total[q]! * nodes.nodes[q * k + d]!) / N;
  for (let q = 0; q < Q; q++)
    for (let r = 0; r < k; r++)
      for (let c = 0; c < k; c++)
        cov[r * k + c]! += (total[q]! * (nodes.nodes[q * k + r]! - mean[r]!) * (nodes.nodes[q * k + c]! - mean[c]!)) / N;
  // theta_old = mean + L theta_new: slopes a -> L^T a, intercepts d -> d + a . mean.
  const L = new Float64Array(k * k);
  if (confirmatory) for (let d = 0; d < k; d++) L[d * k + d] = Math.sqrt(Math.max(cov[d * k + d]!, 1e-6));
  else
    for (let r = 0; r < k; r++)
      for (let c = 0; c <= r; c++) {
        let s = cov[r * k + c]!;
        for (let t = 0; t < c; t++) s -= L[r * k + t]! * L[c * k + t]!;
        L[r * k + c] = r === c ? Math.sqrt(Math.max(s, 1e-6)) : s / L[c * k + c]!;
      }
  const J = items.intercepts.length;
  const a = new Float64Array(k);
  for (let i = 0; i < J; i++) {
    for (let d = 0; d < k; d++) a[d] = items.slopes[i * k + d]!;
    for (let d = 0; d < k; d++) items.intercepts[i]! += a[d]! * mean[d]!;
    for (let c = 0; c < k; c++) {
      let s = 0;
      for (let r = 0; r < k; r++) s += L[r * k + c]! * a[r]!;
      items.slopes[i * k + c] = items.mask[i * k + c] ? s : 0;
    }
  }
}

/** Start values: slopes from the leading principal components of the answers (exploratory) or 1 / 0.5 (pattern). */
function startValues(r: IrtResponses, k: number, mask: Uint8Array, confirmatory: boolean, seed: number): MirtItems {
  const { nPersons: N, nItems: J, values } = r;
  const mean = new Float64Array(J);
  const sd = new Float64Array(J);
  for (let i = 0; i < J; i++) {
    let s = 0;
    let n = 0;
    for (let j = 0; j < N; j++) {
      const v = values[j * J + i]!;
      if (!Number.isNaN(v)) {
        s += v;
        n++;
      }
    }
    mean[i] = n > 0 ? s / n : 0.5;
    let s2 = 0;
    for (let j = 0; j < N; j++) {
      const v = values[j * J + i]!;
      s2 += Number.isNaN(v) ? 0 : (v - mean[i]!) ** 2;
    }
    sd[i] = Math.sqrt(s2 / Math.max(1, N)) || 1;
  }
  const slopes = new Float64Array(J * k);
  const intercepts = new Float64Array(J);
  if (confirmatory) {
    for (let i = 0; i < J; i++) for (let d = 0; d < k; d++) slopes[i * k + d] = mask[i * k + d] ? (d === 0 ? 1 : 0.5) : 0;
  } else {
    // Subspace iteration for the leading right singular vectors of the centred N x J matrix.
    const x = (j: number, i: number) => {
      const v = values[j * J + i]!;
      return Number.isNaN(v) ? 0 : (v - mean[i]!) / sd[i]!;
    };
    const rng = createRng(`mirt-start:${seed}`);
    let V = Float64Array.from({ length: J * k }, () => rng.next() - 0.5);
    const T = new Float64Array(N * k);
    for (let it = 0; it < 25; it++) {
      T.fill(0);
      for (let j = 0; j < N; j++)
        for (let i = 0; i < J; i++) {
          const xv = x(j, i);
          if (xv !== 0) for (let d = 0; d < k; d++) T[j * k + d]! += xv * V[i * k + d]!;
        }
      const W = new Float64Array(J * k);
      for (let j = 0; j < N; j++)
        for (let i = 0; i < J; i++) {
          const xv = x(j, i);
          if (xv !== 0) for (let d = 0; d < k; d++) W[i * k + d]! += xv * T[j * k + d]!;
        }
      // Gram-Schmidt on the columns.
      for (let d = 0; d < k; d++) {
        for (let e = 0; e < d; e++) {
          let dot = 0;
          for (let i = 0; i < J; i++) dot += W[i * k + d]! * W[i * k + e]!;
          for (let i = 0; i < J; i++) W[i * k + d]! -= dot * W[i * k + e]!;
        }
        let norm = 0;
        for (let i = 0; i < J; i++) norm += W[i * k + d]! ** 2;
        norm = Math.sqrt(norm) || 1;
        for (let i = 0; i < J; i++) W[i * k + d]! /= norm;
      }
      V = W;
    }
    // Component scores, standardised; an item's slopes follow its correlations with them.
    T.fill(0);
    for (let j = 0; j < N; j++) for (let i = 0; i < J; i++) for (let d = 0; d < k; d++) T[j * k + d]! += x(j, i) * V[i * k + d]!;
    for (let d = 0; d < k; d++) {
      let s2 = 0;
      for (let j = 0; j < N; j++) s2 += T[j * k + d]! ** 2;
      const s = Math.sqrt(s2 / N) || 1;
      for (let j = 0; j < N; j++) T[j * k + d]! /= s;
    }
    for (let i = 0; i < J; i++) {
      let r2 = 0;
      const rr = new Float64Array(k);
      for (let d = 0; d < k; d++) {
        let c = 0;
        for (let j = 0; j < N; j++) c += x(j, i) * T[j * k + d]!;
        rr[d] = Math.max(-0.9, Math.min(0.9, c / N));
        r2 += rr[d]! ** 2;
      }
      const f = 1.7 / Math.sqrt(Math.max(0.1, 1 - r2));
      for (let d = 0; d < k; d++) slopes[i * k + d] = mask[i * k + d] ? Math.max(-3, Math.min(3, f * rr[d]!)) : 0;
    }
  }
  for (let i = 0; i < J; i++) {
    const p = Math.min(0.98, Math.max(0.02, mean[i]!));
    let a2 = 0;
    for (let d = 0; d < k; d++) a2 += slopes[i * k + d]! ** 2;
    intercepts[i] = Math.log(p / (1 - p)) * Math.sqrt(1 + (Math.PI / 8) * a2);
  }
  return { k, slopes, intercepts, mask: Uint8Array.from(mask) };
}

/** Principal-axes rotation of an exploratory fit, and the sign rule for every fit (see the file comment). */
function orient(items: MirtItems, rotate: boolean): void {
  const { k } = items;
  const J = items.intercepts.length;
  if (rotate && k > 1) {
    const M = new Float64Array(k * k);
    for (let i = 0; i < J; i++)
      for (let r = 0; r < k; r++) for (let c = 0; c < k; c++) M[r * k + c]! += items.slopes[i * k + r]! * items.slopes[i * k + c]!;
    const { vectors } = smallSymmetricEigen(M, k);
    const a = new Float64Array(k);
    for (let i = 0; i < J; i++) {
      for (let d = 0; d < k; d++) a[d] = items.slopes[i * k + d]!;
      for (let c = 0; c < k; c++) {
        let s = 0;
        for (let r = 0; r < k; r++) s += a[r]! * vectors[r * k + c]!;
        items.slopes[i * k + c] = s;
      }
    }
  }
  for (let d = 0; d < k; d++) {
    let s = 0;
    for (let i = 0; i < J; i++) s += items.slopes[i * k + d]!;
    if (s < 0) for (let i = 0; i < J; i++) items.slopes[i * k + d] = -items.slopes[i * k + d]!;
  }
}

/** Fit an M2PL with k dimensions by EM (see the file comment). */
export function calibrateMirt(responses: IrtResponses, opts: MirtCalibrationOptions): MirtCalibration {
  checkResponses(responses);
  const { k } = opts;
  if (!(Number.isInteger(k) && k >= 1 && k <= 20)) throw new Error(`calibrateMirt: k must be an integer in 1..20, got ${k}`);
  const J = responses.nItems;
  const confirmatory = opts.pattern !== undefined;
  const mask = opts.pattern ?? new Uint8Array(J * k).fill(1);
  if (mask.length !== J * k) throw new Error(`calibrateMirt: the pattern has ${mask.length} cells, expected ${J} items x ${k}`);
  const nodes = opts.nodes ?? defaultMirtNodes(k, { seed: opts.seed });
  if (nodes.k !== k) throw new Error(`calibrateMirt: nodes have ${nodes.k} dimensions, k is ${k}`);
  const packed = packResponses(responses);
  const items = opts.start
    ? { k, slopes: Float64Array.from(opts.start.slopes), intercepts: Float64Array.from(opts.start.intercepts), mask: Uint8Array.from(mask) }
    : startValues(responses, k, mask, confirmatory, opts.seed ?? 1);
  const slopeSd = opts.slopeSd ?? 1.5;
  const interceptSd = opts.interceptSd ?? 3;
  const tol = opts.tolerance ?? 1e-3;
  const maxIt = opts.maxIterations ?? 1000;
  let it = 0;
  let converged = false;
  for (; it < maxIt; it++) {
    const e = eStep(items, nodes, packed);
    const before = Float64Array.from(items.slopes);
    const beforeD = Float64Array.from(items.intercepts);
    for (let i = 0; i < J; i++) mStepItem(items, i, nodes, e, slopeSd, interceptSd);
    standardise(items, nodes, e.total, confirmatory);
    let change = 0;
    for (let t = 0; t < before.length; t++) change = Math.max(change, Math.abs(items.slopes[t]! - before[t]!));
    for (let i = 0; i < J; i++) change = Math.max(change, Math.abs(items.intercepts[i]! - beforeD[i]!));
    if (change < tol) {
      converged = true;
      it++;
      break;
    }
  }
  orient(items, !confirmatory);
  const logLikelihood = eStep(items, nodes, packed).logLik;
  return { items, nodes, rotation: confirmatory ? 'pattern' : 'principal-axes', iterations: it, converged, logLikelihood };
}
