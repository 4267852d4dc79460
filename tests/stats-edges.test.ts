// Statistics at their edges: a p-value far in the tail keeps its digits in both sample orders
// and prints them; degenerate data give NaN with a reason (or a clear error), not a number
// computed from rounding noise; values equal up to rounding noise are ties; a bootstrap p-value
// with no replicate beyond the null is reported as a bound, never as 0, in JSON and in print.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditBenchmarks, auditMatrices, parseScoreTable, simulatePanel } from '../src/studies/audit/index.js';
import { easyHardGap } from '../src/studies/dialtom/index.js';
import { formatPValue } from '../src/report/index.js';
import * as stats from '../src/stats/index.js';
import { runCli } from './helpers/run-cli.js';

const relClose = (actual: number, expected: number, rel = 1e-9) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * expected);

describe('Mann-Whitney p far in the tail', () => {
  it('is the same in both sample orders and agrees with SciPy (60 ones + 76 zeros against 136 zeros)', () => {
    const x = [...Array(60).fill(1), ...Array(76).fill(0)];
    const y = Array(136).fill(0);
    // scipy.stats.mannwhitneyu(x, y, method="asymptotic").pvalue, either order.
    relClose(stats.mannWhitneyU(x, y).p, 2.010986131197238e-18);
    relClose(stats.mannWhitneyU(y, x).p, 2.010986131197238e-18);
  });

  it("easyHardGap on DialToM's Table 22 row (GPT-4.1, MI) gives SciPy's p and prints it", () => {
    const easy = Array(136).fill(1);
    const hard = Array.from({ length: 136 }, (_, i) => (i < 20 ? 1 : 0));
    const g = easyHardGap(hard, easy);
    relClose(g.p, 9.891932847282137e-46); // scipy.stats.mannwhitneyu(easy, hard, method="asymptotic")
    expect(formatPValue(g.p)).toBe('9.9e-46');
  });

  it('p-values print with their digits: four decimals from 0.0001, scientific notation below, bounds with "<"', () => {
    expect(formatPValue(0.04567)).toBe('0.0457');
    expect(formatPValue(0.0001)).toBe('0.0001');
    expect(formatPValue(2.010986131197238e-18)).toBe('2.0e-18');
    expect(formatPValue(0.002, { upperBound: true })).toBe('< 0.0020');
    expect(formatPValue(0)).toBe('< 1e-300');
    expect(formatPValue(Number.NaN)).toBe('-');
  });

  it('the DialToM CLI prints a positional-bias p of 1e-100 as such, not as 0.0000', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-p-'));
    const file = join(dir, 'positions.csv');
    writeFileSync(file, 'domain,A,B,C,D\nMI,300,10,10,10\n');
    const r = await runCli(['analyze', 'dialtom', '--positions', file]);
    expect(r.code, r.stderr).toBe(0);
    const p = stats.chiSquareGoodnessOfFit([300, 10, 10, 10]).p;
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-100);
    expect(r.stdout).toContain(formatPValue(p));
    expect(r.stdout).not.toMatch(/0\.0000/);
  });
});

describe('degenerate input to the correlations', () => {
  it('partial Kendall (residual): a constant x, two observations, or no observations give NaN with a reason', () => {
    const y = [1, 2, 3, 5, 4];
    const z = [2, 3, 1, 5, 4];
    // Before: tau -0.105, p 0.83 from the ranks of the residuals' rounding noise.
    const constant = stats.partialKendall([1, 1, 1, 1, 1], y, [z], 'residual');
    expect([constant.estimate, constant.statistic, constant.p]).toEqual([Number.NaN, Number.NaN, Number.NaN]);
    expect(constant.reason).toBe('x is constant: the partial correlation is undefined');
    // Before: tau 1, p 1 (two points, one control and an intercept: residuals are exactly 0).
    const two = stats.partialKendall([1, 2], [2, 1], [[1, 3]], 'residual');
    expect(two.estimate).toBeNaN();
    expect(two.reason).toBe('2 observations with 1 control: a partial Kendall tau needs at least 4');
    // Before: "Matrix must be non-empty".
    const none = stats.partialKendall([], [], [[]]);
    expect(none.estimate).toBeNaN();
    expect(none.reason).toBe('0 observations with 1 control: a partial Kendall tau needs at least 4');
    // x an exact linear function of the control: its residuals are rounding noise.
    const explained = stats.partialKendall(
      z.map((v) => 0.1 + 0.7 * v),
      y,
      [z],
    );
    expect(explained.reason).toBe('the controls explain x exactly: its residuals are rounding noise');
  });

  it('Kendall tau-b: a constant variable or fewer than 3 pairs give NaN with a reason, not a p of 1', () => {
    expect(stats.kendallTauB([1, 1, 1, 1], [1, 2, 3, 4])).toMatchObject({
      tau: Number.NaN,
      p: Number.NaN,
      reason: 'x is constant: the correlation is undefined',
    });
    expect(stats.kendallTauB([1, 2], [1, 2])).toMatchObject({
      tau: Number.NaN,
      reason: '2 pairs of values: a correlation needs at least 3',
    });
    // 0.1 + 0.2, 0.3, 0.7 - 0.4, 0.5 - 0.2: constant in exact arithmetic (SciPy ranks the noise: tau -0.548).
    const noise = [0.1 + 0.2, 0.3, 0.7 - 0.4, 0.5 - 0.2];
    expect(stats.kendallTauB(noise, [1, 2, 3, 4]).reason).toBe('x is constant: the correlation is undefined');
    expect(stats.spearman(noise, [1, 2, 3, 4])).toBeNaN();
    expect(stats.pearson(noise, [1, 2, 3, 4])).toBeNaN();
  });

  it('Spearman counts values equal up to rounding noise as ties (SciPy on the values rounded to 12 decimals)', () => {
    // Gaps of tenths: 0.7 - 0.4 and 0.5 - 0.2 are both 0.3 (and 0.9 - 0.6 too), but not in floating point.
    const gaps = [0.7 - 0.4, 0.5 - 0.2, 0.9 - 0.6, 0.8 - 0.7, 0.3 - 0.2, 0.6 - 0.1, 0.4 - 0.3];
    const y = [5, 1, 3, 2, 7, 4, 6];
    // scipy.stats.spearmanr(np.round(gaps, 12), y): -0.34718253741470684 (unrounded: -0.5714285714285715).
    expect(stats.spearman(gaps, y)).toBeCloseTo(-0.34718253741470684, 12);
    expect(Array.from(stats.rank(gaps))).toEqual([5, 5, 5, 2, 2, 7, 2]);
  });

  it('chi-square goodness of fit with no categories names that, not the probabilities', () => {
    // Before: "probabilities sum to 0, not 1".
    expect(() => stats.chiSquareGoodnessOfFit([])).toThrow('chiSquareGoodnessOfFit: needs at least 2 categories, observed has 0');
    expect(stats.chiSquareGoodnessOfFit([0, 0, 0])).toMatchObject({
      statistic: Number.NaN,
      p: Number.NaN,
      reason: 'no observations: every count is 0',
    });
  });
});

describe('bootstrap p-values with no replicate beyond the null', () => {
  // 20 models: A and B share a ToM ability beyond the general one, so that every resample keeps the partial tau above 0.
  const models = Array.from({ length: 20 }, (_, i) => i);
  const general = models.map((i) => ((i * 7) % 20) / 20);
  const tom = models.map((i) => i / 20);
  const table = [
    'model,A,B,G',
    ...models.map(
      (i) =>
        `m${i},${(tom[i]! + 0.01 * ((i * 3) % 5)).toFixed(3)},${(tom[i]! + 0.01 * ((i * 11) % 4)).toFixed(3)},${general[i]!.toFixed(3)}`,
    ),
  ].join('\n');

  it('benchmark-level audit: pBootstrap is the bound 2/B, flagged, in JSON, the terminal table and the report', async () => {
    const audit = auditBenchmarks(parseScoreTable(table), { tom: ['A', 'B'], general: ['G'], iterations: 200, seed: 1 });
    const p = audit.partial[0]!;
    expect(p.partial).toBeGreaterThan(0.5);
    expect(p.pBootstrap).toBe(0.01);
    expect(p.pBootstrapUpperBound).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-pboot-'));
    const file = join(dir, 'scores.csv');
    writeFileSync(file, table);
    const args = ['audit', '--scores', file, '--tom', 'A,B', '--general', 'G', '--bootstrap', '200', '--seed', '1'];
    const json = await runCli([...args, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).partial[0]).toMatchObject({ pBootstrap: 0.01, pBootstrapUpperBound: true });
    const text = await runCli([...args, '--report', join(dir, 'rep')]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/A ~ B\s+G\s+.*< 0\.0100/);
    expect(readFileSync(join(dir, 'rep', 'audit-scores.html'), 'utf8')).toContain('<td>&lt; 0.0100</td>');
  });

  it('cross-fit: p and its Holm adjustment are bounds, never 0, when every resampled mean gain is positive', async () => {
    const panel = simulatePanel({
      models: 27,
      benchmarks: [
        { name: 'A', items: { belief: 70, desire: 50 } },
        { name: 'B', items: { belief: 70, desire: 50 } },
      ],
      structure: 'single',
      seed: 3,
    });
    const a = await auditMatrices(panel.matrices, {
      convergence: { iterations: 100 },
      crossFit: { iterations: 200 },
      parallelIterations: 5,
    });
    const bounded = a.crossFit.cells.filter((c) => c.pUpperBound);
    expect(bounded.length).toBeGreaterThan(0);
    for (const c of a.crossFit.cells) {
      expect(c.p).toBeGreaterThan(0);
      expect(c.pHolm).toBeGreaterThan(0);
    }
    for (const c of bounded) {
      expect(c.p).toBe(2 / 200);
      expect(c.pHolmUpperBound).toBe(true);
    }
  });

  it('bootstrapPValue: twice the smaller side; the bound 2/B when one side is empty; NaN replicates left out', () => {
    expect(stats.bootstrapPValue([0.1, 0.2, -0.1, 0.3])).toEqual({ p: 0.5, upperBound: false, replicates: 4 });
    expect(stats.bootstrapPValue([0.1, 0.2, Number.NaN, 0.3, 0.4])).toEqual({ p: 0.5, upperBound: true, replicates: 4 });
    expect(stats.bootstrapPValue([0, 0.2])).toEqual({ p: 1, upperBound: false, replicates: 2 });
    expect(stats.bootstrapPValue([Number.NaN]).p).toBeNaN();
  });

  it('Holm with bounds: a bound that could move ahead of an exact p makes its adjusted value a bound too', () => {
    // p = 0.0015 exact and a bound 0.002 (true value anywhere below): Holm gives 0.003 to both,
    // but with the bound's true p at 0.0001 the exact one would be adjusted to 0.0015 only.
    const r = stats.holmWithBounds([0.0015, 0.002, 0.04], [false, true, false]);
    expect(r.adjusted).toEqual(stats.holm([0.0015, 0.002, 0.04]));
    expect(r.upperBound).toEqual([true, true, false]);
    expect(stats.holmWithBounds([0.01, 0.3], [false, false]).upperBound).toEqual([false, false]);
  });
});

describe('infinite values', () => {
  it('rank gives them mid-ranks beside near-ties; correlations treat them as not finite: NaN with a reason', () => {
    const x = [Number.POSITIVE_INFINITY, 0.3, 0.1 + 0.2, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1];
    expect(Array.from(stats.rank(x))).toEqual([5.5, 2.5, 2.5, 5.5, 1, 4]);
    const y = [1, 2, 3, 4, 5, 6];
    expect(stats.kendallTauB(x, y)).toMatchObject({ tau: Number.NaN, reason: 'x has a value that is not a finite number' });
    expect([stats.kendallTau(x, y), stats.spearman(x, y), stats.pearson(x, y)]).toEqual([Number.NaN, Number.NaN, Number.NaN]);
    expect(stats.partialKendall(y, [2, 1, 4, 3, 6, 5], [x]).reason).toBe('controls[0] has a value that is not a finite number');
  });
});
