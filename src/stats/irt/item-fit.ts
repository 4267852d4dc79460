// Item fit by the Rasch-tradition mean squares, computed at each person's EAP ability:
//   outfit_i = mean_j z_ij^2, z = (y - P) / sqrt(W), W = P (1 - P)   (sensitive to outliers)
//   infit_i  = sum_j (y - P)^2 / sum_j W                            (information-weighted)
// Both have expectation 1 under the model; each comes with its Wilson-Hilferty t (Wright and
// Masters 1982), t = (MS^(1/3) - 1) (3 / q) + q / 3, where q^2 is the variance of the mean square
// from the Bernoulli fourth moment C = P (1 - P) ((1 - P)^3 + P^3). Plugging in estimated
// abilities makes the mean squares slightly conservative, and with 20-60 models each rests on
// that few answers: read |t| > 2 as "look at this item", not as a test. The M2PL's (mirtItemFit)
// are the same at each person's EAP ability vector.

import type { IrtItems } from './irt-model.js';
import { type MirtItems, mirtProbability } from './mirt-model.js';
import type { IrtResponses } from './responses.js';

export interface ItemFitStatistics {
  infit: Float64Array;
  outfit: Float64Array;
  infitT: Float64Array;
  outfitT: Float64Array;
  /** Observed answers per item. */
  n: Float64Array;
}

function wilsonHilferty(ms: number, q: number): number {
  if (!(q > 0) || !Number.isFinite(ms)) return Number.NaN;
  return (Math.cbrt(ms) - 1) * (3 / q) + q / 3;
}

/** Infit and outfit mean squares (and their t) of every item at the given abilities. */
export function itemFit(items: IrtItems, responses: IrtResponses, theta: ArrayLike<number>): ItemFitStatistics {
  if (theta.length !== responses.nPersons) throw new Error(`itemFit: ${theta.length} abilities for ${responses.nPersons} persons`);
  return fitAt(responses, (i, j) => {
    const c = items.c[i]!;
    return c + (1 - c) / (1 + Math.exp(-items.a[i]! * (theta[j]! - items.b[i]!)));
  });
}

/** The same under an M2PL, at each person's ability vector (`abilities`: persons x k, person-major). */
export function mirtItemFit(items: MirtItems, responses: IrtResponses, abilities: ArrayLike<number>): ItemFitStatistics {
  const k = items.k;
  if (abilities.length !== responses.nPersons * k)
    throw new Error(`mirtItemFit: ${abilities.length} ability values for ${responses.nPersons} persons x ${k} dimensions`);
  return fitAt(responses, (i, j) => mirtProbability(items, i, abilities, j * k));
}

function fitAt(responses: IrtResponses, prob: (item: number, person: number) => number): ItemFitStatistics {
  const { nPersons: N, nItems: J, values } = responses;
  const out: ItemFitStatistics = {
    infit: new Float64Array(J),
    outfit: new Float64Array(J),
    infitT: new Float64Array(J),
    outfitT: new Float64Array(J),
    n: new Float64Array(J),
  };
  const sumZ2 = new Float64Array(J);
  const sumR2 = new Float64Array(J);
  const sumW = new Float64Array(J);
  const sumCW2 = new Float64Array(J);
  const sumCmW2 = new Float64Array(J);
  for (let j = 0; j < N; j++) {
    const row = j * J;
    for (let i = 0; i < J; i++) {
      const y = values[row + i]!;
      if (Number.isNaN(y)) continue;
      const P = prob(i, j);
      const W = Math.max(P * (1 - P), 1e-12);
      const C = W * ((1 - P) ** 3 + P ** 3);
      const r2 = (y - P) * (y - P);
      out.n[i]!++;
      sumZ2[i]! += r2 / W;
      sumR2[i]! += r2;
      sumW[i]! += W;
      sumCW2[i]! += C / (W * W);
      sumCmW2[i]! += C - W * W;
    }
  }
  for (let i = 0; i < J; i++) {
    const n = out.n[i]!;
    if (n === 0) {
      out.infit[i] = out.outfit[i] = out.infitT[i] = out.outfitT[i] = Number.NaN;
      continue;
    }
    out.outfit[i] = sumZ2[i]! / n;
    out.infit[i] = sumR2[i]! / sumW[i]!;
    const qOut = Math.sqrt(Math.max(sumCW2[i]! / (n * n) - 1 / n, 0));
    const qIn = Math.sqrt(Math.max(sumCmW2[i]!, 0)) / sumW[i]!;
    out.outfitT[i] = wilsonHilferty(out.outfit[i]!, qOut);
    out.infitT[i] = wilsonHilferty(out.infit[i]!, qIn);
  }
  return out;
}
