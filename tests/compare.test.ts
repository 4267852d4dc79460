// Paired comparison: differences with Newcombe's interval, McNemar on the discordant items, Holm across categories.

import { describe, expect, it } from 'vitest';
import * as stats from '../src/stats/index.js';
import type { ResponseMatrix } from '../src/index.js';
import { comparePaired } from '../src/analysis/index.js';

describe('compare', () => {
  it('computes the paired difference, McNemar and the MDD from the discordant items', () => {
    // 40 items: A right on 30, B right on 22; 12 only A, 4 only B (the McNemar vector's b and c).
    const cells: number[][] = [];
    for (let i = 0; i < 18; i++) cells.push([1, 1]);
    for (let i = 0; i < 12; i++) cells.push([1, 0]);
    for (let i = 0; i < 4; i++) cells.push([0, 1]);
    for (let i = 0; i < 6; i++) cells.push([0, 0]);
    const m: ResponseMatrix = {
      subjects: ['A', 'B'],
      items: cells.map((_, i) => ({ suite: 's', itemId: `i${i}`, category: i % 2 ? 'belief' : 'desire', originalLabel: '' })),
      cells,
    };
    const all = comparePaired(m).find((c) => c.group === 'all')!;
    expect(all).toMatchObject({ n: 40, onlyA: 12, onlyB: 4 });
    expect(all.difference).toBeCloseTo(0.2, 12);
    expect(all.pMcnemar).toBeCloseTo(0.0801183137276343, 10); // shared/vectors mcnemar.expected.json
    expect(all.pExact).toBeCloseTo(0.076812744140625, 12);
    expect(all.lower).toBeLessThan(0.2);
    expect(all.upper).toBeGreaterThan(0.2);
    expect(all.minimumDetectableDifference).toBeCloseTo(2.8015852181 * Math.sqrt(16 / 40 / 40), 8);
    const perCategory = comparePaired(m).filter((c) => c.group !== 'all');
    const adjusted = stats.holm(perCategory.map((c) => c.pMcnemar));
    perCategory.forEach((c, k) => expect(c.pHolm).toBe(adjusted[k]));
  });

  it('refuses fractional cells and unknown subjects', () => {
    const m: ResponseMatrix = {
      subjects: ['A', 'B'],
      items: [{ suite: 's', itemId: 'x', category: 'belief', originalLabel: '' }],
      cells: [[0.5, 1]],
    };
    expect(() => comparePaired(m)).toThrow(/item x: compare needs 1\/0 cells/);
    expect(() => comparePaired(m, { subjects: ['A', 'C'] })).toThrow(/no subject "C"/);
  });
});
