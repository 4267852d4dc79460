// Confirmatory factor analysis of the category structure (audit --cfa): mindscope's ML fits of
// one factor, one correlated factor per category and a bifactor model, on item parcels and on
// items, against lavaan's (tests/fixtures/vectors/generated/cfa/cfa_lavaan.R wrote the JSON).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  confirmatoryFactorAnalysis,
  prepareBenchmarks,
  readMatrixCsv,
  type CfaModelFit,
  type ConfirmatoryResult,
} from '../src/studies/audit/index.js';
import { cfaFitIndices, noncentralChiSquareCdf } from '../src/stats/index.js';
import { runCli } from './helpers/run-cli.js';

const DIR = join(__dirname, 'fixtures', 'vectors', 'generated', 'cfa');

interface LavaanFit {
  converged: boolean;
  measures: Record<string, number>;
  factors: string[];
  loadings: number[][];
  factor_correlations: number[][];
  residual_variances: number[];
}
interface LavaanDataset {
  file: string;
  parcels: number;
  models: number;
  indicators: string[];
  categories: string[];
  fits: Record<'one-factor' | 'one-per-category' | 'bifactor', LavaanFit>;
}
const reference = JSON.parse(readFileSync(join(DIR, 'cfa_lavaan.json'), 'utf8')) as {
  tools: Record<string, string>;
  datasets: LavaanDataset[];
};

const MEASURES: Array<[keyof CfaModelFit, string]> = [
  ['chisq', 'chisq'],
  ['df', 'df'],
  ['pValue', 'pvalue'],
  ['baselineChisq', 'baseline.chisq'],
  ['baselineDf', 'baseline.df'],
  ['cfi', 'cfi'],
  ['tli', 'tli'],
  ['rmsea', 'rmsea'],
  ['rmseaLower', 'rmsea.ci.lower'],
  ['rmseaUpper', 'rmsea.ci.upper'],
  ['srmr', 'srmr'],
  ['parameters', 'npar'],
];

function expectLike(fit: CfaModelFit, ref: LavaanFit, indicators: string[]) {
  expect(fit.converged).toBe(true);
  expect(ref.converged).toBe(true);
  for (const [ours, theirs] of MEASURES) {
    // lavaan finds the RMSEA bounds with uniroot at its default tolerance (about 1e-4 in the noncentrality).
    const tol = ours === 'rmseaLower' || ours === 'rmseaUpper' ? 2e-5 : 1e-6;
    expect(Math.abs((fit[ours] as number) - ref.measures[theirs]!), `${fit.model} ${ours}`).toBeLessThan(
      tol * Math.max(1, Math.abs(ref.measures[theirs]!)),
    );
  }
  // lavaan's fmin is half the ML discrepancy.
  expect(fit.fmin / 2).toBeCloseTo(ref.measures.fmin!, 8);
  expect(fit.factors).toEqual(ref.factors);
  // Standardised loadings, by indicator and factor (lavaan's zeros are the pattern's).
  for (const l of fit.loadings) {
    const i = indicators.indexOf(l.indicator);
    const f = ref.factors.indexOf(l.factor);
    expect(Math.abs(l.loading - ref.loadings[i]![f]!), `${fit.model} ${l.indicator} on ${l.factor}`).toBeLessThan(2e-4);
  }
  expect(fit.loadings).toHaveLength(ref.loadings.flat().filter((v) => v !== 0).length);
  ref.residual_variances.forEach((v, i) => expect(Math.abs(fit.residualVariances[i]! - v)).toBeLessThan(2e-4));
  ref.factor_correlations.forEach((row, f) =>
    row.forEach((v, g) => expect(Math.abs(fit.factorCorrelations[f]![g]! - v)).toBeLessThan(2e-4)),
  );
}

function fitDataset(ds: LavaanDataset, structure: 'one-per-category' | 'bifactor'): ConfirmatoryResult {
  const panel = prepareBenchmarks([{ name: 'x', matrix: readMatrixCsv(join(DIR, ds.file)) }]);
  return confirmatoryFactorAnalysis('x', panel.benchmarks[0]!.items, panel.models.length, { structure, parcels: ds.parcels });
}

describe('CFA against lavaan 0.6 (ML, std.lv)', () => {
  for (const ds of reference.datasets)
    for (const structure of ['one-per-category', 'bifactor'] as const)
      it(`${ds.file} (${ds.parcels ? `${ds.parcels} parcels per category` : 'items'}): one factor and ${structure}`, () => {
        const r = fitDataset(ds, structure);
        expect(r.indicators.list.map((x) => x.name)).toEqual(ds.indicators);
        expect(r.indicators.list.map((x) => x.category)).toEqual(ds.categories);
        expect(r.models).toBe(ds.models);
        expectLike(r.oneFactor, ds.fits['one-factor'], ds.indicators);
        expectLike(r.structure, ds.fits[structure], ds.indicators);
        // The one-factor model is nested in both structures: the difference test.
        expect(r.comparison.deltaChisq).toBeCloseTo(ds.fits['one-factor'].measures.chisq! - ds.fits[structure].measures.chisq!, 5);
        expect(r.comparison.deltaDf).toBe(ds.fits['one-factor'].measures.df! - ds.fits[structure].measures.df!);
      });

  it('parcels: 18 items per category in 3 parcels of 6 (varying items only), a Heywood case named; bifactor ECV from the loadings', () => {
    const ds = reference.datasets.find((d) => d.parcels === 3)!;
    const r = fitDataset(ds, 'bifactor');
    expect(r.indicators.list.reduce((s, x) => s + x.items, 0)).toBeLessThanOrEqual(90);
    expect(r.indicators.list.every((x) => x.items >= 5 && x.items <= 6)).toBe(true);
    // lavaan's negative residual variance is ours too.
    const negative = ds.fits.bifactor.residual_variances.flatMap((v, i) => (v < 0 ? [ds.indicators[i]] : []));
    expect(r.structure.heywood).toEqual(negative);
    const ref = ds.fits.bifactor;
    const g = ref.loadings.reduce((s, row) => s + row[0]! ** 2, 0);
    const all = ref.loadings.reduce((s, row) => s + row.reduce((t, v) => t + v * v, 0), 0);
    expect(r.structure.ecv).toBeCloseTo(g / all, 4);
    expect(r.structure.ecv!).toBeGreaterThan(0);
  });
});

describe('noncentral chi-square distribution', () => {
  it("equals R's pchisq(x, df, ncp) (values from R 4.2)", () => {
    // pchisq(c(96.05, 150, 10), c(75, 60, 3), ncp = c(20, 80, 0.5))
    expect(noncentralChiSquareCdf(96.05, 75, 20)).toBeCloseTo(0.547988, 6);
    expect(noncentralChiSquareCdf(150, 60, 80)).toBeCloseTo(0.6949786, 6);
    expect(noncentralChiSquareCdf(10, 3, 0.5)).toBeCloseTo(0.9655203, 6);
  });

  it('ends, with 0, where every term of its sum underflows; NaN where the sum cannot end', () => {
    // Near 0 with 1 df the CDF is e^(-ncp/2) sqrt(2x / pi); with 40 df every term is below the smallest double.
    expect(noncentralChiSquareCdf(1e-300, 1, 5) / (Math.exp(-2.5) * Math.sqrt(2e-300 / Math.PI))).toBeCloseTo(1, 10);
    expect(noncentralChiSquareCdf(1e-20, 40, 5)).toBe(0);
    expect(noncentralChiSquareCdf(1e-300, 40, 3)).toBe(0);
    for (const [x, df, ncp] of [
      [Number.NaN, 3, 1],
      [1, Number.NaN, 1],
      [1, 3, Number.NaN],
      [1, 0, 1],
      [1, 3, Number.POSITIVE_INFINITY],
    ] as const)
      expect(noncentralChiSquareCdf(x, df, ncp)).toBeNaN();
  });
});

describe('CFI and TLI where their ratios have no denominator', () => {
  const indices = (chisq: number, df: number, baselineChisq: number, baselineDf: number) =>
    cfaFitIndices({ chisq, df, baselineChisq, baselineDf, n: 50, sample: [[1]], implied: [[1]] });

  it("are 1 as lavaan's lav_fit_cfi and lav_fit_tli give them, not NaN or infinite", () => {
    // Neither statistic above its df: CFI = 1 - 0/0.
    expect(indices(0.5, 1, 0.5, 1).cfi).toBe(1);
    expect(indices(0.9, 2, 5, 6).cfi).toBe(1);
    // The independence model's statistic equal to its df: TLI's denominator is 0.
    expect(indices(3, 1, 10, 10).tli).toBe(1);
    expect(indices(0.5, 1, 10, 10).tli).toBe(1);
    // Elsewhere the same as before: 1 - t1/t2 and the ratio of the chi-squares over df.
    const r = indices(30, 10, 200, 45);
    expect(r.cfi).toBeCloseTo(1 - 20 / 155, 14);
    expect(r.tli).toBeCloseTo((200 / 45 - 3) / (200 / 45 - 1), 14);
  });
});

describe("RMSEA's 90% interval", () => {
  const indices = (chisq: number, df: number, n: number) =>
    cfaFitIndices({ chisq, df, baselineChisq: 100, baselineDf: 10, n, sample: [[1]], implied: [[1]] });

  it('contains RMSEA, with few observations and small statistics too', () => {
    fc.assert(
      fc.property(
        // Small statistics and few observations among them: where the upper bound lies beyond max(N, 4 chi-square).
        fc.oneof(fc.double({ min: 0, max: 5, noNaN: true }), fc.double({ min: 0, max: 60, noNaN: true })),
        fc.integer({ min: 1, max: 30 }),
        fc.oneof(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 2, max: 300 })),
        (chisq, df, n) => {
          const r = indices(chisq, df, n);
          expect(r.rmseaLower).toBeLessThanOrEqual(r.rmsea);
          expect(r.rmseaUpper).toBeGreaterThanOrEqual(r.rmsea);
          // The upper bound's noncentrality leaves 5% of the distribution below the statistic.
          if (noncentralChiSquareCdf(chisq, df, 0) > 0.05)
            expect(noncentralChiSquareCdf(chisq, df, r.rmseaUpper ** 2 * n * df)).toBeCloseTo(0.05, 6);
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });

  it('is the same noncentrality at any number of observations, scaled by 1/N', () => {
    // chi-square 2 on 1 df: the upper noncentrality is about 9.36, beyond max(N, 4 chi-square) at N = 3.
    const few = indices(2, 1, 3);
    const many = indices(2, 1, 100);
    expect(few.rmsea).toBeCloseTo(Math.sqrt(1 / 3), 12);
    expect(few.rmseaUpper ** 2 * 3).toBeCloseTo(many.rmseaUpper ** 2 * 100, 6);
    expect(few.rmseaUpper).toBeGreaterThan(few.rmsea);
  });
});

describe('mindscope audit --cfa', () => {
  it('prints the fits as text and JSON, with the numbers lavaan gives', async () => {
    const ds = reference.datasets.find((d) => d.parcels === 3)!;
    const args = [
      'audit',
      '--matrix',
      `panel=${join(DIR, ds.file)}`,
      '--bootstrap',
      '10',
      '--seeds',
      '1',
      '--structure',
      'pca',
      '--cfa',
      'bifactor',
    ];
    const text = await runCli(args);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('panel: 15 indicators (3 item parcels per category), 60 models');
    expect(text.stdout).toMatch(/one factor +1 +233\.54 +90 .* 0\.639 +0\.579 +0\.163 \[0\.138, 0\.189\] +0\.114 +yes/);
    expect(text.stdout).toMatch(/bifactor +6 +96\.05 +75 .* 0\.947 +0\.926 +0\.068 \[0\.000, 0\.106\] +0\.071 +yes/);
    expect(text.stdout).toContain('bifactor against one factor: delta chi2 137.49 on 15 df');
    expect(text.stdout).toContain('negative residual variance (Heywood case) for belief.p2');
    const json = await runCli([...args, '--json']);
    const cfa = JSON.parse(json.stdout).cfa as ConfirmatoryResult[];
    expect(cfa).toHaveLength(1);
    expect(cfa[0]!.estimator).toBe('ML');
    expect(cfa[0]!.correlation).toBe('pearson');
    expect(cfa[0]!.structure.chisq).toBeCloseTo(ds.fits.bifactor.measures.chisq!, 6);
    expect(cfa[0]!.structure.rmseaUpper).toBeCloseTo(ds.fits.bifactor.measures['rmsea.ci.upper']!, 4);
  });

  it('items as indicators (--cfa-parcels 0); refused with too many items, a bad model name or one parcel', async () => {
    const items = reference.datasets.find((d) => d.parcels === 0)!;
    const run = (extra: string[], file = items.file) =>
      runCli(['audit', '--matrix', `m=${join(DIR, file)}`, '--bootstrap', '10', '--seeds', '1', '--structure', 'pca', ...extra]);
    const ok = await run(['--cfa', 'one-per-category', '--cfa-parcels', '0', '--json']);
    expect(ok.code).toBe(0);
    const r = (JSON.parse(ok.stdout).cfa as ConfirmatoryResult[])[0]!;
    expect(r.indicators.kind).toBe('items');
    expect(r.structure.chisq).toBeCloseTo(items.fits['one-per-category'].measures.chisq!, 6);
    // 90 items on 60 models: no ML fit item by item; the matrix is named with the reason.
    const wide = await run(['--cfa', 'one-per-category', '--cfa-parcels', '0'], 'cfa_parcels_60x90.csv');
    expect(wide.code).toBe(0);
    expect(wide.stdout).toContain(
      'm: not fitted: m: 90 indicators for 60 models: ML needs fewer indicators than models (fit parcels instead: --cfa-parcels 3)',
    );
    const bad = await run(['--cfa', 'two-factor']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--cfa must be one-per-category or bifactor, not "two-factor"');
    const one = await run(['--cfa', 'bifactor', '--cfa-parcels', '1']);
    expect(one.code).not.toBe(0);
    expect(one.stderr).toContain('--cfa-parcels must be 0 (the items) or at least 2, not 1');
  });
});
