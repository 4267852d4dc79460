// How many dimensions: cross-validated likelihood on held-out responses. A seeded share of the
// observed cells is blanked; an M2PL with 1, 2, ... dimensions is fitted on the rest; each
// person's posterior from their remaining answers predicts their blanked cells, and the mean
// log predictive probability per held-out cell scores the fit:
//   log P(y_ij | rest) = log sum_q post_j(q) P_i(theta_q)^y (1 - P_i(theta_q))^(1 - y).
// The chosen k is the smallest whose score is within `tolerance` (default 0.001 nats per cell)
// of the best, so that a dimension has to earn its place on data it was not fitted to.
// Also: EAP abilities of every person under a fit.

import { createRng } from '../../core/random.js';
import { calibrateMirt, type MirtCalibration, type MirtCalibrationOptions } from './mirt-calibrate.js';
import { mirtAccuracyModel, mirtPersonPosterior } from './mirt-accuracy.js';
import { type MirtItems, mirtNodeLogLik, mirtNodeProbabilities, mirtPosterior, mirtPosteriorMoments } from './mirt-model.js';
import type { IrtResponses } from './responses.js';

export interface MirtDimensionChoice {
  /** Per k tried: mean held-out log predictive probability per cell. */
  scores: Array<{ k: number; heldOutLogLik: number; converged: boolean }>;
  k: number;
  heldOutCells: number;
}

/** EAP abilities (N x k) and posterior SDs (N x k) of every person, on nodes adapted to each (mirt-accuracy.ts). */
export function mirtAbilities(items: MirtItems, r: IrtResponses): { mean: Float64Array; sd: Float64Array } {
  const model = mirtAccuracyModel(items, []);
  const k = items.k;
  const mean = new Float64Array(r.nPersons * k);
  const sd = new Float64Array(r.nPersons * k);
  for (let j = 0; j < r.nPersons; j++) {
    const y = r.values.subarray(j * r.nItems, (j + 1) * r.nItems);
    const answered: number[] = [];
    for (let i = 0; i < r.nItems; i++) if (!Number.isNaN(y[i]!)) answered.push(i);
    const post = mirtPersonPosterior(model, y, answered);
    const m = mirtPosteriorMoments({ k, nodes: post.nodes, weights: post.weights }, post.weights);
    for (let d = 0; d < k; d++) {
      mean[j * k + d] = m.mean[d]!;
      sd[j * k + d] = Math.sqrt(m.cov[d * k + d]!);
    }
  }
  return { mean, sd };
}

/** Mean log predictive probability of the `held` cells (person * nItems + item) from each person's other answers. */
export function mirtHeldOutLogLik(fit: MirtCalibration, train: IrtResponses, full: IrtResponses, held: readonly number[]): number {
  const { nodes } = fit;
  const Q = nodes.weights.length;
  const probs = mirtNodeProbabilities(fit.items, nodes);
  const byPerson = new Map<number, number[]>();
  for (const c of held) {
    const j = Math.floor(c / full.nItems);
    if (!byPerson.has(j)) byPerson.set(j, []);
    byPerson.get(j)!.push(c % full.nItems);
  }
  let total = 0;
  for (const [j, cells] of byPerson) {
    const post = mirtPosterior(nodes, mirtNodeLogLik(probs, Q, train.values.subarray(j * train.nItems, (j + 1) * train.nItems))).weights;
    for (const i of cells) {
      const y = full.values[j * full.nItems + i]!;
      let p = 0;
      for (let q = 0; q < Q; q++) {
        const pi = probs[i * Q + q]!;
        p += post[q]! * (y * pi + (1 - y) * (1 - pi));
      }
      total += Math.log(Math.max(p, 1e-300));
    }
  }
  return total / held.length;
}

/** Choose the number of dimensions (1..maxK) by held-out likelihood (see the file comment). */
export function chooseMirtDimensions(
  r: IrtResponses,
  opts: { maxK?: number; holdOut?: number; seed?: number; tolerance?: number } & Omit<
    MirtCalibrationOptions,
    'k' | 'pattern' | 'nodes' | 'start'
  > = {},
): MirtDimensionChoice {
  const { maxK = 3, holdOut = 0.1, seed = 1, tolerance = 0.001, ...fitOpts } = opts;
  const rng = createRng(`mirt-dimensions:${seed}`);
  const held: number[] = [];
  const train = { nPersons: r.nPersons, nItems: r.nItems, values: Float64Array.from(r.values) };
  for (let c = 0; c < r.values.length; c++)
    if (!Number.isNaN(r.values[c]!) && rng.next() < holdOut) {
      held.push(c);
      train.values[c] = Number.NaN;
    }
  if (held.length === 0) throw new Error('chooseMirtDimensions: no cell was held out (too few answers)');
  const scores: MirtDimensionChoice['scores'] = [];
  for (let k = 1; k <= maxK; k++) {
    const fit = calibrateMirt(train, { ...fitOpts, k, seed });
    scores.push({ k, heldOutLogLik: mirtHeldOutLogLik(fit, train, r, held), converged: fit.converged });
  }
  const best = Math.max(...scores.map((s) => s.heldOutLogLik));
  const k = scores.find((s) => s.heldOutLogLik >= best - tolerance)!.k;
  return { scores, k, heldOutCells: held.length };
}
