// Factor structure of each benchmark and of all of them pooled: PCA variance shares (through
// the Gram matrix when items outnumber models), the number of components and factors by
// parallel analysis, and KMO and Bartlett where the correlation matrix has full rank. With
// items outnumbering models the correlation matrix has rank at most models - 1: then parallel
// analysis and principal axes work through n x n Gram matrices (see wide-reduced.ts and
// paf-wide.ts), and KMO and Bartlett are reported as not applicable, with that reason.

import {
  bartlett,
  correlationMatrix,
  factorAnalysis,
  hasFullRank,
  kmo,
  paf,
  pafWide,
  parallelAnalysis,
  pcaVarianceOfVariables,
  varimax,
  orientFactors,
} from '../../../stats/index.js';
import { flatten, type AuditItem, type AuditPanel } from './benchmark-matrix.js';

export interface StructureResult {
  name: string;
  items: number;
  constantItemsLeftOut: number;
  pcShares: number[];
  cumulative5: number;
  /** Retained by parallel analysis; null when it was skipped (depth 'pca'). */
  nComponents: number | null;
  nFactors: number | null;
  /** Kaiser's rule: components with an eigenvalue above 1 (it over-extracts on wide data; shown beside parallel analysis). */
  kaiser: number;
  /**
   * The scree elbow: the component where the eigenvalues' second difference
   * lambda(i-1) - 2 lambda(i) + lambda(i+1) is largest (Raiche et al.'s acceleration factor),
   * as the paper's "elbow at PC2"; the components before it are the ones the elbow retains.
   */
  screeElbow: number | null;
  method: 'full' | 'wide';
  kmo: number | null;
  bartlett: { chisq: number; df: number; p: number } | null;
  note?: string;
  /** Eigenvalues for the scree plot (first 20). */
  eigenvalues: number[];
  /**
   * EFA by principal axes with as many factors as parallel analysis retains (at least one;
   * see pafWide for the method and starting communalities when items outnumber models),
   * varimax when more than one: each factor's share of total variance.
   */
  efa: { factors: number; varianceShare: number[]; iterations: number; method: 'paf' | 'paf-wide' } | null;
  /**
   * The first factor's share of the common variance: its sum of squared loadings over the sum of
   * the communalities of the unrotated principal-axis solution with one factor per category (the
   * five-subconstruct hypothesis for the ATOMS categories; psych's "Proportion Explained" of PA1
   * in that solution), beside its share of the total variance in the same solution. Null without
   * item categories or with depth 'pca'.
   */
  commonVariance: { factors: number; totalShare: number; commonShare: number; communality: number } | null;
}

export interface StructureOptions {
  /** Parallel-analysis resamples (20, as psych). */
  iterations?: number;
  seed?: number;
  /** 'pca' skips parallel analysis and EFA (components' variance shares only). */
  depth?: 'full' | 'pca';
}

/** Leading eigenvalues computed per parallel-analysis resample (doubled when the counts reach it). */
const LEADING = 8;

/** The component with the largest second difference of the eigenvalues (null with fewer than three). */
export function screeElbow(eigenvalues: number[]): number | null {
  let best: number | null = null;
  let bestAcc = Number.NEGATIVE_INFINITY;
  for (let i = 1; i + 1 < eigenvalues.length; i++) {
    const acc = eigenvalues[i - 1]! - 2 * eigenvalues[i]! + eigenvalues[i + 1]!;
    if (acc > bestAcc) {
      bestAcc = acc;
      best = i + 1;
    }
  }
  return best;
}

/**
 * The first factor's share of the common variance of an unrotated solution: its sum of squared
 * loadings over the sum of the communalities (every factor's squared loadings), and over the
 * number of items (its share of the total variance).
 */
export function commonShareOf(loadings: ArrayLike<ArrayLike<number>>, items: number): NonNullable<StructureResult['commonVariance']> {
  const factors = loadings[0]?.length ?? 0;
  let first = 0;
  let communality = 0;
  for (let i = 0; i < loadings.length; i++) {
    const row = loadings[i]!;
    first += row[0]! ** 2;
    for (let f = 0; f < factors; f++) communality += row[f]! ** 2;
  }
  return { factors, totalShare: first / items, commonShare: first / communality, communality: communality / items };
}

/** The structure of one matrix: items as 0/1 responses, one per model. */
export function structureOf(
  name: string,
  items: Array<Pick<AuditItem, 'responses'> & { category?: string }>,
  models: number,
  opts: StructureOptions = {},
): StructureResult {
  const iterations = opts.iterations ?? 20;
  const seed = opts.seed ?? 0;
  const varying = items.filter((it) => it.responses.some((v) => v !== it.responses[0]));
  // PCA reads the responses as they are held, item by item; the models x items rows that
  // parallel analysis, EFA, KMO and Bartlett take are made only when one of them runs.
  for (const it of varying)
    if (it.responses.length !== models) throw new Error(`structureOf: an item has ${it.responses.length} responses for ${models} models`);
  const pca = pcaVarianceOfVariables(flatten(varying, models), models, varying.length);
  let rows: number[][] | undefined;
  /** Models x items rows, made on first use. */
  const modelRows = (): number[][] => (rows ??= Array.from({ length: models }, (_, m) => varying.map((it) => it.responses[m]!)));
  // Only the counts are reported: no simulated normal data, and only the leading eigenvalues
  // of each resample (the counts are those of the full computation; see parallelAnalysis).
  const pa =
    opts.depth === 'pca'
      ? undefined
      : parallelAnalysis(modelRows(), { iterations, seed: `${seed}:${name}`, simulated: false, leading: LEADING });
  let kmoValue: number | null = null;
  let bart: StructureResult['bartlett'] = null;
  let note: string | undefined;
  if (varying.length < models) {
    const R = correlationMatrix(modelRows());
    if (hasFullRank(R)) {
      kmoValue = kmo(R).msa;
      bart = bartlett(R, models);
    } else note = 'the correlation matrix is singular: KMO and Bartlett are not defined';
  } else {
    note = `${varying.length} items and ${models} models: the correlation matrix has rank at most ${models - 1}, so KMO and Bartlett are not defined and principal axes start from principal-component communalities`;
  }
  let efa: StructureResult['efa'] = null;
  let commonVariance: StructureResult['commonVariance'] = null;
  if (pa && varying.every((it) => it.category !== undefined)) {
    const k = new Set(varying.map((it) => it.category)).size;
    // One factor per category is fitted only where the data can hold that many factors.
    if (k < models && k < varying.length) {
      const loadings = varying.length < models ? paf(correlationMatrix(modelRows()), k).loadings : pafWide(modelRows(), k).loadings;
      commonVariance = commonShareOf(loadings, varying.length);
    } else {
      const why = `the share of common variance needs fewer categories (${k}) than models (${models}) and items (${varying.length})`;
      note = note ? `${note}; ${why}` : why;
    }
  }
  if (pa) {
    const k = Math.max(1, pa.nFactors);
    if (varying.length < models) {
      const fa = factorAnalysis(correlationMatrix(modelRows()), k, k > 1 ? 'varimax' : 'none');
      efa = { factors: k, varianceShare: fa.proportionVar, iterations: fa.iterations, method: 'paf' };
    } else {
      const w = pafWide(modelRows(), k);
      const rotated = k > 1 ? varimax(w.loadings).loadings : w.loadings;
      const oriented = orientFactors(rotated).loadings;
      const share = Array.from({ length: k }, (_, f) => oriented.reduce((sum, row) => sum + row[f]! ** 2, 0) / varying.length);
      efa = { factors: k, varianceShare: share, iterations: w.iterations, method: 'paf-wide' };
    }
  }
  return {
    name,
    items: varying.length,
    constantItemsLeftOut: items.length - varying.length,
    pcShares: pca.proportion.slice(0, 5),
    cumulative5: pca.cumulative[Math.min(4, pca.cumulative.length - 1)]!,
    nComponents: pa ? pa.nComponents : null,
    nFactors: pa ? pa.nFactors : null,
    kaiser: pca.eigenvalues.filter((v) => v > 1).length,
    screeElbow: screeElbow(pca.eigenvalues),
    method: varying.length < models ? 'full' : 'wide',
    kmo: kmoValue,
    bartlett: bart,
    note,
    eigenvalues: pca.eigenvalues.slice(0, 20),
    efa,
    commonVariance,
  };
}

/** The matrices whose structure the audit reports: each benchmark, and all of them pooled. */
export function structureTasks(panel: AuditPanel): Array<{ name: string; items: AuditItem[] }> {
  const per = panel.benchmarks.map((b) => ({ name: b.name, items: b.items }));
  return panel.benchmarks.length < 2 ? per : [...per, { name: 'pooled', items: panel.benchmarks.flatMap((b) => b.items) }];
}

/** The factor structure of a response matrix: PCA, parallel analysis (components and factors), EFA, KMO and Bartlett, wide or dense as the shape requires. */
export function factorStructure(panel: AuditPanel, opts: StructureOptions = {}): StructureResult[] {
  return structureTasks(panel).map((t) => structureOf(t.name, t.items, panel.models.length, opts));
}
