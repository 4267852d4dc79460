// The bifactor model (general + one specific factor per category): recovery at a panel size
// that supports it, the general-dimension marginal curves, the fit being a stationary point of
// the marginal log posterior computed plainly here, and a bifactor bank.

import { describe, expect, it } from 'vitest';
import { calibrateBank, matrixToIrtResponses, simulateIrtPanel } from '../src/analysis/index.js';
import { calibrateBifactor, normalQuadrature } from '../src/stats/index.js';
import { corr } from './irt-helpers.js';

const CATS = ['belief', 'desire', 'emotion'];

function sim(models: number, perCategory: number, seed: number) {
  return simulateIrtPanel({
    models,
    suites: [{ name: 's', items: Object.fromEntries(CATS.map((c) => [c, perCategory])) }],
    model: 'bifactor',
    specificRatio: 0.8,
    seed,
  });
}

describe('bifactor 2PL', () => {
  it('recovers general (r > 0.7) and specific slopes (r > 0.8) at 300 models, and intercepts (r > 0.97)', () => {
    const p = sim(300, 20, 3);
    const fit = calibrateBifactor(matrixToIrtResponses(p.matrix), {
      categories: p.matrix.items.map((it) => CATS.indexOf(it.category)),
      generalPoints: 15,
      specificPoints: 11,
    });
    expect(fit.converged).toBe(true);
    const d = p.truth.a.map((a, i) => -a * p.truth.b[i]!);
    expect(corr(fit.aGeneral, p.truth.a)).toBeGreaterThan(0.7);
    expect(corr(fit.aSpecific, p.truth.aSpecific!)).toBeGreaterThan(0.8);
    expect(corr(fit.d, d)).toBeGreaterThan(0.97);
    // Marginal curves: a* = aG / sqrt(1 + pi aS^2 / 8), b* = -d / aG.
    expect(fit.marginal.a[5]).toBeCloseTo(fit.aGeneral[5]! / Math.sqrt(1 + (Math.PI * fit.aSpecific[5]! ** 2) / 8), 12);
    expect(fit.marginal.b[5]).toBeCloseTo(-fit.d[5]! / fit.aGeneral[5]!, 12);
    expect([...fit.se.aSpecific].every((s) => s > 0 && Number.isFinite(s))).toBe(true);
  });

  it('plain EM ends at a maximum of the marginal log posterior written plainly (3-D integral per person on the product grid)', () => {
    const p = sim(80, 3, 8);
    const r = matrixToIrtResponses(p.matrix);
    const categories = p.matrix.items.map((it) => CATS.indexOf(it.category));
    const fit = calibrateBifactor(r, {
      categories,
      generalPoints: 11,
      specificPoints: 9,
      priors: { logAGeneral: { mean: 0, sd: 0.5 }, logASpecific: { mean: Math.log(0.5), sd: 0.5 }, d: { mean: 0, sd: 3 } },
      tolerance: 1e-8,
      maxIterations: 20000,
      parameterExpansion: false,
    });
    const g = normalQuadrature(11, 5);
    const s = normalQuadrature(9, 5);
    const J = 9;
    // log posterior with the prior centres at the items' means, as the estimator floats them.
    const logPost = (aG: number[], aS: number[], d: number[]) => {
      let total = 0;
      for (let j = 0; j < 80; j++) {
        let outer = 0;
        for (let a = 0; a < g.nodes.length; a++) {
          let prod = g.weights[a]!;
          for (let k = 0; k < 3; k++) {
            let inner = 0;
            for (let b = 0; b < s.nodes.length; b++) {
              let l = s.weights[b]!;
              for (let i = 0; i < J; i++) {
                if (categories[i] !== k) continue;
                const pr = 1 / (1 + Math.exp(-(aG[i]! * g.nodes[a]! + aS[i]! * s.nodes[b]! + d[i]!)));
                const y = r.values[j * J + i]!;
                l *= y === 1 ? pr : 1 - pr;
              }
              inner += l;
            }
            prod *= inner;
          }
          outer += prod;
        }
        total += Math.log(outer);
      }
      const centred = (x: number[], sd: number) => {
        const m = x.reduce((t, v) => t + v, 0) / x.length;
        return -x.reduce((t, v) => t + (v - m) ** 2, 0) / (2 * sd * sd);
      };
      return total + centred(aG.map(Math.log), 0.5) + centred(aS.map(Math.log), 0.5) + centred(d, 3);
    };
    const base = [Array.from(fit.aGeneral), Array.from(fit.aSpecific), Array.from(fit.d)];
    const f0 = logPost(base[0]!, base[1]!, base[2]!);
    expect(f0).toBeCloseTo(fit.logLikelihood + centredPriors(base), 6);
    // Small moves in any item parameter do not raise it: the plain EM's fit is a maximum.
    for (const i of [0, 4, 8])
      for (const which of [0, 1, 2])
        for (const h of [-0.01, 0.01]) {
          const moved = base.map((v) => v.slice());
          if (which === 2) moved[2]![i]! += h;
          else moved[which]![i]! *= Math.exp(h);
          expect(logPost(moved[0]!, moved[1]!, moved[2]!)).toBeLessThan(f0 + 1e-6);
        }
  });

  it('a bifactor bank stores the marginal curves, the specific slopes and the factor names', () => {
    const p = sim(60, 10, 4);
    const bank = calibrateBank(p.matrix, { model: 'bifactor', source: 'x', validate: false });
    expect(bank.model).toBe('bifactor');
    expect(bank.specificFactors).toEqual(CATS);
    expect(bank.items.every((it) => it.aSpecific !== undefined && it.aSpecific > 0 && it.c === 0)).toBe(true);
  });
});

function centredPriors([aG, aS, d]: number[][]): number {
  const centred = (x: number[], sd: number) => {
    const m = x.reduce((t, v) => t + v, 0) / x.length;
    return -x.reduce((t, v) => t + (v - m) ** 2, 0) / (2 * sd * sd);
  };
  return centred(aG!.map(Math.log), 0.5) + centred(aS!.map(Math.log), 0.5) + centred(d!, 3);
}
