// The unidimensional EM's estimators and grids against an independent NumPy EM (the reference
// vectors in tests/fixtures/vectors/generated/irt, made by make_irt_em.py there), and its
// invariants as properties: the plain EM's objective never falls, estimates do not depend on the
// order of items or models, results are the same bit for bit on the same input, and `converged`
// means what it says.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  autoQuadraturePoints,
  calibrateIrt,
  type IrtEstimator,
  type IrtResponses,
  irtEstimatorOptions,
  selectItems,
  selectPersons,
} from '../src/stats/index.js';
import { panel, responsesOf } from './irt-helpers.js';

const DIR = join(__dirname, 'fixtures', 'vectors', 'generated', 'irt');

function readResponses(file: string): IrtResponses {
  const rows = readFileSync(join(DIR, file), 'utf8').trim().split('\n');
  const nItems = rows[0]!.split(',').length;
  const values = new Float64Array(rows.length * nItems);
  rows.forEach((row, j) => {
    row.split(',').forEach((v, i) => {
      values[j * nItems + i] = v === '' ? Number.NaN : Number(v);
    });
  });
  return { nPersons: rows.length, nItems, values };
}

interface ReferenceFit {
  data: '2pl' | '3pl';
  model: '2pl' | '3pl';
  guessing?: number;
  estimator: IrtEstimator;
  quadraturePoints: number;
  a: number[];
  b: number[];
  logLikelihood: number;
}

describe('against an independent NumPy EM (dense matrix products, Newton M-step to convergence)', () => {
  const expected = JSON.parse(readFileSync(join(DIR, 'irt_em.expected.json'), 'utf8')) as { fits: ReferenceFit[] };
  const data = { '2pl': readResponses('responses_2pl.csv'), '3pl': readResponses('responses_3pl.csv') };
  for (const ref of expected.fits) {
    // The reference runs each M-step to convergence; so does the fit compared with it at 1e-6.
    // The rescaled estimators' fixed point moves slightly with how far each M-step goes (the
    // rescaling undoes part of every step), so the default of 3 Fisher steps is checked at 5e-4 (a 3e-5, b 1.5e-4 here).
    it(`${ref.model.toUpperCase()}, ${ref.estimator}, ${ref.quadraturePoints} nodes: a, b within 1e-6, log likelihood within 1e-7 relative`, () => {
      const opts = {
        model: ref.model,
        ...(ref.guessing === undefined ? {} : { guessing: ref.guessing }),
        ...irtEstimatorOptions(ref.estimator),
        quadraturePoints: ref.quadraturePoints,
        tolerance: 1e-11,
        maxIterations: 20000,
        standardErrors: false,
      };
      const fit = calibrateIrt(data[ref.data], { ...opts, mStepIterations: 100 });
      expect(fit.converged).toBe(true);
      for (let i = 0; i < ref.a.length; i++) {
        expect(Math.abs(fit.items.a[i]! - ref.a[i]!)).toBeLessThan(1e-6);
        expect(Math.abs(fit.items.b[i]! - ref.b[i]!)).toBeLessThan(1e-6);
      }
      expect(Math.abs(fit.logLikelihood / ref.logLikelihood - 1)).toBeLessThan(1e-7);
      const byDefault = calibrateIrt(data[ref.data], opts);
      for (let i = 0; i < ref.a.length; i++) {
        expect(Math.abs(byDefault.items.a[i]! - ref.a[i]!)).toBeLessThan(5e-4);
        expect(Math.abs(byDefault.items.b[i]! - ref.b[i]!)).toBeLessThan(5e-4);
      }
    });
  }
  it('the estimators differ where they should: map and ml move a away from the penalised fit', () => {
    const at = (e: IrtEstimator) => expected.fits.find((f) => f.estimator === e && f.quadraturePoints === 41)!;
    const gap = (x: ReferenceFit, y: ReferenceFit) => Math.max(...x.a.map((v, i) => Math.abs(v - y.a[i]!)));
    expect(gap(at('penalised'), at('map'))).toBeGreaterThan(0.01);
    expect(gap(at('penalised'), at('ml'))).toBeGreaterThan(0.01);
  });
});

describe('quadrature', () => {
  it("'auto' grows with the longest test: 41 up to about 80 items, 243 at 2,860, odd", () => {
    expect(autoQuadraturePoints(50)).toBe(41);
    expect(autoQuadraturePoints(2860)).toBe(243);
    expect(autoQuadraturePoints(16774) % 2).toBe(1);
    const r = responsesOf(panel(20, 400, '2pl', 3));
    const fit = calibrateIrt(r, { model: '2pl', quadraturePoints: 'auto', standardErrors: false });
    expect(fit.quadrature.nodes.length).toBe(autoQuadraturePoints(400));
  });
});

describe('3PL with a fixed floor', () => {
  it('converges on 27 models x 2,860 items at c = 0.25, and a restart from its estimates stays within the tolerance', () => {
    const r = responsesOf(panel(27, 2860, '3pl', 1, { guessing: 0.25 }));
    const fit = calibrateIrt(r, { model: '3pl', guessing: 0.25, standardErrors: false });
    expect(fit.converged).toBe(true);
    expect(fit.iterations).toBeLessThan(100);
    const again = calibrateIrt(r, { model: '3pl', guessing: 0.25, standardErrors: false, start: fit.items, maxIterations: 1 });
    expect(again.lastChange).toBeLessThan(1e-4);
  });
});

/** A small seeded panel: 12-40 models x 8-30 items, some answers missing. */
const smallPanel = fc.record({
  models: fc.integer({ min: 12, max: 40 }),
  items: fc.integer({ min: 8, max: 30 }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  missing: fc.constantFrom(0, 0.1),
});

/** A seeded permutation of 0..n-1. */
function permutation(n: number, seed: number): number[] {
  const p = Array.from({ length: n }, (_, i) => i);
  let s = seed;
  for (let i = n - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const k = s % (i + 1);
    [p[i], p[k]] = [p[k]!, p[i]!];
  }
  return p;
}

describe('properties', () => {
  it('plain EM (map, and ml without rescaling): the objective never falls from one iteration to the next', () => {
    fc.assert(
      fc.property(smallPanel, fc.constantFrom('map' as const, 'ml' as const), ({ models, items, seed, missing }, estimator) => {
        const r = responsesOf(panel(models, items, '2pl', seed, { missingShare: missing }));
        const opts = { ...irtEstimatorOptions(estimator), parameterExpansion: false, standardErrors: false, tolerance: 0 };
        let last = Number.NEGATIVE_INFINITY;
        for (let k = 1; k <= 8; k++) {
          const lp = calibrateIrt(r, { model: '2pl', ...opts, maxIterations: k }).logPosterior;
          expect(lp).toBeGreaterThanOrEqual(last - 1e-9 * Math.abs(lp));
          last = lp;
        }
      }),
      { numRuns: 6 },
    );
  });

  it('estimates do not depend on the order of items or of models (1e-6), and repeat bit for bit', () => {
    fc.assert(
      fc.property(smallPanel, fc.constantFrom('2pl' as const, '3pl' as const), ({ models, items, seed, missing }, model) => {
        const r = responsesOf(panel(models, items, model, seed, { missingShare: missing, guessing: 0.2 }));
        const opts = { model, ...(model === '3pl' ? { guessing: 0.2 } : {}), tolerance: 1e-10, maxIterations: 5000, standardErrors: false };
        const base = calibrateIrt(r, opts);
        const again = calibrateIrt(r, opts);
        for (let i = 0; i < items; i++) {
          expect(Object.is(again.items.a[i], base.items.a[i])).toBe(true);
          expect(Object.is(again.items.b[i], base.items.b[i])).toBe(true);
        }
        const itemOrder = permutation(items, seed);
        const byItems = calibrateIrt(selectItems(r, itemOrder), opts);
        itemOrder.forEach((i, k) => {
          expect(Math.abs(byItems.items.a[k]! - base.items.a[i]!)).toBeLessThan(1e-6);
          expect(Math.abs(byItems.items.b[k]! - base.items.b[i]!)).toBeLessThan(1e-6);
        });
        const byModels = calibrateIrt(selectPersons(r, permutation(models, seed + 1)), opts);
        for (let i = 0; i < items; i++) {
          expect(Math.abs(byModels.items.a[i]! - base.items.a[i]!)).toBeLessThan(1e-6);
          expect(Math.abs(byModels.items.b[i]! - base.items.b[i]!)).toBeLessThan(1e-6);
        }
      }),
      { numRuns: 6 },
    );
  });

  it('converged is honest: true means the last change is under the tolerance, false means the iteration limit was reached', () => {
    fc.assert(
      fc.property(smallPanel, fc.integer({ min: 1, max: 40 }), ({ models, items, seed, missing }, maxIterations) => {
        const r = responsesOf(panel(models, items, '2pl', seed, { missingShare: missing }));
        const fit = calibrateIrt(r, { model: '2pl', maxIterations, standardErrors: false });
        if (fit.converged) {
          expect(fit.lastChange).toBeLessThan(1e-4);
          const again = calibrateIrt(r, { model: '2pl', start: fit.items, maxIterations: 1, standardErrors: false });
          expect(again.lastChange).toBeLessThan(1e-3);
        } else {
          expect(fit.iterations).toBe(maxIterations);
          expect(fit.lastChange).toBeGreaterThanOrEqual(1e-4);
        }
      }),
      { numRuns: 10 },
    );
  });
});
