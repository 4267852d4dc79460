// The audit paper's analyses that were missing or differed (issue 15, "Audit (seed 000)"): the
// category filter of stages 1 and 3, the stage-1 intervals and their coverage of a known true
// tau, Table 6's sample-loss counts, Kaiser's count and the scree elbow beside parallel analysis,
// the retention chart, and score tables with text columns.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Matrix } from 'ml-matrix';
import { describe, expect, it } from 'vitest';
import * as stats from '../src/stats/index.js';

import {
  auditMatrices,
  intervalCoverage,
  renderAuditReport,
  screeElbow,
  simulatePanel,
  trueStage1Tau,
  type MatrixAudit,
} from '../src/studies/audit/index.js';
import { runCli } from './helpers/run-cli.js';

const fast = { convergence: { iterations: 200 }, crossFit: { iterations: 200, seeds: 2 }, parallelIterations: 6 };
// The three benchmarks' categories as in the paper: non-literal in two of them, percept in one.
const paperLike = (seed: number) =>
  simulatePanel({
    models: 12,
    benchmarks: [
      { name: 'ToMBench', items: { belief: 40, desire: 30, emotion: 30, intention: 30, knowledge: 30, 'non-literal': 30 } },
      { name: 'ToMATO', items: { belief: 40, desire: 30, emotion: 30, intention: 30, knowledge: 30 } },
      { name: 'CogToM', items: { belief: 40, desire: 30, emotion: 30, intention: 30, knowledge: 30, percept: 30, 'non-literal': 30 } },
    ],
    structure: 'single',
    seed,
  });

describe('category filter of stages 1 and 3', () => {
  it("defaults to the paper's five ATOMS categories for ToMBench/ToMATO/CogToM: non-literal stays out of the cells and the Holm family", async () => {
    const panel = paperLike(4);
    const a = await auditMatrices(panel.matrices, { ...fast, structure: 'pca' });
    expect(a.categories.filter).toEqual(['belief', 'desire', 'emotion', 'intention', 'knowledge']);
    for (const cells of [a.convergence.cells, a.convergenceFiltered.cells, a.crossFit.cells]) {
      expect(cells).toHaveLength(15);
      expect(cells.some((c) => c.category === 'non-literal' || c.category === 'percept')).toBe(false);
    }
    const pair = a.convergence.pairs.find((p) => p.pair.join() === 'ToMBench,CogToM')!;
    expect(pair.leftOutCategories).toEqual(['non-literal']);
    expect(pair.excludedCategories).toEqual(['percept']);
    // Holm over the pair's five p-values only.
    const cells = a.convergence.cells.filter((c) => c.pair.join() === 'ToMBench,CogToM');
    expect(cells.map((c) => c.pHolm)).toEqual(stats.holm(cells.map((c) => c.p)));
    // Stage 2 and the structure still see every item.
    expect(a.filter.benchmarks[2]!.total).toBe(220);
    // 'all' tests non-literal where both benchmarks have it; a list tests just those.
    const all = await auditMatrices(panel.matrices, { ...fast, structure: 'pca', categories: 'all' });
    expect(all.convergence.cells.filter((c) => c.category === 'non-literal').map((c) => c.pair.join())).toEqual(['ToMBench,CogToM']);
    const two = await auditMatrices(panel.matrices, { ...fast, structure: 'pca', categories: ['belief', 'knowledge'] });
    expect([...new Set(two.convergence.cells.map((c) => c.category))]).toEqual(['belief', 'knowledge']);
    // Other benchmark names: every shared category, as before.
    const renamed = panel.matrices.map((m, i) => ({ ...m, name: `bench${i}` }));
    const other = await auditMatrices(renamed, { ...fast, structure: 'pca' });
    expect(other.categories.filter).toBe('all');
    expect(other.convergence.cells.some((c) => c.category === 'non-literal')).toBe(true);
  });

  it('the CLI takes --categories and names categories no benchmark has', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-cats-'));
    const sim = await runCli(['simulate', 'panel', '--out', dir, '--items', '15', '--models', '8', '--seed', '2']);
    expect(sim.code).toBe(0);
    const run = (extra: string[]) =>
      runCli([
        'audit',
        '--matrix',
        `A=${join(dir, 'benchA.csv')}`,
        `B=${join(dir, 'benchB.csv')}`,
        '--bootstrap',
        '50',
        '--seeds',
        '1',
        '--structure',
        'pca',
        ...extra,
      ]);
    const r = await run(['--categories', 'belief,desire', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.categories).toEqual({ filter: ['belief', 'desire'], source: 'given (--categories)' });
    expect(out.convergence.cells.map((c: { category: string }) => c.category)).toEqual(['belief', 'desire']);
    expect(out.convergence.pairs[0].leftOutCategories).toEqual(['emotion', 'intention', 'knowledge']);
    const bad = await run(['--categories', 'belief,percept']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--categories: no benchmark has items in percept/);
    expect((await run(['--interval', 'studentized'])).stderr).toMatch(/--interval must be one of percentile, basic, bc, bca/);
  });
});

describe('stage-1 intervals', () => {
  it('the default is the basic interval beside the percentile one, with a note in JSON and report where the percentile interval misses its estimate', async () => {
    // High tau (one latent ability), few items per category: the regime of the tau
    // 0.909 with the percentile interval [0.702, 0.858].
    const cats = { belief: 80, desire: 80, emotion: 80 };
    const panel = simulatePanel({
      models: 27,
      benchmarks: [
        { name: 'A', items: cats },
        { name: 'B', items: cats },
      ],
      structure: 'single',
      seed: 2,
    });
    const a = await auditMatrices(panel.matrices, { ...fast, structure: 'pca', convergence: { iterations: 400 } });
    expect(a.convergence.interval).toEqual({ method: 'basic', level: 0.95, iterations: 400 });
    const missed = a.convergence.cells.filter((c) => c.tau > c.percentile.upper);
    expect(missed.map((c) => c.category)).toEqual(['belief', 'desire']);
    // The true tau is 1 here: the basic interval, moved up by the bootstrap's bias, holds it.
    for (const c of missed) {
      expect(c.upper).toBe(1);
      expect(c.note).toMatch(/the percentile interval \[[-0-9.]+, [-0-9.]+\] excludes the estimate/);
      // Reflected, the basic interval then lies above the estimate: said too.
      expect(c.lower).toBeGreaterThan(c.tau);
      expect(c.note).toMatch(/^the basic interval lies above the estimate [0-9.]+: the resamples' tau fall below it/);
    }
    expect(a.convergence.cells.find((c) => c.category === 'emotion')!.note).toBeUndefined();
    // The basic interval reflects the percentile one about the estimate (clipped to 1).
    for (const c of a.convergence.cells) {
      expect(c.lower).toBeCloseTo(Math.max(-1, 2 * c.tau - c.percentile.upper), 12);
      expect(c.upper).toBeCloseTo(Math.min(1, 2 * c.tau - c.percentile.lower), 12);
    }
    const html = await renderAuditReport(a);
    expect(html).toContain('excludes the estimate');
    expect(html).toContain('percentile CI');
    // The paper's method on request: no note, the same interval as before.
    const paper = await auditMatrices(panel.matrices, {
      ...fast,
      structure: 'pca',
      convergence: { iterations: 400, interval: 'percentile' },
    });
    expect(paper.convergence.cells.every((c) => c.note === undefined && c.lower === c.percentile.lower)).toBe(true);
  });

  it('simulated coverage of a known true tau: the percentile interval fails where tau is high and categories small; basic holds best', () => {
    const panel = simulatePanel({
      models: 10,
      benchmarks: [
        { name: 'A', items: { belief: 20 } },
        { name: 'B', items: { belief: 20 } },
      ],
      structure: 'single',
      seed: 1,
    });
    expect(trueStage1Tau(panel, 'A', 'B', 'belief')).toBe(1); // without benchmark-specific abilities
    const r = intervalCoverage({ replications: 16, models: 27, items: 100, benchmarkShare: 0.02, iterations: 300, seed: 3 });
    const cov = Object.fromEntries(r.rows.map((x) => [x.method, x.coverage]));
    expect(r.rows[0]!.cells).toBe(80);
    expect(r.meanTrueTau).toBeGreaterThan(0.8);
    expect(r.meanEstimate).toBeLessThan(r.meanTrueTau); // item noise attenuates the estimate
    expect(cov.percentile).toBeLessThan(0.1);
    expect(cov.basic).toBeGreaterThan(0.65);
    expect(cov.basic).toBeGreaterThan(cov.bca!);
    expect(cov.basic).toBeGreaterThan(cov.bc!);
    // Every percentile miss is below the truth (the replicates are attenuated twice).
    const p = r.rows.find((x) => x.method === 'percentile')!;
    expect(p.above).toBe(0);
  });
});

describe("Table 6, Kaiser's count and the scree elbow", () => {
  it('sample loss as counts per fold: test = kept + lost, rate = lost / test, pooled over pairs, overall over every fold', async () => {
    const panel = paperLike(5);
    const a = await auditMatrices(panel.matrices, { ...fast, structure: 'pca' });
    const K = a.crossFit.settings.folds;
    for (const c of a.crossFit.cells) {
      const conv = a.convergence.cells.find((x) => x.pair.join() === c.pair.join() && x.category === c.category)!;
      expect(c.invalidFolds).toBe(0);
      // Each seed's folds partition the pooled items, so the mean held-out count is their K-th part.
      expect(c.testItems).toBeCloseTo((conv.itemsA + conv.itemsB) / K, 12);
      expect(c.keptItems + c.lostItems).toBeCloseTo(c.testItems, 12);
      expect(c.lossRate).toBeCloseTo(c.lostItems / c.testItems, 12);
    }
    for (const cat of a.crossFit.categories) {
      const cells = a.crossFit.cells.filter((c) => c.category === cat.category);
      expect(cat.testItems).toBeCloseTo(cells.reduce((s, c) => s + c.testItems, 0) / cells.length, 12);
      expect(cat.lossRate).toBeCloseTo(cat.lostItems / cat.testItems, 12);
    }
    const seeds = a.crossFit.settings.seeds;
    expect(a.crossFit.aggregate.tested).toBe(a.convergence.cells.reduce((s, c) => s + (c.itemsA + c.itemsB) * seeds, 0));
    expect(a.crossFit.aggregate.lossRate).toBeCloseTo(a.crossFit.aggregate.lost / a.crossFit.aggregate.tested, 12);
  });

  it("Kaiser's count and the elbow from the correlation matrix's eigenvalues (independent dense decomposition)", async () => {
    // Fewer items than models: the p x p correlation matrix has full rank.
    const narrow = simulatePanel({
      models: 40,
      benchmarks: [
        { name: 'A', items: { belief: 12 } },
        { name: 'B', items: { belief: 12 } },
      ],
      structure: 'single',
      seed: 8,
    });
    const wide = simulatePanel({
      models: 15,
      benchmarks: [
        { name: 'A', items: { belief: 60, desire: 60 } },
        { name: 'B', items: { belief: 60, desire: 60 } },
      ],
      structure: 'single',
      seed: 9,
    });
    for (const panel of [narrow, wide]) {
      const a: MatrixAudit = await auditMatrices(panel.matrices, { ...fast, structure: 'pca' });
      const m = panel.matrices[0]!.matrix;
      const rows = m.cells.filter((r) => r.some((v) => v !== r[0]));
      const data = panel.models.map((_, j) => rows.map((r) => r[j] as number));
      const values = stats.symmetricEigen(new Matrix(stats.correlationMatrix(data))).values;
      expect(a.structure[0]!.kaiser).toBe(values.filter((v) => v > 1 + 1e-9).length);
      const acc = values.slice(1, -1).map((v, i) => values[i]! - 2 * v + values[i + 2]!);
      expect(a.structure[0]!.screeElbow).toBe(acc.indexOf(Math.max(...acc)) + 2);
    }
    expect(screeElbow([10, 3, 2.5, 2])).toBe(2);
    expect(screeElbow([1, 1])).toBeNull();
  });

  it('the report shows the retention chart, Table 6 and Kaiser and the elbow beside parallel analysis', async () => {
    const a = await auditMatrices(paperLike(6).matrices, fast);
    const html = await renderAuditReport(a);
    expect(html).toContain('Stage 2: item retention after the discrimination filter');
    expect(html).toContain('low discrimination');
    expect(html).toContain('Sample loss (held-out items per fold');
    expect(html).toContain('Kaiser (eigenvalue &gt; 1)');
    expect(html).toMatch(/<td>PC\d+<\/td>/);
    expect(html.match(/<svg/g)).toHaveLength(4);
    expect(html).not.toMatch(/NaN|<script/);
  });
});

describe('score tables with text columns', () => {
  it('load when only the named columns are numeric; naming a text column is an error with its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-scores-'));
    const file = join(dir, 'scores.csv');
    writeFileSync(
      file,
      'model,hf_id,family,A,B,G\nm1,org/m1,x,0.5,0.4,0.3\nm2,org/m2,y,0.6,0.5,0.5\nm3,org/m3,x,0.7,0.7,0.6\nm4,org/m4,y,0.4,0.5,0.2\n',
    );
    const run = (args: string[]) => runCli(['audit', '--scores', file, '--bootstrap', '20', ...args]);
    const ok = await run(['--tom', 'A,B', '--general', 'G', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).withinTom[0]).toMatchObject({ a: 'A', b: 'B' });
    const bad = await run(['--tom', 'A,hf_id']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/scores\.csv:2: column "hf_id": "org\/m1" is not a number/);
  });
});

describe('simulate panel and coverage from the CLI', () => {
  it('writes the true tau of every pair and category, and prints the coverage table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-truth-'));
    const sim = await runCli([
      'simulate',
      'panel',
      '--out',
      dir,
      '--items',
      '10',
      '--models',
      '9',
      '--benchmark-share',
      '0.3',
      '--categories',
      'belief,desire',
    ]);
    expect(sim.code).toBe(0);
    const truth = readFileSync(join(dir, 'true-tau.csv'), 'utf8').trim().split('\n');
    expect(truth[0]).toBe('benchmark_a,benchmark_b,category,true_tau');
    expect(truth).toHaveLength(1 + 3 * 2);
    expect(truth.slice(1).every((l) => Number(l.split(',')[3]) < 1)).toBe(true);
    const cov = await runCli([
      'simulate',
      'coverage',
      '--replications',
      '2',
      '--items',
      '30',
      '--bootstrap',
      '50',
      '--categories',
      'belief',
    ]);
    expect(cov.code).toBe(0);
    expect(cov.stdout).toMatch(/stage-1 interval coverage: 2 panels x 1 cells/);
    expect(cov.stdout).toMatch(/basic\s+\d+\.\d%/);
  });
});
