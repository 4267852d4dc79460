// Degenerate inputs to the statistics (constant, fewer than 3 pairs, all ties, NaN, empty) are
// refused or give NaN with a reason, never a number; and the item response models keep their
// basic invariants (fast-check, fixed seed).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as stats from '../src/stats/index.js';
import { RUNS, value, sample, permuted, eighth, counts, same } from './helpers/stats-arbitraries.js';

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
