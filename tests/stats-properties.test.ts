// Invariants every result of mindscope/stats must keep, checked on generated inputs (fast-check,
// fixed seed): p-values lie in [0, 1] and two-sample tests are symmetric; intervals contain their
// estimate (or say why not) and have positive width when the data vary; statistics do not depend
// on the order of items, subjects or raters, nor on rounding noise; degenerate inputs (constant,
// fewer than 3 pairs, all ties, NaN, empty) are refused or give NaN with a reason, never a number.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as stats from '../src/stats/index.js';

const RUNS = { seed: 42, numRuns: 300 };

/** Values with many ties (small integers), or spread doubles, or tenths (rounding noise in their sums). */
const value = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -20, max: 20 }).map((k) => k / 10),
);
const sample = (minLength = 0, maxLength = 40) => fc.array(value, { minLength, maxLength });
/** Paired values with a sort key each, to permute the pairs. */
const pairs = (minLength = 0, maxLength = 40) =>
  fc.array(fc.tuple(value, value, fc.double({ min: 0, max: 1, noNaN: true })), { minLength, maxLength });
const permuted = <T>(rows: Array<[...T[], number]> | Array<readonly unknown[]>, keyAt: number) =>
  [...rows].sort((a, b) => (a[keyAt] as number) - (b[keyAt] as number));
/** Eighths in [-10, 10]: exact in binary, so that scaling and shifting them loses nothing but rounding. */
const eighth = fc.integer({ min: -80, max: 80 }).map((k) => k / 8);
const counts = (minLength: number, maxLength: number, max = 30) => fc.array(fc.integer({ min: 0, max }), { minLength, maxLength });

/** A p-value: in [0, 1], or NaN with a reason given. */
function validP(p: number, reason: string | undefined): boolean {
  return Number.isNaN(p) ? typeof reason === 'string' && reason.length > 0 : p >= 0 && p <= 1;
}
/** -v, without turning 0 into -0 (NaN stays NaN). */
const neg = (v: number) => (v === 0 ? 0 : -v);
/** Equal, or both NaN, or within a relative 1e-12 (sums in another order). */
function same(a: number, b: number, tol = 1e-12): boolean {
  return (Number.isNaN(a) && Number.isNaN(b)) || a === b || Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
}

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

describe('intervals contain their estimate or say why not, and have positive width when the data vary', () => {
  it('Wilson and Clopper-Pearson', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 2000 }), (k, extra) => {
        const n = k + extra;
        for (const ci of [stats.wilsonInterval(k, n), stats.clopperPearsonInterval(k, n)]) {
          if (n === 0) {
            expect(ci.estimate).toBeNaN();
            expect(ci.reason).toBeTruthy();
            continue;
          }
          expect(ci.lower).toBeLessThanOrEqual(ci.estimate);
          expect(ci.upper).toBeGreaterThanOrEqual(ci.estimate);
          expect(ci.upper - ci.lower).toBeGreaterThan(0);
          expect(ci.lower >= 0 && ci.upper <= 1).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('bootstrap intervals, every method: lower <= upper, and the estimate inside or a note saying why not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 80 }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.constantFrom(...stats.INTERVAL_METHODS),
        (reps, estimate, method) => {
          const ci = stats.bootstrapInterval(reps, estimate, { method, acceleration: 0.02, bounds: [-1, 1] });
          expect(ci.lower).toBeLessThanOrEqual(ci.upper);
          if (!(ci.lower <= estimate && estimate <= ci.upper)) expect(ci.note).toMatch(/the interval lies (above|below) the estimate/);
          else expect(ci.note).toBeUndefined();
        },
      ),
      RUNS,
    );
  });

  it('the seeded bootstrap: the percentile interval has positive width when resamples vary, and a note when it misses the estimate', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 2, maxLength: 25 }),
        fc.integer({ min: 0, max: 1000 }),
        (x, seed) => {
          const mean = (idx: Int32Array) => Array.from(idx).reduce((s, i) => s + x[i]!, 0) / idx.length;
          const b = stats.bootstrap(x.length, mean, { seed, iterations: 200 });
          expect(b.lower).toBeLessThanOrEqual(b.upper);
          if (new Set(x).size > 1 && new Set(b.replicates).size > 10) expect(b.upper - b.lower).toBeGreaterThan(0);
          if (b.estimate < b.lower || b.estimate > b.upper) expect(b.note).toBeTruthy();
        },
      ),
      { seed: 42, numRuns: 100 },
    );
  });
});

describe('statistics do not depend on the order of items, subjects or raters, nor on rounding noise', () => {
  it('correlations and partial Kendall: the same for the pairs in any order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, value, value, fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 3, maxLength: 70 }),
        (rows) => {
          const col = (rs: typeof rows, j: number) => rs.map((r) => r[j]!);
          const other = permuted(rows, 3) as typeof rows;
          const [x, y, z] = [0, 1, 2].map((j) => col(rows, j));
          const [x2, y2, z2] = [0, 1, 2].map((j) => col(other, j));
          expect(stats.kendallTauB(x!, y!).tau).toBe(stats.kendallTauB(x2!, y2!).tau);
          expect(stats.kendallTauB(x!, y!).p).toBe(stats.kendallTauB(x2!, y2!).p);
          expect(same(stats.spearman(x!, y!), stats.spearman(x2!, y2!))).toBe(true);
          expect(same(stats.pearson(x!, y!), stats.pearson(x2!, y2!), 1e-9)).toBe(true);
          for (const method of ['residual', 'inverse'] as const) {
            const a = stats.partialKendall(x!, y!, [z!], method);
            const b = stats.partialKendall(x2!, y2!, [z2!], method);
            expect(same(a.estimate, b.estimate, 1e-9)).toBe(true);
          }
        },
      ),
      RUNS,
    );
  });

  it('rank statistics ignore rounding noise: values perturbed by a few ulps give the same tau, rho and U', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -6, max: 6 }), fc.integer({ min: -6, max: 6 }), fc.integer({ min: -3, max: 3 })), {
          minLength: 3,
          maxLength: 70,
        }),
        (rows) => {
          // Tenths carry rounding noise; k ulps more of it must not change a rank.
          const x = rows.map((r) => r[0] / 10);
          const noisy = rows.map((r) => (r[0] / 10) * (1 + r[2] * Number.EPSILON));
          const y = rows.map((r) => r[1] / 10);
          expect(stats.kendallTauB(noisy, y).tau).toBe(stats.kendallTauB(x, y).tau);
          expect(stats.kendallTau(noisy, y)).toBe(stats.kendallTau(x, y));
          expect(same(stats.spearman(noisy, y), stats.spearman(x, y))).toBe(true);
          const half = Math.floor(rows.length / 2);
          expect(stats.mannWhitneyU(noisy.slice(0, half + 1), noisy.slice(half)).p).toBe(
            stats.mannWhitneyU(x.slice(0, half + 1), x.slice(half)).p,
          );
        },
      ),
      RUNS,
    );
  });

  it("partial Kendall (residual) does not depend on the controls' scale or offset", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(eighth, eighth, eighth), { minLength: 4, maxLength: 40 }),
        fc.constantFrom(1e-3, 1e3, 1e6),
        fc.constantFrom(0, 1e4),
        (rows, scale, offset) => {
          const x = rows.map((r) => r[0]);
          const y = rows.map((r) => r[1] + r[2]);
          const z = rows.map((r) => r[2]);
          const a = stats.partialKendall(x, y, [z]);
          const b = stats.partialKendall(x, y, [z.map((v) => v * scale + offset)]);
          expect(same(a.estimate, b.estimate, 1e-9)).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('Mann-Whitney, quantiles and entropy: the same for the values of each sample in any order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 2, maxLength: 60 }),
        (rows) => {
          const split = (rs: typeof rows) => [rs.filter((r) => r[1]).map((r) => r[0]), rs.filter((r) => !r[1]).map((r) => r[0])];
          const [x, y] = split(rows);
          const [x2, y2] = split(permuted(rows, 2) as typeof rows);
          if (x!.length && y!.length) {
            const a = stats.mannWhitneyU(x!, y!);
            const b = stats.mannWhitneyU(x2!, y2!);
            expect([a.u, a.p]).toEqual([b.u, b.p]);
          }
          for (const q of [0, 0.025, 0.5, 0.975, 1]) expect(stats.quantile7(x2!, q)).toBe(stats.quantile7(x!, q));
          const c = rows.map((r) => Math.abs(Math.round(r[0])));
          const c2 = (permuted(rows, 2) as typeof rows).map((r) => Math.abs(Math.round(r[0])));
          expect(same(stats.normalizedEntropy(c).normalized, stats.normalizedEntropy(c2).normalized)).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('agreement: the same for subjects in any order and raters in any order', () => {
    const label = fc.oneof(fc.constantFrom('a', 'b', 'c'), fc.constant(null));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(label, { minLength: 3, maxLength: 3 }), fc.double({ min: 0, max: 1, noNaN: true })), {
          minLength: 1,
          maxLength: 30,
        }),
        (rows) => {
          const ratings = rows.map((r) => r[0]);
          const subjectsPermuted = (permuted(rows, 1) as typeof rows).map((r) => r[0]);
          const ratersPermuted = ratings.map((r) => [r[2]!, r[0]!, r[1]!]);
          for (const f of [stats.gwetAC1, stats.fleissKappa]) {
            const a = f(ratings);
            if (Number.isNaN(a.coefficient)) expect(a.reason).toBeTruthy();
            else expect(a.coefficient).toBeLessThanOrEqual(1 + 1e-12);
            expect(same(a.coefficient, f(subjectsPermuted).coefficient)).toBe(true);
            expect(same(a.coefficient, f(ratersPermuted).coefficient)).toBe(true);
          }
          const complete = ratings.filter((r) => r[0] !== null && r[1] !== null);
          if (complete.length) {
            const ab = stats.twoRaterAgreement(
              complete.map((r) => r[0]!),
              complete.map((r) => r[1]!),
            );
            const ba = stats.twoRaterAgreement(
              complete.map((r) => r[1]!),
              complete.map((r) => r[0]!),
            );
            expect(same(ab.kappa, ba.kappa)).toBe(true);
            if (Number.isNaN(ab.kappa)) expect(ab.reason).toBeTruthy();
          }
        },
      ),
      RUNS,
    );
  });

  it('item-rest correlations: the same for subjects in any order; items in another order carry their values along', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 4, maxLength: 4 }), fc.double({ min: 0, max: 1, noNaN: true })),
          { minLength: 0, maxLength: 30 },
        ),
        (rows) => {
          const m = rows.map((r) => r[0]);
          const a = stats.itemRestCorrelation(m);
          const b = stats.itemRestCorrelation((permuted(rows, 1) as typeof rows).map((r) => r[0]));
          const c = stats.itemRestCorrelation(m.map((r) => [r[3]!, r[2]!, r[1]!, r[0]!]));
          a.forEach((v, j) => {
            expect(v === null ? b[j] === null : same(v, b[j]!, 1e-9)).toBe(true);
            expect(v === null ? c[3 - j] === null : same(v, c[3 - j]!, 1e-9)).toBe(true);
          });
        },
      ),
      RUNS,
    );
  });

  it('Dawid-Skene: the same posteriors for the annotations in any order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 6 }),
            fc.integer({ min: 0, max: 3 }),
            fc.integer({ min: 0, max: 2 }),
            fc.double({ min: 0, max: 1, noNaN: true }),
          ),
          { minLength: 1, maxLength: 40 },
        ),
        (rows) => {
          const data = (rs: typeof rows) => rs.map(([t, w, l]) => ({ task: `t${t}`, worker: `w${w}`, label: l }));
          const a = stats.dawidSkene(data(rows));
          const b = stats.dawidSkene(data(permuted(rows, 3) as typeof rows));
          a.tasks.forEach((t, i) => {
            const j = b.tasks.indexOf(t);
            expect(b.labels).toEqual(a.labels);
            a.probas[i]!.forEach((p, k) => expect(Math.abs(p - b.probas[j]![k]!)).toBeLessThan(1e-9));
            expect(a.probas[i]!.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 9);
          });
        },
      ),
      { seed: 42, numRuns: 150 },
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

describe('degenerate inputs are refused or give NaN with a reason, never a number', () => {
  const constant = fc.tuple(value, fc.integer({ min: 0, max: 30 })).map(([v, n]) => Array.from({ length: n }, () => v));

  it('correlations: a constant variable, fewer than 3 pairs, or a NaN', () => {
    fc.assert(
      fc.property(constant, sample(0, 30), fc.boolean(), (c, other0, nanInstead) => {
        const other = other0.slice(0, c.length).concat(Array.from({ length: Math.max(0, c.length - other0.length) }, (_, i) => i));
        const x = nanInstead && c.length ? [...other.slice(0, -1), Number.NaN] : c;
        for (const [a, b] of [
          [x, other],
          [other, x],
        ] as const) {
          const k = stats.kendallTauB(a, b);
          expect(k.tau).toBeNaN();
          expect(k.p).toBeNaN();
          expect(k.reason).toMatch(/constant|not a finite number|pairs? of values/);
          expect(stats.kendallTau(a, b)).toBeNaN();
          expect(stats.spearman(a, b)).toBeNaN();
          expect(stats.pearson(a, b)).toBeNaN();
          for (const method of ['residual', 'inverse'] as const) {
            const p = stats.partialKendall(a, b, [other.map((_, i) => (i * 7) % 5)], method);
            expect(p.estimate).toBeNaN();
            expect(p.reason).toBeTruthy();
          }
        }
      }),
      RUNS,
    );
    // Two pairs always correlate +-1: no correlation is reported from them.
    fc.assert(
      fc.property(fc.array(fc.tuple(value, value), { minLength: 0, maxLength: 2 }), (rows) => {
        const x = rows.map((r) => r[0]);
        const y = rows.map((r) => r[1]);
        expect(stats.kendallTauB(x, y).reason).toBeTruthy();
        expect([stats.kendallTau(x, y), stats.spearman(x, y), stats.pearson(x, y)].every(Number.isNaN)).toBe(true);
      }),
      RUNS,
    );
  });

  it('partial Kendall (residual): a variable the controls explain exactly is refused, whatever rounding noise its residuals keep', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(eighth, eighth), { minLength: 4, maxLength: 40 }),
        fc.oneof(
          eighth,
          fc.double({ min: -50, max: 50, noNaN: true, noDefaultInfinity: true }).filter((v) => v === 0 || Math.abs(v) > 1e-6),
        ),
        fc.oneof(
          fc.integer({ min: -10000, max: 10000 }),
          fc.double({ min: -1e4, max: 1e4, noNaN: true }).filter((v) => v === 0 || Math.abs(v) > 1e-6),
        ),
        (rows, slope, intercept) => {
          const z = rows.map((r) => r[0]);
          const y = rows.map((r) => r[1]);
          const x = z.map((v) => intercept + slope * v);
          const r = stats.partialKendall(x, y, [z]);
          expect(r.estimate).toBeNaN();
          expect(r.reason).toMatch(/constant|explain x exactly/);
        },
      ),
      RUNS,
    );
  });

  it('tests: every value tied or no discordant pair gives p = 1 with a reason; empty or malformed input throws', () => {
    fc.assert(
      fc.property(value, fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), (v, n1, n2) => {
        const r = stats.mannWhitneyU(Array(n1).fill(v), Array(n2).fill(v));
        expect([r.p, r.z]).toEqual([1, 0]);
        expect(r.reason).toMatch(/tied/);
      }),
      RUNS,
    );
    expect(() => stats.mannWhitneyU([], [1])).toThrow(/both samples need values/);
    expect(() => stats.mannWhitneyU([1, Number.NaN], [1])).toThrow(/x\[1\] is NaN/);
    const m = stats.mcnemar([
      [5, 0],
      [0, 7],
    ]);
    expect([m.p, m.pExact, m.reason]).toEqual([1, 1, 'no discordant pairs: nothing to test (p = 1)']);
  });

  it('chi-square: an empty row or column, or no observations, is NaN with a reason; no categories throws', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 2, max: 4 }),
        counts(16, 16),
        fc.integer({ min: 0, max: 3 }),
        (r, c, cells, empty) => {
          const table = Array.from({ length: r }, (_, i) => cells.slice(i * c, i * c + c));
          table[empty % r] = table[empty % r]!.map(() => 0);
          const t = stats.chiSquareIndependence(table);
          expect(t.statistic).toBeNaN();
          expect(t.p).toBeNaN();
          expect(t.reason).toMatch(/sums to 0/);
        },
      ),
      RUNS,
    );
    expect(stats.chiSquareGoodnessOfFit([0, 0, 0]).reason).toMatch(/no observations/);
    expect(() => stats.chiSquareGoodnessOfFit([])).toThrow(/needs at least 2 categories, observed has 0/);
    expect(() => stats.chiSquareGoodnessOfFit([4])).toThrow(/needs at least 2 categories/);
  });

  it('agreement: no subjects throws, no subject rated twice is NaN with a reason', () => {
    expect(() => stats.gwetAC1([])).toThrow(/gwetAC1: no subjects/);
    expect(() => stats.fleissKappa([])).toThrow(/fleissKappa: no subjects/);
    const single = stats.fleissKappa([
      ['a', null],
      [null, 'b'],
    ]);
    expect(single.coefficient).toBeNaN();
    expect(single.reason).toMatch(/no subject has two or more ratings/);
    const one = stats.fleissKappa([
      ['a', 'a'],
      ['a', 'a'],
    ]);
    expect([one.coefficient, one.reason]).toEqual([Number.NaN, 'a single category was used: chance agreement is 1 and kappa is undefined']);
  });
});

describe('item response models: basic invariants', () => {
  const item = fc.tuple(
    fc.double({ min: 0.2, max: 3, noNaN: true }),
    fc.double({ min: -3, max: 3, noNaN: true }),
    fc.constantFrom(0, 0.2, 0.25),
  );

  it('probability within [c, 1] and increasing in ability; information non-negative, symmetric about b when c = 0', () => {
    fc.assert(
      fc.property(
        item,
        fc.double({ min: -6, max: 6, noNaN: true }),
        fc.double({ min: 0.01, max: 2, noNaN: true }),
        ([a, b, c], theta, step) => {
          const p = stats.irtProbability(a, b, c, theta);
          expect(p >= c && p <= 1).toBe(true);
          expect(stats.irtProbability(a, b, c, theta + step)).toBeGreaterThanOrEqual(p);
          expect(stats.irtItemInformation(a, b, c, theta)).toBeGreaterThanOrEqual(0);
          const d = theta - b;
          expect(stats.irtItemInformation(a, b, 0, b + d)).toBeCloseTo(stats.irtItemInformation(a, b, 0, b - d), 12);
        },
      ),
      RUNS,
    );
  });

  it('abilities: the same for the items in any order; EAP under the Rasch model grows with the number right', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(item, fc.integer({ min: 0, max: 1 }), fc.double({ min: 0, max: 1, noNaN: true })), {
          minLength: 1,
          maxLength: 25,
        }),
        (rows) => {
          const items = stats.irtItems(
            rows.map((r) => r[0][0]),
            rows.map((r) => r[0][1]),
            rows.map((r) => r[0][2]),
          );
          const y = rows.map((r) => r[1]);
          const other = permuted(rows, 2) as typeof rows;
          const items2 = stats.irtItems(
            other.map((r) => r[0][0]),
            other.map((r) => r[0][1]),
            other.map((r) => r[0][2]),
          );
          const y2 = other.map((r) => r[1]);
          for (const method of ['eap', 'map', 'mle'] as const) {
            const a = stats.estimateAbility(items, y, { method });
            const b = stats.estimateAbility(items2, y2, { method });
            expect(same(a.theta, b.theta, 1e-6)).toBe(true);
          }
          // Rasch (one a, no c): the total score is sufficient, so one more right answer raises theta.
          const rasch = stats.irtItems(
            rows.map(() => 1),
            rows.map((r) => r[0][1]),
          );
          const wrong = y.indexOf(0);
          if (wrong >= 0) {
            const better = y.map((v, i) => (i === wrong ? 1 : v));
            expect(stats.estimateAbility(rasch, better).theta).toBeGreaterThan(stats.estimateAbility(rasch, y).theta);
          }
        },
      ),
      { seed: 42, numRuns: 150 },
    );
  });

  it('item fit: mean squares non-negative and the same for the persons in any order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 3, maxLength: 3 }),
            fc.double({ min: -2, max: 2, noNaN: true }),
            fc.double({ min: 0, max: 1, noNaN: true }),
          ),
          { minLength: 1, maxLength: 30 },
        ),
        (rows) => {
          const items = stats.irtItems([1, 1.5, 0.7], [-1, 0, 1]);
          const fitOf = (rs: typeof rows) =>
            stats.itemFit(
              items,
              stats.irtResponses(rs.map((r) => r[0])),
              rs.map((r) => r[1]),
            );
          const a = fitOf(rows);
          const b = fitOf(permuted(rows, 2) as typeof rows);
          for (let i = 0; i < 3; i++) {
            expect(a.infit[i]! >= 0 && a.outfit[i]! >= 0).toBe(true);
            expect(same(a.infit[i]!, b.infit[i]!, 1e-9) && same(a.outfit[i]!, b.outfit[i]!, 1e-9)).toBe(true);
          }
        },
      ),
      RUNS,
    );
  });
});
