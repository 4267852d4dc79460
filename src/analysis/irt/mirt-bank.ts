// Multidimensional (M2PL) item banks: calibrate one from a response matrix, read its items back,
// and estimate accuracies from answers with it.
//   Structure: 'exploratory' (every item free on every dimension, principal axes), 'category'
//     (each item on the general dimension and its category's: k = 1 + categories) or a pattern
//     (category -> the dimensions, 1-based, its items load on besides the general one).
//   k: given, or 'auto': chosen by held-out likelihood among 1..maxDims (mirt-dimensions.ts).
//   Validation for gp-IRT: as for one-dimensional banks (calibrate-bank.ts), models 0, 5, 10, ...
//     are held out, the model is refitted on the rest, each held-out model's posterior comes from
//     the even-numbered items and predicts the odd-numbered ones of each group.
// Each item's a and b are the general dimension's marginal curve (the other dimensions
// integrated out: a = a1 / sqrt(1 + pi s^2 / 8), s^2 the sum of its other squared slopes;
// b = -d / a1), for readers that know one dimension only.

import { InputError, mindscopeVersion } from '../../core/index.js';
import type { ResponseMatrix } from '../../store/index.js';
import {
  calibrateMirt,
  chooseMirtDimensions,
  estimateMirtAccuracy,
  type MirtAccuracyModel,
  type MirtItems,
  MIRT_MAX_GRID_DIMS,
  mirtAbilities,
  mirtAccuracyModel,
  mirtItemFit,
  mirtItemStandardErrors,
  selectItems,
  selectPersons,
  type TinyGroup,
} from '../../stats/irt/index.js';
import { bankGroups, itemAnswerSums, meanPersonVariance } from './calibrate-bank.js';
import { computeBankId, type IrtBank, irtItemKey } from './irt-bank.js';
import { matrixToIrtResponses } from './matrix-responses.js';

const finiteOrNull = (v: number | undefined): number | null => (v !== undefined && Number.isFinite(v) ? v : null);

export interface MirtBankOptions {
  /** Number of dimensions, or 'auto' (held-out likelihood over 1..maxDims). */
  dims: number | 'auto';
  /** Largest k tried by 'auto' (default 3). */
  maxDims?: number;
  /** Default 'exploratory'; a record maps a category to the extra dimensions (2..k) its items load on. */
  structure?: 'exploratory' | 'category' | Record<string, number[]>;
  hashes?: Map<string, string>;
  source: string;
  /** Hold-out validation for gp-IRT (default true; skipped under 10 models). */
  validate?: boolean;
  tolerance?: number;
  maxIterations?: number;
  seed?: number;
}

function patternFor(categories: readonly string[], k: number, structure: MirtBankOptions['structure']): Uint8Array | undefined {
  if (structure === undefined || structure === 'exploratory') return undefined;
  const names = [...new Set(categories)].sort();
  const J = categories.length;
  const mask = new Uint8Array(J * k);
  categories.forEach((c, i) => {
    mask[i * k] = 1;
    if (structure === 'category') mask[i * k + 1 + names.indexOf(c)] = 1;
    else
      for (const d of structure[c] ?? []) {
        if (!(Number.isInteger(d) && d >= 2 && d <= k))
          throw new InputError(`pattern: category "${c}" names dimension ${d}, not one of 2..${k}`);
        mask[i * k + d - 1] = 1;
      }
  });
  return mask;
}

/** The M2PL items of a version 2 bank. */
export function bankMirtItems(bank: IrtBank): MirtItems {
  const k = bank.dimensions?.k;
  if (bank.model !== 'm2pl' || !k) throw new InputError(`bank ${bank.bankId} is not multidimensional (model ${bank.model})`);
  const J = bank.items.length;
  const slopes = new Float64Array(J * k);
  bank.items.forEach((it, i) => slopes.set(it.slopes!, i * k));
  return {
    k,
    slopes,
    intercepts: Float64Array.from(bank.items, (it) => it.intercept!),
    mask: Uint8Array.from(slopes, (s) => (s !== 0 ? 1 : 0)),
  };
}

/** The calibration abilities (panel EAPs) of a bank, at most `max` of them evenly spaced, as M x k. */
export function bankMirtAbilities(bank: IrtBank, max = 60): Float64Array {
  const k = bank.dimensions!.k;
  const all = bank.panel.abilities;
  const M = Math.min(max, all.length);
  const out = new Float64Array(M * k);
  for (let m = 0; m < M; m++) out.set(all[Math.floor((m * all.length) / M)]!.thetas!, m * k);
  return out;
}

/** Calibrate a multidimensional bank (see the file comment). */
export function calibrateMirtBank(matrix: ResponseMatrix, opts: MirtBankOptions): IrtBank {
  const warnings: string[] = [];
  const dropped: IrtBank['dropped'] = [];
  const keep: number[] = [];
  matrix.items.forEach((it, i) => {
    if (matrix.cells[i]!.every((v) => v === null)) dropped.push({ suite: it.suite, id: it.itemId, reason: 'no answers in the panel' });
    else keep.push(i);
  });
  if (keep.length === 0) throw new InputError('no item has any answer in the panel');
  const N = matrix.subjects.length;
  if (N < 3) throw new InputError(`IRT calibration needs at least 3 models, the matrix has ${N}`);
  if (N < 50) warnings.push(`${N} models: a multidimensional model on so few is rough; prefer one dimension below about 100 models`);
  const full = matrixToIrtResponses(matrix);
  const responses = keep.length === matrix.items.length ? full : selectItems(full, keep);
  const J = responses.nItems;
  const items = keep.map((i) => matrix.items[i]!);
  const categories = items.map((it) => it.category);
  const categoryNames = [...new Set(categories)].sort();
  const structure = opts.structure ?? 'exploratory';
  const seed = opts.seed ?? 1;
  const fitOpts = { tolerance: opts.tolerance, maxIterations: opts.maxIterations, seed };
  let k: number;
  let choice: NonNullable<IrtBank['dimensions']>['choice'] = null;
  if (structure === 'category') {
    k = 1 + categoryNames.length;
    if (opts.dims !== 'auto' && opts.dims !== k)
      throw new InputError(`the category structure has ${k} dimensions (general + ${categoryNames.length} categories), not ${opts.dims}`);
  } else if (opts.dims === 'auto') {
    if (typeof structure !== 'string') throw new InputError('--dims auto chooses among exploratory models; give k with a pattern');
    const c = chooseMirtDimensions(responses, { maxK: opts.maxDims ?? 3, ...fitOpts });
    k = c.k;
    choice = { heldOutCells: c.heldOutCells, scores: c.scores.map((s) => ({ k: s.k, heldOutLogLik: s.heldOutLogLik })) };
  } else k = opts.dims;
  if (!(Number.isInteger(k) && k >= 1 && k <= 20)) throw new InputError(`dimensions must be an integer in 1..20, got ${k}`);
  if (k > MIRT_MAX_GRID_DIMS)
    warnings.push(`${k} dimensions: integrals use 2,000 quasi-Monte-Carlo nodes (product grids stop at ${MIRT_MAX_GRID_DIMS})`);
  const pattern = patternFor(categories, k, structure);
  const fit = calibrateMirt(responses, { k, pattern, ...fitOpts });
  if (!fit.converged) warnings.push(`EM stopped after ${fit.iterations} iterations without converging`);
  const abilities = mirtAbilities(fit.items, responses);
  const itemFits = mirtItemFit(fit.items, responses, abilities.mean);
  const itemSe = mirtItemStandardErrors(fit.items, responses, { slopeSd: 1.5, interceptSd: 3 });
  const groupDefs = bankGroups(items);
  const irtMae =
    opts.validate === false || N < 10 ? groupDefs.map(() => null) : validateMirt(responses, groupDefs, k, pattern, fit.items, fitOpts);
  if (opts.validate !== false && N < 10) warnings.push('fewer than 10 models: no hold-out validation, so gp-IRT is unavailable');
  const bankItems = items.map((it, i) => {
    const { n, s } = itemAnswerSums(responses.values, N, J, i);
    const slopes = Array.from(fit.items.slopes.subarray(i * k, (i + 1) * k));
    const a1 = slopes[0]!;
    const rest = slopes.slice(1).reduce((t, v) => t + v * v, 0);
    const d = fit.items.intercepts[i]!;
    return {
      suite: it.suite,
      id: it.itemId,
      category: it.category,
      hash: opts.hashes?.get(irtItemKey(it.suite, it.itemId)) ?? null,
      a: Math.max(1e-3, a1 / Math.sqrt(1 + (Math.PI * rest) / 8)),
      b: Math.abs(a1) > 1e-3 ? -d / a1 : -d / 1e-3,
      c: 0,
      slopes,
      intercept: d,
      se: {
        a: null,
        b: null,
        c: null,
        slopes: Array.from(itemSe.slopes.subarray(i * k, (i + 1) * k), (v) => finiteOrNull(v)),
        intercept: finiteOrNull(itemSe.intercepts[i]),
      },
      fit: {
        infit: finiteOrNull(itemFits.infit[i]),
        outfit: finiteOrNull(itemFits.outfit[i]),
        infitT: finiteOrNull(itemFits.infitT[i]),
        outfitT: finiteOrNull(itemFits.outfitT[i]),
      },
      n,
      pCorrect: n > 0 ? s / n : null,
    };
  });
  if (opts.hashes) {
    const missing = bankItems.filter((it) => it.hash === null).length;
    if (missing > 0) warnings.push(`${missing} item(s) have no content hash (not among the items given to hash)`);
  } else warnings.push('no item contents were given, so items carry no content hash and the bank cannot detect changed items');
  const names =
    structure === 'category'
      ? ['general', ...categoryNames]
      : Array.from({ length: k }, (_, d) => (d === 0 ? 'general' : `dimension ${d + 1}`));
  const body: Omit<IrtBank, 'bankId' | 'format' | 'formatVersion'> = {
    tool: { name: 'mindscope', version: mindscopeVersion() },
    model: 'm2pl',
    settings: { slopeSd: 1.5, interceptSd: 3, tolerance: opts.tolerance ?? 1e-3, latent: `N(0, I_${k})`, seed },
    panel: {
      source: opts.source,
      models: matrix.subjects,
      abilities: matrix.subjects.map((m, j) => ({
        model: m,
        theta: abilities.mean[j * k]!,
        se: abilities.sd[j * k]!,
        thetas: Array.from(abilities.mean.subarray(j * k, (j + 1) * k)),
      })),
    },
    convergence: {
      iterations: fit.iterations,
      converged: fit.converged,
      logLikelihood: fit.logLikelihood,
      logPosterior: fit.logLikelihood,
    },
    groups: groupDefs.map((g, t) => ({
      suite: g.suite,
      category: g.category,
      items: g.members.length,
      meanVariance: meanPersonVariance(responses.values, N, J, g.members),
      irtMae: irtMae[t] ?? null,
    })),
    items: bankItems,
    dimensions: {
      k,
      structure: typeof structure === 'string' ? structure : 'pattern',
      rotation: fit.rotation,
      names,
      choice,
      nodes:
        k <= MIRT_MAX_GRID_DIMS ? `${fit.nodes.weights.length}-node product grid` : `${fit.nodes.weights.length} quasi-Monte-Carlo nodes`,
    },
    dropped,
    warnings,
  };
  const head = { format: 'mindscope-irt-bank' as const, formatVersion: 2 as const };
  return { ...head, bankId: computeBankId({ ...head, ...body }), ...body };
}

function validateMirt(
  responses: ReturnType<typeof matrixToIrtResponses>,
  groups: Array<{ members: number[] }>,
  k: number,
  pattern: Uint8Array | undefined,
  start: MirtItems,
  fitOpts: { tolerance?: number; maxIterations?: number; seed: number },
): Array<number | null> {
  const N = responses.nPersons;
  const J = responses.nItems;
  const held: number[] = [];
  const train: number[] = [];
  for (let j = 0; j < N; j++) (j % 5 === 0 ? held : train).push(j);
  const refit = calibrateMirt(selectPersons(responses, train), {
    k,
    pattern,
    start,
    ...fitOpts,
    tolerance: Math.max(fitOpts.tolerance ?? 1e-3, 3e-3),
  }).items;
  const oddGroups: TinyGroup[] = groups.map((g) => ({
    items: g.members.filter((i) => i % 2 === 1),
    anchors: [],
    anchorWeights: [],
    irtMae: null,
    meanVariance: 0,
  }));
  const usable = oddGroups.map((g) => g.items.length > 0);
  const model = mirtAccuracyModel(
    refit,
    oddGroups.filter((_, t) => usable[t]),
  );
  const sums = groups.map(() => ({ sum: 0, n: 0 }));
  for (const j of held) {
    const y = new Float64Array(J).fill(Number.NaN);
    for (let i = 0; i < J; i += 2) y[i] = responses.values[j * J + i]!;
    const est = estimateMirtAccuracy(model, y);
    let u = 0;
    groups.forEach((_, t) => {
      if (!usable[t]) return;
      const g = oddGroups[t]!;
      let obs = 0;
      let n = 0;
      for (let m = 0; m < g.items.length; m++) {
        const v = responses.values[j * J + g.items[m]!]!;
        if (!Number.isNaN(v)) {
          obs += v;
          n++;
        }
      }
      // The estimate is over all the group's odd items; compare where all were answered.
      if (n === g.items.length) {
        sums[t]!.sum += Math.abs(est.groups[u]!.pIrt.estimate - obs / n);
        sums[t]!.n++;
      }
      u++;
    });
  }
  return sums.map((s) => (s.n > 0 ? s.sum / s.n : null));
}

/** An accuracy model over the bank's groups (suite, and suite x category) for a version 2 bank. */
export function bankMirtAccuracyModel(bank: IrtBank, groups: readonly TinyGroup[]): MirtAccuracyModel {
  return mirtAccuracyModel(bankMirtItems(bank), groups);
}
