// Invariants of the statistics' tests and tables, on generated inputs (fast-check, fixed seed):
// p-values lie in [0, 1] or are NaN with a reason, two-sample tests are symmetric, and binomial
// statistics, tables and matrices keep their symmetries.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as stats from '../src/stats/index.js';
import { RUNS, value, sample, pairs, permuted, counts, validP, neg, same, eighth, powerOfTwo } from './helpers/stats-arbitraries.js';

describe('p-values lie in [0, 1] (or are NaN with a reason), and two-sample tests are symmetric', () => {
  it('Mann-Whitney: the same p and z of opposite sign for (x, y) and (y, x); U + U_other = n1 n2', () => {
    fc.assert(
      fc.property(sample(1, 40), sample(1, 40), fc.boolean(), (x, y, correct) => {
        const a = stats.mannWhitneyU(x, y, { correct });
        const b = stats.mannWhitneyU(y, x, { correct });
        expect(validP(a.p, a.reason)).toBe(true);
        expect(a.p).toBe(b.p);
        expect(a.z).toBe(neg(b.z));
        expect(a.u + a.uOther).toBe(x.length * y.length);
        expect(a.u).toBe(b.uOther);
        expect(a.rankBiserial).toBeCloseTo(-b.rankBiserial, 12);
      }),
      RUNS,
    );
  });

  it('Kendall, Spearman and Pearson: symmetric in x and y, odd in the sign of y, p in [0, 1]', () => {
    fc.assert(
      fc.property(pairs(0, 80), (rows) => {
        const x = rows.map((r) => r[0]);
        const y = rows.map((r) => r[1]);
        const minusY = y.map((v) => -v);
        const k = stats.kendallTauB(x, y);
        expect(validP(k.p, k.reason)).toBe(true);
        expect(validP(k.pContinuity, k.reason)).toBe(true);
        expect(same(k.tau, stats.kendallTauB(y, x).tau)).toBe(true);
        expect(same(k.tau, neg(stats.kendallTauB(x, minusY).tau))).toBe(true);
        expect(same(k.p, stats.kendallTauB(x, minusY).p)).toBe(true);
        expect(same(stats.kendallTau(x, y), k.tau)).toBe(true);
        expect(same(stats.spearman(x, y), stats.spearman(y, x))).toBe(true);
        expect(same(stats.spearman(x, y), neg(stats.spearman(x, minusY)))).toBe(true);
        expect(same(stats.pearson(x, y), stats.pearson(y, x))).toBe(true);
        for (const v of [k.tau, stats.spearman(x, y), stats.pearson(x, y)])
          expect(Number.isNaN(v) || (v >= -1 - 1e-12 && v <= 1 + 1e-12)).toBe(true);
      }),
      RUNS,
    );
  });

  it('Pearson, Spearman and Kendall do not change when a variable is scaled, at any magnitude (squares that overflow or underflow)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(eighth, eighth), { minLength: 3, maxLength: 30 }), powerOfTwo, powerOfTwo, (rows, a, b) => {
        const x = rows.map((r) => r[0]);
        const y = rows.map((r) => r[1]);
        const ax = x.map((v) => v * a);
        const by = y.map((v) => v * b);
        expect(same(stats.pearson(ax, by), stats.pearson(x, y), 1e-12)).toBe(true);
        expect(same(stats.spearman(ax, by), stats.spearman(x, y))).toBe(true);
        expect(same(stats.kendallTauB(ax, by).tau, stats.kendallTauB(x, y).tau)).toBe(true);
      }),
      RUNS,
    );
    // Perfectly correlated: r = 1 (it was 0 when the squares overflowed, NaN when they underflowed).
    expect(stats.pearson([1e200, 2e200, 3e200], [1, 2, 3])).toBeCloseTo(1, 12);
    expect(stats.pearson([1e-200, 2e-200, 3e-200], [1, 2, 3])).toBeCloseTo(1, 12);
  });

  it('partial Kendall, both methods: p in [0, 1] or NaN with a reason; estimate in [-1, 1]', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(value, value, value, value), { minLength: 0, maxLength: 30 }), fc.boolean(), (rows, two) => {
        const cols = [0, 1, 2, 3].map((j) => rows.map((r) => r[j]!));
        const controls = two ? [cols[2]!, cols[3]!] : [cols[2]!];
        for (const method of ['residual', 'inverse'] as const) {
          const r = stats.partialKendall(cols[0]!, cols[1]!, controls, method);
          expect(validP(r.p, r.reason)).toBe(true);
          if (Number.isNaN(r.estimate)) expect(r.reason).toBeTruthy();
          else expect(Math.abs(r.estimate)).toBeLessThanOrEqual(1 + 1e-9);
        }
      }),
      RUNS,
    );
  });

  it('chi-square independence: p in [0, 1] or NaN with a reason; the same for the transposed table', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 2, max: 5 }),
        counts(25, 25, 40),
        fc.boolean(),
        (r, c, cells, correct) => {
          const table = Array.from({ length: r }, (_, i) => cells.slice(i * c, i * c + c));
          const transposed = table[0]!.map((_, j) => table.map((row) => row[j]!));
          const a = stats.chiSquareIndependence(table, { correct });
          const b = stats.chiSquareIndependence(transposed, { correct });
          expect(validP(a.p, a.reason)).toBe(true);
          expect(same(a.statistic, b.statistic, 1e-10)).toBe(true);
          expect(same(a.p, b.p, 1e-9)).toBe(true);
          const v = stats.cramersV(table);
          expect(Number.isNaN(v) ? a.reason !== undefined : v >= 0 && v <= 1 + 1e-12).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('chi-square goodness of fit: p in [0, 1] or NaN with a reason; the same for the categories in another order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 50 }),
            fc.double({ min: 0.01, max: 1, noNaN: true }),
            fc.double({ min: 0, max: 1, noNaN: true }),
          ),
          { minLength: 2, maxLength: 8 },
        ),
        (rows) => {
          const total = rows.reduce((s, r) => s + r[1], 0);
          const g = stats.chiSquareGoodnessOfFit(
            rows.map((r) => r[0]),
            rows.map((r) => r[1] / total),
          );
          const sorted = permuted(rows, 2) as typeof rows;
          const h = stats.chiSquareGoodnessOfFit(
            sorted.map((r) => r[0]),
            sorted.map((r) => r[1] / total),
          );
          expect(validP(g.p, g.reason)).toBe(true);
          expect(same(g.statistic, h.statistic, 1e-9)).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('McNemar and the binomial test: p in [0, 1]; swapping the discordant cells changes nothing', () => {
    fc.assert(
      fc.property(counts(4, 4, 60), fc.boolean(), (cells, correct) => {
        const [a, b, c, d] = cells as [number, number, number, number];
        const m = stats.mcnemar(
          [
            [a, b],
            [c, d],
          ],
          { correct },
        );
        const n = stats.mcnemar(
          [
            [d, c],
            [b, a],
          ],
          { correct },
        );
        expect(validP(m.p, m.reason) && validP(m.pExact, m.reason)).toBe(true);
        expect([m.statistic, m.p, m.pExact]).toEqual([n.statistic, n.p, n.pExact]);
        expect(stats.binomialTest(b, b + c)).toBe(stats.binomialTest(c, b + c));
      }),
      RUNS,
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 300 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (k0, extra, p) => {
          const pv = stats.binomialTest(k0, k0 + extra, p);
          expect(pv >= 0 && pv <= 1).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('McNemar: the continuity correction never raises the statistic; equal discordant cells give p = 1, as R', () => {
    // Discordant counts near each other (b = c among them), where the correction matters most.
    const near = fc
      .integer({ min: 0, max: 40 })
      .chain((b) => fc.tuple(fc.constant(b), fc.integer({ min: Math.max(0, b - 2), max: b + 2 })));
    fc.assert(
      fc.property(near, fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), ([b, c], a, d) => {
        const table = [
          [a, b],
          [c, d],
        ];
        const corrected = stats.mcnemar(table);
        const plain = stats.mcnemar(table, { correct: false });
        expect(corrected.statistic).toBeLessThanOrEqual(plain.statistic);
        expect(corrected.p).toBeGreaterThanOrEqual(plain.p);
        if (b === c) expect([corrected.statistic, corrected.p]).toEqual([0, 1]);
      }),
      RUNS,
    );
    // R: mcnemar.test(matrix(c(10, 3, 3, 10), 2)) gives McNemar's chi-squared = 0, p-value = 1.
    const m = stats.mcnemar([
      [10, 3],
      [3, 10],
    ]);
    expect([m.statistic, m.p, m.pExact]).toEqual([0, 1, 1]);
  });

  it('Holm, Benjamini-Hochberg and Bonferroni: in [0, 1], never below the raw p, ordered BH <= Holm <= Bonferroni, and equivariant to reordering', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(null)), fc.double({ min: 0, max: 1, noNaN: true })),
          { maxLength: 30 },
        ),
        (rows) => {
          const p = rows.map((r) => r[0]);
          const order = rows.map((_, i) => i).sort((a, b) => rows[a]![1] - rows[b]![1]);
          const holm = stats.holm(p);
          const bh = stats.benjaminiHochberg(p);
          const bonf = stats.bonferroni(p);
          const holmPermuted = stats.holm(order.map((i) => p[i]!));
          p.forEach((v, i) => {
            if (v === null) {
              expect([holm[i], bh[i], bonf[i]]).toEqual([null, null, null]);
              return;
            }
            for (const adj of [holm[i]!, bh[i]!, bonf[i]!]) expect(adj >= v - 1e-15 && adj <= 1).toBe(true);
            expect(bh[i]!).toBeLessThanOrEqual(holm[i]! + 1e-15);
            expect(holm[i]!).toBeLessThanOrEqual(bonf[i]! + 1e-15);
          });
          order.forEach((i, k) => expect(holmPermuted[k]).toBe(holm[i]));
        },
      ),
      RUNS,
    );
  });

  it('bootstrap p-values are never 0: no replicate beyond the null gives the bound 2/B, flagged', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ min: -2, max: 2, noNaN: true }), fc.constant(Number.NaN)), { maxLength: 60 }), (reps) => {
        const r = stats.bootstrapPValue(reps);
        const defined = reps.filter((v) => !Number.isNaN(v));
        if (defined.length === 0) {
          expect(r.p).toBeNaN();
          return;
        }
        expect(r.p > 0 && r.p <= 1).toBe(true);
        expect(r.upperBound).toBe(defined.every((v) => v > 0) || defined.every((v) => v < 0));
        if (r.upperBound) expect(r.p).toBe(Math.min(1, 2 / defined.length));
      }),
      RUNS,
    );
  });
});

describe('symmetries of the binomial statistics, tables and matrices', () => {
  it('binomial test, Wilson and Clopper-Pearson: k successes at p mirror n - k at 1 - p', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (k, extra, p) => {
          const n = k + extra;
          expect(same(stats.binomialTest(k, n, p), stats.binomialTest(n - k, n, 1 - p), 1e-9)).toBe(true);
          if (n === 0) return;
          const w = stats.wilsonInterval(k, n);
          const wm = stats.wilsonInterval(n - k, n);
          expect(Math.abs(w.lower - (1 - wm.upper))).toBeLessThan(1e-12);
          const c = stats.clopperPearsonInterval(k, n);
          const cm = stats.clopperPearsonInterval(n - k, n);
          expect(Math.abs(c.lower - (1 - cm.upper))).toBeLessThan(1e-12);
          // The exact interval is never narrower than Wilson's score interval... on the side away from the bound.
          expect(c.upper - c.lower).toBeGreaterThan(0);
        },
      ),
      RUNS,
    );
  });

  it('chi-square independence: the same for rows and columns in any order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 5 }),
        fc.integer({ min: 2, max: 5 }),
        counts(25, 25, 40),
        fc.integer({ min: 0, max: 1000 }),
        (r, c, cells, shift) => {
          const table = Array.from({ length: r }, (_, i) => cells.slice(i * c, i * c + c));
          const rows = table.map((_, i) => table[(i + shift) % r]!);
          const both = rows.map((row) => row.map((_, j) => row[(j + 3 * shift) % c]!));
          const a = stats.chiSquareIndependence(table, { correct: false });
          const b = stats.chiSquareIndependence(both, { correct: false });
          expect(same(a.statistic, b.statistic, 1e-10)).toBe(true);
          expect(same(a.p, b.p, 1e-9)).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('correlation matrices: symmetric, unit diagonal, within [-1, 1], NaN for a constant column; KMO in [0, 1], Bartlett p in [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 4, maxLength: 4 }), { minLength: 2, maxLength: 40 }),
        (data) => {
          const R = stats.correlationMatrix(data);
          const constant = data[0]!.map((_, j) => data.every((row) => row[j] === data[0]![j]));
          R.forEach((row, i) =>
            row.forEach((v, j) => {
              if (constant[i] || constant[j]) expect(v).toBeNaN();
              else {
                expect(v).toBe(R[j]![i]);
                expect(Math.abs(v)).toBeLessThanOrEqual(1 + 1e-12);
                if (i === j) expect(v).toBeCloseTo(1, 12);
              }
            }),
          );
          if (constant.some(Boolean) || !stats.hasFullRank(R)) return;
          const k = stats.kmo(R);
          expect(k.msa >= 0 && k.msa <= 1 + 1e-12).toBe(true);
          const b = stats.bartlett(R, data.length);
          expect(b.p >= 0 && b.p <= 1).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('PCA shares: non-negative, summing to at most 1, the same for the rows in any order and for rescaled columns', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 5, maxLength: 5 }), fc.double({ min: 0, max: 1, noNaN: true })),
          { minLength: 2, maxLength: 30 },
        ),
        (rows) => {
          const data = rows.map((r) => r[0]);
          const a = stats.pcaVariance(data);
          const b = stats.pcaVariance((permuted(rows, 1) as typeof rows).map((r) => r[0]));
          const c = stats.pcaVariance(data.map((row) => row.map((v, j) => v * (j + 1) * 10 + j)));
          expect(a.proportion.every((v) => v >= 0)).toBe(true);
          expect(a.proportion.reduce((s, v) => s + v, 0)).toBeLessThanOrEqual(1 + 1e-9);
          a.eigenvalues.forEach((v, i) => {
            expect(Math.abs(v - b.eigenvalues[i]!)).toBeLessThan(1e-9);
            expect(Math.abs(v - c.eigenvalues[i]!)).toBeLessThan(1e-9);
          });
        },
      ),
      RUNS,
    );
  });

  it('Holm with bounds: the same values as Holm; a bound anywhere at or above a p makes its adjusted value a bound', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean()), { maxLength: 20 }), (rows) => {
        const p = rows.map((r) => r[0]);
        const bound = rows.map((r) => r[1]);
        const r = stats.holmWithBounds(p, bound);
        expect(r.adjusted).toEqual(stats.holm(p));
        p.forEach((v, i) => {
          if (bound[i] || p.some((w, j) => bound[j] && w >= v)) expect(r.upperBound[i]).toBe(true);
        });
        if (!bound.some(Boolean)) expect(r.upperBound.every((b) => !b)).toBe(true);
      }),
      RUNS,
    );
  });

  it('pass@k, pass^k and normalised entropy lie in [0, 1]; pass@k grows and pass^k shrinks with k', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 60 }), (n, c0, k0) => {
        const c = c0 % (n + 1);
        const k = Math.min(k0, n);
        const at = stats.passAtK(n, c, k);
        const hat = stats.passHatK(n, c, k);
        expect(at >= 0 && at <= 1 && hat >= 0 && hat <= 1 + 1e-12).toBe(true);
        expect(hat).toBeLessThanOrEqual(at + 1e-12);
        if (k < n) {
          expect(stats.passAtK(n, c, k + 1)).toBeGreaterThanOrEqual(at - 1e-12);
          expect(stats.passHatK(n, c, k + 1)).toBeLessThanOrEqual(hat + 1e-12);
        }
      }),
      RUNS,
    );
    fc.assert(
      fc.property(counts(0, 8, 50), (c) => {
        const e = stats.normalizedEntropy(c);
        if (c.every((v) => v === 0)) expect([e.normalized, e.reason]).toEqual([Number.NaN, 'no observations: every count is 0']);
        else expect(e.normalized >= 0 && e.normalized <= 1 + 1e-12).toBe(true);
      }),
      RUNS,
    );
  });
});
