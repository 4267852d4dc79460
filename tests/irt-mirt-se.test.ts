// Standard errors of M2PL item parameters (Louis's observed information, one item block at a
// time) on simulated panels: the true parameters fall within 1.96 SE about 95% of the time
// (intercepts on a 2-D panel, which do not depend on the rotation; slopes and intercepts on a
// 1-D one), and a version 2 bank carries them (null where a pattern fixes a slope at zero).

import { describe, expect, it } from 'vitest';
import { calibrateMirtBank, matrixToIrtResponses } from '../src/analysis/index.js';
import { calibrateMirt, mirtItemStandardErrors } from '../src/stats/index.js';
import { panel } from './irt-helpers.js';

const coverage = (est: ArrayLike<number>, truth: ArrayLike<number>, se: ArrayLike<number>) => {
  let n = 0;
  let hit = 0;
  for (let i = 0; i < est.length; i++) {
    if (!Number.isFinite(se[i]!)) continue;
    n++;
    if (Math.abs(est[i]! - truth[i]!) <= 1.96 * se[i]!) hit++;
  }
  return hit / n;
};

describe('M2PL item standard errors', () => {
  it('cover the true slopes and intercepts on a 1-D panel and the intercepts on a 2-D one', () => {
    const p1 = panel(300, 150, '2pl', 21);
    const r1 = matrixToIrtResponses(p1.matrix);
    const fit1 = calibrateMirt(r1, { k: 1 });
    const se1 = mirtItemStandardErrors(fit1.items, r1, { slopeSd: 1.5, interceptSd: 3 });
    const cov1a = coverage(fit1.items.slopes, p1.truth.a, se1.slopes);
    const cov1d = coverage(
      fit1.items.intercepts,
      p1.truth.a.map((a, i) => -a * p1.truth.b[i]!),
      se1.intercepts,
    );
    const p2 = panel(300, 150, 'm2pl', 22, { dimensions: 2 });
    const r2 = matrixToIrtResponses(p2.matrix);
    const fit2 = calibrateMirt(r2, { k: 2 });
    const se2 = mirtItemStandardErrors(fit2.items, r2, { slopeSd: 1.5, interceptSd: 3 });
    const cov2d = coverage(fit2.items.intercepts, p2.truth.intercepts!, se2.intercepts);
    // Measured: 91% (1-D slopes), 90% (1-D intercepts), 95% (2-D intercepts).
    expect(cov1a).toBeGreaterThan(0.85);
    expect(cov1d).toBeGreaterThan(0.85);
    expect(cov2d).toBeGreaterThan(0.85);
    expect(se2.slopes.every((v) => v > 0)).toBe(true);
  }, 60_000);

  it('are in a confirmatory version 2 bank, null where a slope is fixed at zero', () => {
    const p = panel(120, 60, 'm2pl', 23, { dimensions: 2 });
    const bank = calibrateMirtBank(p.matrix, { dims: 2, structure: { desire: [2], intention: [2] }, source: 'test', validate: false });
    for (const it of bank.items) {
      const loads = it.category === 'desire' || it.category === 'intention';
      expect(it.se.slopes![0], it.id).toBeGreaterThan(0);
      if (loads) expect(it.se.slopes![1], it.id).toBeGreaterThan(0);
      else expect(it.se.slopes![1], it.id).toBeNull();
      expect(it.se.intercept, it.id).toBeGreaterThan(0);
    }
  }, 60_000);
});
