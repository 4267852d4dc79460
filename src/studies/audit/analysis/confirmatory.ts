// Confirmatory factor analysis of a benchmark's category structure, the audit paper's next
// step: one factor per category (correlated), or a bifactor model (a general factor and one
// orthogonal factor per category), each beside the one-factor model that the exploratory
// analysis retains, on the same indicators.
//
// Indicators. With items outnumbering models (the paper's 27 models, thousands of items) the
// item correlation matrix is singular and no model can be fitted item by item, so the default
// indicators are item parcels: within each category (in name order) the items that vary across
// the models, in the matrix's order, item j going to parcel (j mod K) + 1; a parcel's score is a
// model's mean over its items. `parcels: 0` fits the items themselves (fewer items than models).
// Estimation: ML on the indicators' Pearson correlation matrix (the audit computes no
// tetrachoric correlations; parcel scores are proportions, not binary). ML because with a
// positive definite matrix its statistic has a chi-square reference distribution, from which
// CFI, TLI and RMSEA follow; ULS would need robust corrections for that. Checked against lavaan
// (tests/fixtures/vectors/generated/cfa).

import { chiSquareSf, correlationMatrix, fitCfa, parallelAnalysis, type CfaModel, type CfaResult } from '../../../stats/index.js';
import { ConfigError } from '../../../core/errors.js';
import type { AuditItem } from './benchmark-matrix.js';

export type CfaStructure = 'one-per-category' | 'bifactor';

export interface ConfirmatoryOptions {
  structure: CfaStructure;
  /** Parcels per category (default 3); 0 fits the items themselves. */
  parcels?: number;
  /** Parallel analysis on the indicators (the exploratory solution): resamples and seed. */
  iterations?: number;
  seed?: number;
}

export interface CfaIndicator {
  name: string;
  category: string;
  items: number;
}

/** One fitted model, without the loadings matrix's zeros: each loading named by indicator and factor. */
export interface CfaModelFit extends Omit<CfaResult, 'loadings' | 'heywood'> {
  model: 'one-factor' | CfaStructure;
  factors: string[];
  loadings: Array<{ indicator: string; factor: string; loading: number }>;
  heywood: string[];
  /** Bifactor: the general factor's share of the common variance (explained common variance, ECV) and omega hierarchical. */
  ecv?: number;
  omegaHierarchical?: number;
}

export interface ConfirmatoryResult {
  name: string;
  models: number;
  indicators: { kind: 'parcels' | 'items'; perCategory: number | null; list: CfaIndicator[] };
  correlation: 'pearson';
  estimator: 'ML';
  categoriesLeftOut: Array<{ category: string; reason: string }>;
  /** The exploratory solution on the same indicators: factors retained by parallel analysis. */
  exploratory: { factors: number; components: number };
  oneFactor: CfaModelFit;
  structure: CfaModelFit;
  /** Chi-square difference of the one-factor model (nested) against the structure. */
  comparison: { deltaChisq: number; deltaDf: number; p: number; deltaCfi: number; deltaRmsea: number };
}

/** The indicators of a category structure: parcels (K per category) or the varying items. */
export function cfaIndicators(
  items: ReadonlyArray<Pick<AuditItem, 'id' | 'category' | 'responses'>>,
  models: number,
  opts: { parcels: number; minimum: number },
): { list: CfaIndicator[]; rows: number[][]; leftOut: Array<{ category: string; reason: string }> } {
  const varying = items.filter((it) => it.responses.some((v) => v !== it.responses[0]));
  const categories = [...new Set(varying.map((it) => it.category))].sort();
  const list: CfaIndicator[] = [];
  const columns: number[][] = [];
  const leftOut: Array<{ category: string; reason: string }> = [];
  for (const category of categories) {
    const own = varying.filter((it) => it.category === category);
    const k = opts.parcels === 0 ? own.length : Math.min(opts.parcels, own.length);
    if (k < opts.minimum) {
      leftOut.push({ category, reason: `${own.length} varying item(s): a factor needs at least ${opts.minimum} indicators` });
      continue;
    }
    for (let j = 0; j < k; j++) {
      const members = opts.parcels === 0 ? [own[j]!] : own.filter((_, i) => i % k === j);
      list.push({ name: opts.parcels === 0 ? members[0]!.id : `${category}.p${j + 1}`, category, items: members.length });
      columns.push(Array.from({ length: models }, (_, m) => members.reduce((s, it) => s + it.responses[m]!, 0) / members.length));
    }
  }
  const rows = Array.from({ length: models }, (_, m) => columns.map((c) => c[m]!));
  return { list, rows, leftOut };
}

function summarise(model: CfaModelFit['model'], names: string[], indicators: CfaIndicator[], fit: CfaResult): CfaModelFit {
  const { loadings, heywood, ...rest } = fit;
  const named = loadings.flatMap((row, i) =>
    row.flatMap((v, f) => (v !== 0 ? [{ indicator: indicators[i]!.name, factor: names[f]!, loading: v }] : [])),
  );
  const out: CfaModelFit = { model, factors: names, ...rest, loadings: named, heywood: heywood.map((i) => indicators[i]!.name) };
  if (model === 'bifactor') {
    const general = named.filter((l) => l.factor === 'general');
    const specific = named.filter((l) => l.factor !== 'general');
    const g2 = general.reduce((s, l) => s + l.loading ** 2, 0);
    out.ecv = g2 / (g2 + specific.reduce((s, l) => s + l.loading ** 2, 0));
    // omega_h = (sum of general loadings)^2 / the variance of the sum score implied by the model.
    const gSum = general.reduce((s, l) => s + l.loading, 0) ** 2;
    const sSums = names.slice(1).reduce((s, f) => s + specific.filter((l) => l.factor === f).reduce((t, l) => t + l.loading, 0) ** 2, 0);
    out.omegaHierarchical = gSum / (gSum + sSums + fit.residualVariances.reduce((s, v) => s + v, 0));
  }
  return out;
}

/** Fit the one-factor model and the given category structure to one matrix's items (see the file's comment). */
export function confirmatoryFactorAnalysis(
  name: string,
  items: ReadonlyArray<Pick<AuditItem, 'id' | 'category' | 'responses'>>,
  models: number,
  opts: ConfirmatoryOptions,
): ConfirmatoryResult {
  const parcels = opts.parcels ?? 3;
  if (!Number.isInteger(parcels) || parcels < 0 || parcels === 1)
    throw new ConfigError(`CFA parcels per category must be 0 (items) or at least 2, not ${parcels}`);
  const minimum = opts.structure === 'bifactor' ? 3 : 2;
  const { list, rows, leftOut } = cfaIndicators(items, models, { parcels, minimum });
  const categories = [...new Set(list.map((x) => x.category))];
  if (categories.length < 2)
    throw new ConfigError(
      `${name}: a confirmatory model of categories needs two or more categories with ${minimum} or more indicators (have: ${categories.join(', ') || 'none'})`,
    );
  if (list.length >= models)
    throw new ConfigError(
      `${name}: ${list.length} indicators for ${models} models: ML needs fewer indicators than models${parcels === 0 ? ' (fit parcels instead: --cfa-parcels 3)' : ' (use fewer parcels per category)'}`,
    );
  const R = correlationMatrix(rows);
  const all = list.map((_, i) => i);
  const byCategory = categories.map((c) => ({ name: c, indicators: all.filter((i) => list[i]!.category === c) }));
  const one: CfaModel = { factors: [{ name: 'general', indicators: all }], orthogonal: false };
  const structure: CfaModel =
    opts.structure === 'bifactor'
      ? { factors: [{ name: 'general', indicators: all }, ...byCategory], orthogonal: true }
      : { factors: byCategory, orthogonal: false };
  const oneRaw = fitCfa(R, models, one);
  const oneFit = summarise('one-factor', ['general'], list, oneRaw);
  // The structure starts from the one-factor solution: each indicator's loading on the general
  // factor (bifactor) or on its category's factor; the bifactor's category loadings at 0.2.
  const general = oneRaw.loadings.map((row) => row[0]!);
  const start = list.map((ind, i) =>
    structure.factors.map((f, k) =>
      opts.structure === 'bifactor' ? (k === 0 ? general[i]! : 0) : f.name === ind.category ? general[i]! : 0,
    ),
  );
  const fit = summarise(
    opts.structure,
    structure.factors.map((f) => f.name),
    list,
    fitCfa(R, models, structure, { start: { loadings: start } }),
  );
  const pa = parallelAnalysis(rows, { iterations: opts.iterations ?? 20, seed: `${opts.seed ?? 0}:cfa:${name}`, simulated: false });
  const deltaChisq = oneFit.chisq - fit.chisq;
  const deltaDf = oneFit.df - fit.df;
  return {
    name,
    models,
    indicators: { kind: parcels === 0 ? 'items' : 'parcels', perCategory: parcels === 0 ? null : parcels, list },
    correlation: 'pearson',
    estimator: 'ML',
    categoriesLeftOut: leftOut,
    exploratory: { factors: Math.max(1, pa.nFactors), components: pa.nComponents },
    oneFactor: oneFit,
    structure: fit,
    comparison: {
      deltaChisq,
      deltaDf,
      p: deltaDf > 0 ? chiSquareSf(Math.max(0, deltaChisq), deltaDf) : Number.NaN,
      deltaCfi: fit.cfi - oneFit.cfi,
      deltaRmsea: fit.rmsea - oneFit.rmsea,
    },
  };
}
