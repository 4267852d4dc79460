// Factor structure of each benchmark and of all of them pooled: PCA variance shares (through
// the Gram matrix when items outnumber models), the number of components and factors by
// parallel analysis, and KMO and Bartlett where the correlation matrix has full rank. With
// items outnumbering models the correlation matrix has rank at most models - 1: then only the
// component side of parallel analysis is computed and KMO and Bartlett are reported as not
// applicable, with that reason.

import { bartlett, correlationMatrix, factorAnalysis, hasFullRank, kmo, pafWide, parallelAnalysis, pcaVariance, varimax, orientFactors } from '../../stats/index.js';
import type { AuditItem, AuditPanel } from './benchmark-matrix.js';

export interface StructureResult {
  name: string;
  items: number;
  constantItemsLeftOut: number;
  pcShares: number[];
  cumulative5: number;
  nComponents: number;
  nFactors: number | null;
  method: 'full' | 'components-only';
  kmo: number | null;
  bartlett: { chisq: number; df: number; p: number } | null;
  note?: string;
  /** Eigenvalues for the scree plot (first 20). */
  eigenvalues: number[];
  /**
   * EFA by principal axes with as many factors as parallel analysis retains (components when
   * items outnumber models; see pafWide for the method and starting communalities), varimax
   * when more than one: each factor's share of total variance.
   */
  efa: { factors: number; varianceShare: number[]; iterations: number; method: 'paf' | 'paf-wide' };
}

function structureOf(name: string, items: AuditItem[], models: number, opts: { iterations: number; seed: number }): StructureResult {
  const varying = items.filter((it) => it.responses.some((v) => v !== it.responses[0]));
  const data = Array.from({ length: models }, (_, m) => varying.map((it) => it.responses[m]));
  const pca = pcaVariance(data);
  const pa = parallelAnalysis(data, { iterations: opts.iterations, seed: `${opts.seed}:${name}` });
  let kmoValue: number | null = null;
  let bart: StructureResult['bartlett'] = null;
  let note: string | undefined;
  if (varying.length < models) {
    const R = correlationMatrix(data);
    if (hasFullRank(R)) {
      kmoValue = kmo(R).msa;
      bart = bartlett(R, models);
    } else note = 'the correlation matrix is singular: KMO and Bartlett are not defined';
  } else {
    note = `${varying.length} items and ${models} models: the correlation matrix has rank at most ${models - 1}, so KMO and Bartlett are not defined, factors are counted on components, and principal axes start from principal-component communalities`;
  }
  const k = Math.max(1, pa.nFactors ?? pa.nComponents);
  let efa: StructureResult['efa'];
  if (varying.length < models) {
    const fa = factorAnalysis(correlationMatrix(data), k, k > 1 ? 'varimax' : 'none');
    efa = { factors: k, varianceShare: fa.proportionVar, iterations: fa.iterations, method: 'paf' };
  } else {
    const w = pafWide(data, k);
    const rotated = k > 1 ? varimax(w.loadings).loadings : w.loadings;
    const oriented = orientFactors(rotated).loadings;
    const share = Array.from({ length: k }, (_, f) => oriented.reduce((sum, row) => sum + row[f] ** 2, 0) / varying.length);
    efa = { factors: k, varianceShare: share, iterations: w.iterations, method: 'paf-wide' };
  }
  return {
    name,
    items: varying.length,
    constantItemsLeftOut: items.length - varying.length,
    pcShares: pca.proportion.slice(0, 5),
    cumulative5: pca.cumulative[Math.min(4, pca.cumulative.length - 1)],
    nComponents: pa.nComponents,
    nFactors: pa.nFactors,
    method: pa.method,
    kmo: kmoValue,
    bartlett: bart,
    note,
    eigenvalues: pca.eigenvalues.slice(0, 20),
    efa,
  };
}

export function factorStructure(panel: AuditPanel, opts: { iterations?: number; seed?: number } = {}): StructureResult[] {
  const o = { iterations: opts.iterations ?? 20, seed: opts.seed ?? 0 };
  const M = panel.models.length;
  const per = panel.benchmarks.map((b) => structureOf(b.name, b.items, M, o));
  if (panel.benchmarks.length < 2) return per;
  return [...per, structureOf('pooled', panel.benchmarks.flatMap((b) => b.items), M, o)];
}
