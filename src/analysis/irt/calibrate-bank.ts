// Calibrate an item bank from a response matrix: the IRT fit (stats/irt), the panel's EAP
// abilities, item fit, per-suite and per-category summaries, and the validation that gp-IRT
// needs: models 0, 5, 10, ... are held out, the model is refitted on the rest, each held-out
// model's ability is estimated from the even-numbered items, and the mean absolute error of the
// predicted accuracy on the odd-numbered items of each group is its irtMae (the procedure of the
// tinyBenchmarks code).

import { InputError, mindscopeVersion } from '../../core/index.js';
import type { ResponseMatrix } from '../../store/index.js';
import {
  type BifactorCalibration,
  calibrateBifactor,
  calibrateIrt,
  estimateAbilities,
  estimateAbility,
  type IrtCalibration,
  type IrtCalibrationOptions,
  type IrtItems,
  type IrtResponses,
  irtProbability,
  itemFit,
  selectItems,
  selectPersons,
  subsetItems,
} from '../../stats/irt/index.js';
import { computeBankId, type IrtBank, type IrtBankGroup, irtItemKey } from './irt-bank.js';
import { matrixToIrtResponses } from './matrix-responses.js';

export interface BankCalibrationOptions extends Omit<IrtCalibrationOptions, 'guessing' | 'model'> {
  /** bifactor: a general ability plus one specific factor per category (stats/irt/bifactor.ts). */
  model: '1pl' | '2pl' | '3pl' | 'bifactor';
  /** 3PL guessing floor: one number, or per item by irtItemKey(suite, id) (1/k for k options). */
  guessing?: number | Map<string, number>;
  /** Content hash per item, by irtItemKey(suite, id). */
  hashes?: Map<string, string>;
  /** Where the panel came from (file names or a run id), recorded in the bank. */
  source: string;
  /** Hold out models to measure IRT prediction error for gp-IRT (default true; skipped under 10 models). */
  validate?: boolean;
  /** Panel abilities and item fit (default true); false leaves them out (abilities empty, fit null), for repeated fits. */
  diagnostics?: boolean;
}

const finiteOrNull = (v: number | undefined): number | null => (v !== undefined && Number.isFinite(v) ? v : null);

/** Group membership: per suite, and per suite and category. */
export function bankGroups(
  items: ReadonlyArray<{ suite: string; category: string }>,
): Array<{ suite: string; category: string | null; members: number[] }> {
  const bySuite = new Map<string, number[]>();
  const byCat = new Map<string, { suite: string; category: string; members: number[] }>();
  items.forEach((it, i) => {
    if (!bySuite.has(it.suite)) bySuite.set(it.suite, []);
    bySuite.get(it.suite)!.push(i);
    const k = `${it.suite}\u0000${it.category}`;
    if (!byCat.has(k)) byCat.set(k, { suite: it.suite, category: it.category, members: [] });
    byCat.get(k)!.members.push(i);
  });
  const out: Array<{ suite: string; category: string | null; members: number[] }> = [];
  for (const [suite, members] of [...bySuite].sort(([x], [y]) => x.localeCompare(y))) {
    out.push({ suite, category: null, members });
    for (const g of [...byCat.values()].filter((g) => g.suite === suite).sort((x, y) => x.category.localeCompare(y.category))) out.push(g);
  }
  return out;
}

/** An item's answered count and sum of answers over the N persons (missing answers are NaN). */
export function itemAnswerSums(values: Float64Array, N: number, J: number, i: number): { n: number; s: number } {
  let n = 0;
  let s = 0;
  for (let j = 0; j < N; j++) {
    const y = values[j * J + i]!;
    if (!Number.isNaN(y)) {
      n++;
      s += y;
    }
  }
  return { n, s };
}

/** Mean over persons of the variance of their answers on the members (p (1 - p) for 0/1 answers). */
export function meanPersonVariance(values: Float64Array, N: number, J: number, members: readonly number[]): number {
  let total = 0;
  let persons = 0;
  for (let j = 0; j < N; j++) {
    let n = 0;
    let s = 0;
    let s2 = 0;
    for (const i of members) {
      const y = values[j * J + i]!;
      if (Number.isNaN(y)) continue;
      n++;
      s += y;
      s2 += y * y;
    }
    if (n === 0) continue;
    const m = s / n;
    total += s2 / n - m * m;
    persons++;
  }
  return persons > 0 ? total / persons : 0;
}

/** irtMae per group by the hold-out procedure in the file comment; null when under 10 models. */
function validateGroups(
  matrixValues: { values: Float64Array; N: number; J: number },
  groups: Array<{ members: number[] }>,
  refitOn: (train: IrtResponses) => IrtItems,
): Array<number | null> {
  const { values, N, J } = matrixValues;
  if (N < 10) return groups.map(() => null);
  const held: number[] = [];
  const train: number[] = [];
  for (let j = 0; j < N; j++) (j % 5 === 0 ? held : train).push(j);
  const responses = { nPersons: N, nItems: J, values };
  const refit = { items: refitOn(selectPersons(responses, train)) };
  const seen: number[] = [];
  for (let i = 0; i < J; i += 2) seen.push(i);
  const errors = groups.map(() => ({ sum: 0, n: 0 }));
  for (const j of held) {
    const y = values.subarray(j * J, (j + 1) * J);
    const theta = estimateAbility(refit.items, y, { indices: seen }).theta;
    groups.forEach((g, k) => {
      let pred = 0;
      let obs = 0;
      let n = 0;
      for (const i of g.members) {
        if (i % 2 === 0 || Number.isNaN(y[i]!)) continue;
        pred += irtProbability(refit.items.a[i]!, refit.items.b[i]!, refit.items.c[i]!, theta);
        obs += y[i]!;
        n++;
      }
      if (n > 0) {
        errors[k]!.sum += Math.abs(pred / n - obs / n);
        errors[k]!.n++;
      }
    });
  }
  return errors.map((e) => (e.n > 0 ? e.sum / e.n : null));
}

/**
 * A bifactor fit in the shape of a unidimensional one: (a, b) are the general dimension's
 * marginal 2PL curve (a = aG / sqrt(1 + pi aS^2 / 8), b = -d / aG), which the tiny estimators
 * and adaptive tests use; their SEs by the delta method from the bifactor's (covariances
 * ignored).
 */
function bifactorAsIrt(bf: BifactorCalibration): IrtCalibration & { bifactor: BifactorCalibration } {
  const J = bf.aGeneral.length;
  const se = { a: new Float64Array(J), b: new Float64Array(J), c: new Float64Array(J).fill(Number.NaN) };
  for (let i = 0; i < J; i++) {
    const shrink = Math.sqrt(1 + (Math.PI * bf.aSpecific[i]! ** 2) / 8);
    se.a[i] = bf.se.aGeneral[i]! / shrink;
    se.b[i] = Math.sqrt((bf.se.d[i]! / bf.aGeneral[i]!) ** 2 + ((bf.d[i]! * bf.se.aGeneral[i]!) / bf.aGeneral[i]! ** 2) ** 2);
  }
  return {
    model: '2pl',
    items: bf.marginal,
    se,
    estimated: { a: 'item', c: false },
    priors: { logA: { mean: 0, sd: 0.5 }, b: null, c: null },
    quadrature: { nodes: new Float64Array(0), weights: new Float64Array(0) },
    iterations: bf.iterations,
    converged: bf.converged,
    lastChange: Number.NaN,
    logLikelihood: bf.logLikelihood,
    logPosterior: Number.NaN,
    posterior: new Float64Array(0),
    nPersons: 0,
    bifactor: bf,
  };
}

/** Calibrate a bank on a response matrix (subjects are the panel's models). */
export function calibrateBank(matrix: ResponseMatrix, opts: BankCalibrationOptions): IrtBank {
  const warnings: string[] = [];
  const dropped: IrtBank['dropped'] = [];
  const keep: number[] = [];
  const seen = new Set<string>();
  matrix.items.forEach((it, i) => {
    const key = irtItemKey(it.suite, it.itemId);
    if (seen.has(key)) throw new InputError(`item ${it.suite}/${it.itemId} appears twice in the matrix`);
    seen.add(key);
    if (matrix.cells[i]!.every((v) => v === null)) dropped.push({ suite: it.suite, id: it.itemId, reason: 'no answers in the panel' });
    else keep.push(i);
  });
  if (keep.length === 0) throw new InputError('no item has any answer in the panel');
  const N = matrix.subjects.length;
  if (N < 3) throw new InputError(`IRT calibration needs at least 3 models, the matrix has ${N}`);
  if (N < 20) warnings.push(`${N} models: item parameters rest on very few answers; treat them as rough`);
  const full = matrixToIrtResponses(matrix);
  const responses = keep.length === matrix.items.length ? full : selectItems(full, keep);
  const J = responses.nItems;
  const items = keep.map((i) => matrix.items[i]!);
  let guessing: number | Float64Array | undefined;
  if (opts.model === '3pl') {
    const g = opts.guessing;
    if (g === undefined) throw new InputError('3PL needs a guessing floor (1/k for k-option items)');
    guessing =
      typeof g === 'number'
        ? g
        : Float64Array.from(items, (it) => {
            const v = g.get(irtItemKey(it.suite, it.itemId));
            if (v === undefined) throw new InputError(`no guessing floor for item ${it.suite}/${it.itemId}`);
            return v;
          });
  }
  const { guessing: _g, hashes, source, validate, diagnostics, ...rest } = opts;
  // Start values given for every matrix item follow the items kept.
  const start =
    rest.start && rest.start.a.length === matrix.items.length && J !== matrix.items.length ? subsetItems(rest.start, keep) : rest.start;
  const categoryNames = [...new Set(items.map((it) => it.category))].sort();
  const categoryOf = items.map((it) => categoryNames.indexOf(it.category));
  const bifactorOpts = { categories: categoryOf, tolerance: opts.tolerance, maxIterations: opts.maxIterations };
  const irtOpts: IrtCalibrationOptions = { ...rest, start, model: opts.model === 'bifactor' ? '2pl' : opts.model, guessing };
  const fit: IrtCalibration & { bifactor?: BifactorCalibration } =
    opts.model === 'bifactor' ? bifactorAsIrt(calibrateBifactor(responses, bifactorOpts)) : calibrateIrt(responses, irtOpts);
  if (!fit.converged)
    warnings.push(`EM stopped after ${fit.iterations} iterations without converging (last change ${fit.lastChange.toExponential(2)})`);
  const abilities =
    diagnostics === false ? { theta: new Float64Array(0), se: new Float64Array(0) } : estimateAbilities(fit.items, responses.values, N);
  const fitStats = diagnostics === false ? null : itemFit(fit.items, responses, abilities.theta);
  const groupDefs = bankGroups(items);
  // The hold-out refit is rough on purpose (tolerance 1e-3): it feeds a mean absolute error.
  const refitOn = (train: IrtResponses): IrtItems =>
    opts.model === 'bifactor'
      ? calibrateBifactor(train, { ...bifactorOpts, tolerance: Math.max(opts.tolerance ?? 1e-4, 1e-3) }).marginal
      : calibrateIrt(train, { ...irtOpts, start: fit.items, standardErrors: false, tolerance: Math.max(opts.tolerance ?? 1e-4, 1e-3) })
          .items;
  const maes = validate === false ? groupDefs.map(() => null) : validateGroups({ values: responses.values, N, J }, groupDefs, refitOn);
  if (validate !== false && N < 10) warnings.push('fewer than 10 models: no hold-out validation, so gp-IRT is unavailable');
  const groups: IrtBankGroup[] = groupDefs.map((g, k) => ({
    suite: g.suite,
    category: g.category,
    items: g.members.length,
    meanVariance: meanPersonVariance(responses.values, N, J, g.members),
    irtMae: maes[k] ?? null,
  }));
  const bankItems = items.map((it, i) => {
    const { n, s } = itemAnswerSums(responses.values, N, J, i);
    return {
      suite: it.suite,
      id: it.itemId,
      category: it.category,
      hash: hashes?.get(irtItemKey(it.suite, it.itemId)) ?? null,
      a: fit.items.a[i]!,
      b: fit.items.b[i]!,
      c: fit.items.c[i]!,
      ...(fit.bifactor ? { aSpecific: fit.bifactor.aSpecific[i]! } : {}),
      se: {
        a: finiteOrNull(fit.se.a[i]),
        b: finiteOrNull(fit.se.b[i]),
        c: finiteOrNull(fit.se.c[i]),
        ...(fit.bifactor ? { aSpecific: finiteOrNull(fit.bifactor.se.aSpecific[i]) } : {}),
      },
      fit: {
        infit: finiteOrNull(fitStats?.infit[i]),
        outfit: finiteOrNull(fitStats?.outfit[i]),
        infitT: finiteOrNull(fitStats?.infitT[i]),
        outfitT: finiteOrNull(fitStats?.outfitT[i]),
      },
      n,
      pCorrect: n > 0 ? s / n : null,
    };
  });
  if (hashes) {
    const missing = bankItems.filter((it) => it.hash === null).length;
    if (missing > 0) warnings.push(`${missing} item(s) have no content hash (not among the items given to hash)`);
  } else warnings.push('no item contents were given, so items carry no content hash and the bank cannot detect changed items');
  const { posterior: _p, quadrature, items: _i, se: _s, bifactor, ...summary } = fit;
  const body: Omit<IrtBank, 'bankId' | 'format' | 'formatVersion'> = {
    tool: { name: 'mindscope', version: mindscopeVersion() },
    model: opts.model,
    settings: {
      priors: summary.priors,
      floatPriors: opts.floatPriors !== false,
      guessing: typeof opts.guessing === 'number' ? opts.guessing : opts.guessing ? 'per-item' : null,
      estimateGuessing: !!opts.estimateGuessing,
      quadraturePoints: opts.model === 'bifactor' ? '21 x 15' : quadrature.nodes.length,
      quadratureRange: quadrature.nodes[quadrature.nodes.length - 1]!,
      tolerance: opts.tolerance ?? 1e-4,
      parameterExpansion: opts.parameterExpansion !== false,
      latent: 'N(0, 1)',
    },
    panel: {
      source,
      models: matrix.subjects,
      abilities:
        diagnostics === false ? [] : matrix.subjects.map((m, j) => ({ model: m, theta: abilities.theta[j]!, se: abilities.se[j]! })),
    },
    convergence: {
      iterations: summary.iterations,
      converged: summary.converged,
      logLikelihood: summary.logLikelihood,
      logPosterior: summary.logPosterior,
    },
    groups,
    items: bankItems,
    ...(bifactor ? { specificFactors: categoryNames } : {}),
    dropped,
    warnings,
  };
  const head = { format: 'mindscope-irt-bank' as const, formatVersion: 1 as const };
  return { ...head, bankId: computeBankId({ ...head, ...body }), ...body };
}
