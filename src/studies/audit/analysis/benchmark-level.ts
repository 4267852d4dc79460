// The benchmark-level audit of the audit paper's section 3.5 (Tables 7 and 8): Kendall tau-b
// within the ToM benchmarks, within the general-ability benchmarks and across them, with
// model-bootstrap intervals; partial tau of each ToM pair controlling for each general
// benchmark and for all of them (residual method by default), with shrinkage; and the share
// of each ToM benchmark's variance explained by general ability, two ways: the paper's
// composite r-squared (on the mean of the standardised general benchmarks) and the multiple
// R-squared of the OLS regression on every general benchmark (with an intercept).

import { ConfigError } from '../../../core/errors.js';
import { bootstrap, bootstrapPValue, kendallTauB, olsResiduals, partialKendall, pearson } from '../../../stats/index.js';
import { scoreColumn, type ScoreTable } from './score-table.js';

export interface TauCell {
  a: string;
  b: string;
  tau: number;
  lower: number;
  upper: number;
  p: number;
}

export interface PartialCell {
  a: string;
  b: string;
  controls: string[];
  zeroOrder: number;
  partial: number;
  lower: number;
  upper: number;
  /**
   * Two-sided bootstrap p-value: twice the smaller share of replicates on either side of 0; when
   * none lies on one side, the bound 2/B (`pBootstrapUpperBound`), never 0.
   */
  pBootstrap: number;
  /** True when pBootstrap is an upper bound (no replicate on one side of 0): print it as "< pBootstrap". */
  pBootstrapUpperBound: boolean;
  /** Why the partial tau is undefined on the models' scores (partialKendall's reason); absent when it is defined. */
  reason?: string;
  /** 1 - partial / zero-order. */
  shrinkage: number;
}

export interface BenchmarkAudit {
  models: number;
  withinTom: TauCell[];
  withinGeneral: TauCell[];
  crossConstruct: TauCell[];
  means: { withinTom: number; withinGeneral: number; crossConstruct: number };
  partial: PartialCell[];
  method: 'residual' | 'inverse';
  /**
   * Per ToM benchmark: generalShare is the paper's composite r-squared (on the mean of the
   * standardised general benchmarks) and unexplained = 1 - generalShare; multipleR2 is the
   * R-squared of the regression on all general benchmarks (with an intercept) and
   * multipleUnexplained = 1 - multipleR2. They agree with one general benchmark.
   */
  varianceDecomposition: Array<{
    benchmark: string;
    generalShare: number;
    unexplained: number;
    multipleR2: number;
    multipleUnexplained: number;
  }>;
  bootstrap: { iterations: number; seed: number };
}

const pairs = (xs: string[]) => xs.flatMap((a, i) => xs.slice(i + 1).map((b) => [a, b] as const));

function zScores(x: number[]): number[] {
  const m = x.reduce((a, b) => a + b, 0) / x.length;
  const sd = Math.sqrt(x.reduce((a, b) => a + (b - m) ** 2, 0) / (x.length - 1));
  return x.map((v) => (v - m) / sd);
}

const pick = (x: number[], idx: Int32Array) => Array.from(idx, (i) => x[i]!);

/** The audit from benchmark-level scores (audit paper Tables 7-8): convergent tau within ToM and general benchmarks, cross-construct tau, partial tau and the variance decomposition. */
export function auditBenchmarks(
  table: ScoreTable,
  opts: { tom: string[]; general: string[]; iterations?: number; seed?: number; method?: 'residual' | 'inverse' },
): BenchmarkAudit {
  const iterations = opts.iterations ?? 1000;
  const seed = opts.seed ?? 0;
  const method = opts.method ?? 'residual';
  const n = table.models.length;
  if (n < 3) throw new ConfigError(`the audit needs at least 3 models, the table has ${n}`);
  if (opts.tom.length < 2) throw new ConfigError('give at least two ToM benchmarks (--tom a,b)');
  for (const name of [...opts.tom, ...opts.general]) scoreColumn(table, name);
  const col = (name: string) => scoreColumn(table, name);
  const tauCell = (a: string, b: string): TauCell => {
    const k = kendallTauB(col(a), col(b));
    const boot = bootstrap(n, (idx) => kendallTauB(pick(col(a), idx), pick(col(b), idx)).tau, { iterations, seed: `${seed}:${a}:${b}` });
    return { a, b, tau: k.tau, lower: boot.lower, upper: boot.upper, p: k.p };
  };
  const withinTom = pairs(opts.tom).map(([a, b]) => tauCell(a, b));
  const withinGeneral = pairs(opts.general).map(([a, b]) => tauCell(a, b));
  const crossConstruct = opts.tom.flatMap((t) => opts.general.map((g) => tauCell(t, g))).sort((x, y) => y.tau - x.tau);
  const mean = (cells: TauCell[]) => (cells.length ? cells.reduce((s, c) => s + c.tau, 0) / cells.length : Number.NaN);

  const controlSets = opts.general.length > 1 ? [...opts.general.map((g) => [g]), opts.general] : opts.general.map((g) => [g]);
  const partial: PartialCell[] = [];
  for (const [a, b] of pairs(opts.tom)) {
    const zeroOrder = kendallTauB(col(a), col(b)).tau;
    for (const controls of controlSets) {
      const point = partialKendall(col(a), col(b), controls.map(col), method);
      const est = point.estimate;
      const boot = bootstrap(
        n,
        (idx) =>
          partialKendall(
            pick(col(a), idx),
            pick(col(b), idx),
            controls.map((c) => pick(col(c), idx)),
            method,
          ).estimate,
        { iterations, seed: `${seed}:${a}:${b}:${controls.join('+')}` },
      );
      const pb = bootstrapPValue(boot.replicates);
      partial.push({
        a,
        b,
        controls,
        zeroOrder,
        partial: est,
        lower: boot.lower,
        upper: boot.upper,
        pBootstrap: pb.p,
        pBootstrapUpperBound: pb.upperBound,
        shrinkage: 1 - est / zeroOrder,
        ...(point.reason ? { reason: point.reason } : {}),
      });
    }
  }

  const composite = opts.general.length
    ? opts.general.map((g) => zScores(col(g))).reduce((acc, z) => acc.map((v, i) => v + z[i]! / opts.general.length), new Array(n).fill(0))
    : [];
  const varianceDecomposition = opts.general.length
    ? opts.tom.map((t) => {
        const r2 = pearson(col(t), composite) ** 2;
        const y = col(t);
        const my = y.reduce((a, b) => a + b, 0) / n;
        const ss = y.reduce((a, b) => a + (b - my) ** 2, 0);
        const residuals = olsResiduals(y, opts.general.map(col));
        const multipleR2 = 1 - residuals.reduce((a, e) => a + e * e, 0) / ss;
        return { benchmark: t, generalShare: r2, unexplained: 1 - r2, multipleR2, multipleUnexplained: 1 - multipleR2 };
      })
    : [];
  return {
    models: n,
    withinTom,
    withinGeneral,
    crossConstruct,
    means: { withinTom: mean(withinTom), withinGeneral: mean(withinGeneral), crossConstruct: mean(crossConstruct) },
    partial,
    method,
    varianceDecomposition,
    bootstrap: { iterations, seed },
  };
}
