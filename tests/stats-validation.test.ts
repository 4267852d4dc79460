// Library functions refuse input that would give a number that looks valid and is not (issue
// 15, defect 5): NaN, unequal lengths, a misspelt method, ragged or negative tables. Each
// expectation below failed before the fix (the function returned a number).

import { describe, expect, it } from 'vitest';
import * as stats from '../src/stats/index.js';

describe('correlations', () => {
  it('kendallTau: NaN gives NaN (as kendallTauB), unequal lengths throw', () => {
    expect(stats.kendallTau([1, 2, Number.NaN, 4], [1, 2, 3, 4])).toBeNaN();
    expect(stats.kendallTau([1, 2, 3, 4], [4, 3, Number.NaN, 1])).toBeNaN();
    expect(stats.kendallTauB([1, 2, Number.NaN, 4], [1, 2, 3, 4]).tau).toBeNaN();
    // The sorted path (64 values and more) too.
    const long = Array.from({ length: 80 }, (_, i) => i);
    expect(stats.kendallTau([...long.slice(0, 79), Number.NaN], long)).toBeNaN();
    expect(() => stats.kendallTau([1, 2, 3], [1, 2])).toThrow(/kendallTau: x and y differ in length \(3 and 2\)/);
    expect(stats.kendallTau([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(2 / 3, 12);
  });

  it('spearman: NaN gives NaN; rank refuses NaN', () => {
    expect(stats.spearman([1, 2, Number.NaN, 4, 5], [5, 6, 7, 8, 7])).toBeNaN();
    expect(stats.spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, Number.NaN])).toBeNaN();
    expect(() => stats.spearman([1, 2], [1, 2, 3])).toThrow(/spearman: x and y differ in length/);
    expect(() => stats.rank([3, Number.NaN, 1])).toThrow(/rank: x\[1\] is NaN/);
    expect(stats.pearson([1, 2, Number.NaN], [1, 2, 3])).toBeNaN();
  });

  it('partialKendall: a misspelt method or an options object throws; NaN gives NaN; lengths are checked', () => {
    const x = [1, 2, 3, 4, 5, 6];
    const y = [2, 1, 4, 3, 6, 5];
    const z = [1, 1, 2, 2, 3, 3];
    const call = (method: unknown) => stats.partialKendall(x, y, [z], method as 'residual');
    expect(() => call('residul')).toThrow(/partialKendall: method must be 'residual' or 'inverse', not "residul"/);
    expect(() => call({ method: 'residual' })).toThrow(/method must be 'residual' or 'inverse', not \{"method":"residual"\}/);
    expect(call(undefined).method).toBe('residual');
    expect(call('inverse').method).toBe('inverse');
    expect(() => stats.partialKendall(x, y, Float64Array.from(z) as unknown as number[][])).toThrow(
      /controls must be an array of variables/,
    );
    expect(() => stats.partialKendall(x, y, [[1, 2, 3]])).toThrow(/x and controls\[0\] differ in length/);
    expect(() => stats.partialKendall(x, [1, 2], [z])).toThrow(/x and y differ in length/);
    const r = stats.partialKendall([1, 2, Number.NaN, 4, 5, 6], y, [z]);
    expect([r.estimate, r.statistic, r.p].every(Number.isNaN)).toBe(true);
    expect(() => stats.olsResiduals([1, 2, 3], [[1, 2]])).toThrow(/olsResiduals: y and controls\[0\] differ in length/);
  });
});

describe('tests and intervals', () => {
  it('mannWhitneyU refuses NaN and empty samples', () => {
    expect(() => stats.mannWhitneyU([1, 2, Number.NaN], [3, 4])).toThrow(/mannWhitneyU: x\[2\] is NaN, not a finite number/);
    expect(() => stats.mannWhitneyU([1, 2], [Number.NaN])).toThrow(/y\[0\] is NaN/);
    expect(() => stats.mannWhitneyU([], [1, 2])).toThrow(/both samples need values/);
    expect(stats.mannWhitneyU([1, 2, 3], [4, 5, 6]).u).toBe(0);
  });

  it('quantile7 gives NaN for NaN values and refuses q outside [0, 1]', () => {
    expect(stats.quantile7([1, 2, Number.NaN], 0.25)).toBeNaN();
    expect(() => stats.quantile7([1, 2, 3], 1.5)).toThrow(/q must lie in \[0, 1\]/);
    expect(stats.quantile7([1, 2, 3, 4], 0.5)).toBe(2.5);
  });

  it('multiple-comparison adjustments refuse p-values outside [0, 1] (NaN and null stay missing)', () => {
    expect(() => stats.holm([0.01, 1.5])).toThrow(/p-value 1 is 1.5, outside \[0, 1\]/);
    expect(() => stats.benjaminiHochberg([-0.1])).toThrow(/outside \[0, 1\]/);
    expect(() => stats.bonferroni([0.2, 2])).toThrow(/outside \[0, 1\]/);
    expect(stats.holm([0.01, null, Number.NaN, 0.04])).toEqual([0.02, null, null, 0.04]);
  });

  it('binomialTest, mcnemar, wilsonInterval, passAtK and passHatK refuse impossible counts', () => {
    expect(() => stats.binomialTest(5, 3)).toThrow(/binomialTest: needs whole numbers 0 <= k <= n/);
    expect(() => stats.binomialTest(1.5, 3)).toThrow(/whole numbers/);
    expect(() => stats.binomialTest(1, 3, 1.2)).toThrow(/p must lie in \[0, 1\]/);
    expect(() =>
      stats.mcnemar([
        [1, 2, 3],
        [4, 5, 6],
      ]),
    ).toThrow(/mcnemar: the table must be 2 x 2/);
    expect(() =>
      stats.mcnemar([
        [1, -2],
        [3, 4],
      ]),
    ).toThrow(/mcnemar: table\[0\]\[1\] is -2, not a count/);
    expect(() =>
      stats.mcnemar([
        [1, Number.NaN],
        [3, 4],
      ]),
    ).toThrow(/table\[0\]\[1\] is NaN/);
    expect(() => stats.wilsonInterval(12, 10)).toThrow(/wilsonInterval: successes must lie in \[0, n\], got 12 of 10/);
    expect(() => stats.wilsonInterval(Number.NaN, 10)).toThrow(/successes must lie in \[0, n\]/);
    expect(stats.wilsonInterval(0, 0).estimate).toBeNaN();
    expect(() => stats.passAtK(5, 7, 1)).toThrow(/passAtK: needs whole numbers with 0 <= c <= n/);
    expect(() => stats.passHatK(5, 2.5, 1)).toThrow(/passHatK/);
  });

  it('Wilson and Clopper-Pearson intervals refuse a z or alpha that would give bounds not around the estimate', () => {
    // z = -1.96 gave [0.5, 0.5] for 5 of 10, z = NaN NaN bounds; alpha = 2 a lower bound of 0.999 above an upper of 3e-17.
    for (const z of [-1.96, 0, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => stats.wilsonInterval(5, 10, z)).toThrow(/wilsonInterval: z must be a finite number > 0/);
      expect(() => stats.clusteredWilsonInterval([{ sum: 1, trials: 2 }], { z })).toThrow(/z must be a finite number > 0/);
      expect(() => stats.newcombePairedInterval({ both: 3, onlyFirst: 2, onlySecond: 1, neither: 4 }, z)).toThrow(/z must be/);
    }
    for (const alpha of [2, 0, 1, -0.05, Number.NaN])
      expect(() => stats.clopperPearsonInterval(5, 10, alpha)).toThrow(/clopperPearsonInterval: alpha must lie in \(0, 1\)/);
    const cp = stats.clopperPearsonInterval(5, 10, 0.1);
    expect(cp.lower).toBeLessThan(0.5);
    expect(cp.upper).toBeGreaterThan(0.5);
  });
});

describe('tables and matrices', () => {
  it("chi-square tests, entropy and Cramer's V refuse negative, NaN and ragged tables", () => {
    expect(() => stats.chiSquareIndependence([[1, 2], [3]])).toThrow(/chiSquareIndependence: row 1 has 1 values, row 0 has 2/);
    expect(() =>
      stats.chiSquareIndependence([
        [1, -2],
        [3, 4],
      ]),
    ).toThrow(/row 0, column 1 is -2, not a finite count >= 0/);
    expect(() =>
      stats.cramersV([
        [1, Number.NaN],
        [3, 4],
      ]),
    ).toThrow(/row 0, column 1 is NaN/);
    expect(() => stats.chiSquareGoodnessOfFit([1, Number.NaN, 3])).toThrow(/chiSquareGoodnessOfFit: observed\[1\] is NaN/);
    expect(() => stats.chiSquareGoodnessOfFit([1, 2], [1.5, -0.5])).toThrow(/probabilities\[1\] is -0.5/);
    expect(() => stats.normalizedEntropy([3, -1, 2])).toThrow(/normalizedEntropy: counts\[1\] is -1/);
  });

  it('item-rest correlations, correlation matrices, PCA and parallel analysis refuse NaN cells and ragged rows', () => {
    // Before: a NaN cell made its item null, which reads as zero variance.
    expect(() =>
      stats.itemRestCorrelation([
        [1, 0, 1],
        [0, Number.NaN, 1],
        [1, 1, 0],
      ]),
    ).toThrow(/itemRestCorrelation: row 1, column 1 is NaN/);
    const ragged = [
      [1, 0, 1],
      [0, 1],
      [1, 1, 0],
    ];
    expect(() => stats.correlationMatrix(ragged)).toThrow(/correlationMatrix: row 1 has 2 values, row 0 has 3/);
    expect(() => stats.pcaVariance(ragged)).toThrow(/pcaVariance: row 1 has 2 values/);
    expect(() => stats.parallelAnalysis(ragged, { seed: 1 })).toThrow(/parallelAnalysis: row 1 has 2 values/);
    expect(() => stats.standardizeColumns([[1, Number.POSITIVE_INFINITY]])).toThrow(/row 0, column 1 is Infinity/);
  });
});

describe('bootstrap intervals', () => {
  it('percentile, basic (clipped), BC and BCa from the same replicates, against the textbook formulas', () => {
    const reps = Array.from({ length: 1000 }, (_, i) => 0.3 + (0.5 * i) / 999); // uniform on [0.3, 0.8]
    const pct = stats.bootstrapInterval(reps, 0.7, { method: 'percentile' });
    expect([pct.lower, pct.upper]).toEqual([stats.quantile7(reps, 0.025), stats.quantile7(reps, 0.975)]);
    const basic = stats.bootstrapInterval(reps, 0.7, { method: 'basic' });
    expect(basic.lower).toBeCloseTo(1.4 - pct.upper, 12);
    expect(basic.upper).toBeCloseTo(1.4 - pct.lower, 12);
    expect(stats.bootstrapInterval(reps, 0.95, { method: 'basic', bounds: [-1, 1] }).upper).toBe(1);
    // BC: z0 = Phi^-1(share below the estimate); quantiles at Phi(2 z0 -/+ 1.96).
    const below = reps.filter((v) => v < 0.7).length / 1000;
    const z0 = stats.normalQuantile(below);
    const bc = stats.bootstrapInterval(reps, 0.7, { method: 'bc' });
    expect(bc.z0).toBeCloseTo(z0, 12);
    expect(bc.lower).toBeCloseTo(stats.quantile7(reps, stats.normalCdf(2 * z0 - 1.959963984540054)), 10);
    expect(bc.upper).toBeCloseTo(stats.quantile7(reps, stats.normalCdf(2 * z0 + 1.959963984540054)), 10);
    // BCa with acceleration a: Phi(z0 + (z0 + z) / (1 - a (z0 + z))).
    const a = 0.05;
    const bca = stats.bootstrapInterval(reps, 0.7, { method: 'bca', acceleration: a });
    const adj = (z: number) => stats.normalCdf(z0 + (z0 + z) / (1 - a * (z0 + z)));
    expect(bca.lower).toBeCloseTo(stats.quantile7(reps, adj(-1.959963984540054)), 10);
    expect(bca.upper).toBeCloseTo(stats.quantile7(reps, adj(1.959963984540054)), 10);
    expect(() => stats.bootstrapInterval(reps, 0.7, { method: 'bca' })).toThrow(/needs the acceleration/);
    expect(() => stats.bootstrapInterval(reps, 0.7, { method: 'studentized' as 'bc' })).toThrow(/method must be/);
  });

  it('the jackknife acceleration of the sample mean is the skewness formula', () => {
    const x = [1, 2, 2, 3, 9, 4, 1, 15];
    const n = x.length;
    const loo = x.map((_, i) => x.filter((__, j) => j !== i).reduce((s, v) => s + v, 0) / (n - 1));
    // For the mean, l_i = x_i - mean, so a = sum (x - m)^3 / (6 (sum (x - m)^2)^1.5).
    const m = x.reduce((s, v) => s + v, 0) / n;
    const expected = x.reduce((s, v) => s + (v - m) ** 3, 0) / (6 * x.reduce((s, v) => s + (v - m) ** 2, 0) ** 1.5);
    expect(stats.jackknifeAcceleration([loo])).toBeCloseTo(expected, 12);
    expect(stats.jackknifeAcceleration([[0.5, 0.5, 0.5]])).toBe(0);
  });

  it('the normal quantile inverts the normal distribution function', () => {
    for (const p of [1e-12, 0.001, 0.025, 0.3, 0.5, 0.9, 0.975]) expect(stats.normalCdf(stats.normalQuantile(p)) / p).toBeCloseTo(1, 12);
    expect(stats.normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 14);
    expect(stats.normalQuantile(1.2)).toBeNaN();
  });
});
