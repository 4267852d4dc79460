// Invariants of the statistics' intervals and estimates, on generated inputs (fast-check, fixed
// seed): intervals contain their estimate (or say why not) and have positive width when the data
// vary; results do not depend on the order of items, subjects or raters, nor on rounding noise.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as stats from '../src/stats/index.js';
import { RUNS, value, permuted, eighth, same } from './helpers/stats-arbitraries.js';

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
            // A subject nobody rated carries nothing: it changes neither coefficient.
            const withUnrated = f([...ratings, [null, null, null]]);
            expect(same(a.coefficient, withUnrated.coefficient)).toBe(true);
            expect(same(a.pe, withUnrated.pe)).toBe(true);
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

  it("agreement: a subject nobody rated is left out, as irrCAC asks (Fleiss' kappa 0.11 became 0.44 with one)", () => {
    const ratings = [
      ['a', 'a', 'b'],
      ['a', 'a', 'a'],
      ['b', 'b', 'a'],
      ['a', null, 'a'],
    ];
    expect(stats.fleissKappa([...ratings, [null, null, null]]).coefficient).toBeCloseTo(stats.fleissKappa(ratings).coefficient, 14);
    expect(stats.fleissKappa(ratings).coefficient).toBeCloseTo(1 / 9, 12);
    expect(stats.gwetAC1([[null, null, null], ...ratings]).coefficient).toBeCloseTo(stats.gwetAC1(ratings).coefficient, 14);
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
