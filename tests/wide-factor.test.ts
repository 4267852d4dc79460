// Factor methods for wide data (items far outnumbering models) against the dense p x p
// computations they replace, on a simulated binary panel small enough to decompose directly.

import { Matrix } from 'ml-matrix';
import { describe, expect, it } from 'vitest';
import { createRng } from '../src/core/index.js';
import * as stats from '../src/stats/index.js';

/** 15 models x ~300 binary items loading on two factors; constant items dropped. */
function panel(n = 15, p = 300, seed = 5): number[][] {
  const rng = createRng(seed);
  const theta = Array.from({ length: n }, () => [rng.next() * 4 - 2, rng.next() * 4 - 2]);
  const data = theta.map((t) =>
    Array.from({ length: p }, (_, j) => (rng.next() < 1 / (1 + Math.exp(-(1.5 * t[j % 2]! + ((j % 7) - 3) * 0.3))) ? 1 : 0)),
  );
  const keep = data[0]!.map((_, j) => j).filter((j) => data.some((r) => r[j] !== data[0]![j]));
  return data.map((r) => keep.map((j) => r[j]!));
}

function denseEigen(R: number[][], diagonal: ArrayLike<number>): number[] {
  const m = new Matrix(R);
  for (let j = 0; j < R.length; j++) m.set(j, j, diagonal[j]!);
  return stats.symmetricEigen(m).values;
}

describe('reduced correlation matrix of wide data', () => {
  const data = panel();
  const R = stats.correlationMatrix(data);
  const block = stats.WideBlock.fromRows(data);

  it('the Gram matrix has the non-zero eigenvalues of R', () => {
    const viaGram = stats.symmetricEigen(block.gram()).values;
    const dense = stats.symmetricEigen(new Matrix(R)).values;
    viaGram.forEach((v, i) => expect(Math.abs(v - dense[i]!)).toBeLessThan(1e-9 * dense[0]!));
  });

  it('two-block Rayleigh-Ritz matches the dense eigenvalues of R - diag(u) to 1e-6 relative', () => {
    const rng = createRng(9);
    const u = Float64Array.from({ length: block.p }, () => 0.6 + 0.4 * rng.next());
    const ritz = stats.wideReducedEigen(block, u).values;
    const dense = denseEigen(
      R,
      u.map((x) => 1 - x),
    );
    expect(ritz).toHaveLength(data.length - 1);
    ritz.forEach((v, i) => expect(Math.abs(v - dense[i]!) / Math.abs(dense[i]!)).toBeLessThan(1e-6));
    // One block: the first-order approximation, within 1% here (items few, eigenvalues small).
    const one = stats.wideReducedEigen(block, u, { blocks: 1 }).values;
    one.slice(0, 5).forEach((v, i) => expect(Math.abs(v - dense[i]!) / Math.abs(dense[i]!)).toBeLessThan(1e-2));
  });

  it('one-factor principal axes reach the dense fixed point from the same start', () => {
    const wide = stats.wideOneFactor(block, { minErr: 1e-12, maxIter: 500 });
    // Dense reference: psych's iteration on the p x p matrix, started from first-component communalities.
    const e0 = stats.symmetricEigen(new Matrix(R));
    let h = R.map((_, j) => e0.values[0]! * e0.vectors.get(j, 0) ** 2);
    let values: number[] = [];
    for (let it = 0, total = Infinity; it < 500; it++) {
      const m = new Matrix(R);
      h.forEach((v, j) => m.set(j, j, v));
      const e = stats.symmetricEigen(m);
      values = e.values;
      h = R.map((_, j) => e.values[0]! * e.vectors.get(j, 0) ** 2);
      const next = h.reduce((a, b) => a + b, 0);
      if (Math.abs(next - total) < 1e-12) break;
      total = next;
    }
    h.forEach((v, j) => expect(Math.abs(v - wide.communalities[j]!)).toBeLessThan(1e-4));
    wide.reducedEigenvalues.slice(0, 5).forEach((v, i) => expect(Math.abs(v - values[i]!) / values[i]!).toBeLessThan(1e-5));
  });
});

describe('parallel analysis of wide data', () => {
  it('counts factors as well as components, and is seeded', () => {
    const data = panel(20, 600, 2);
    const r = stats.parallelAnalysis(data, { seed: 1, iterations: 20 });
    expect(r.method).toBe('wide');
    expect([r.nComponents, r.nFactors]).toEqual([2, 2]);
    expect(r.observedFa).toHaveLength(19);
    expect(r.resampledFaQ).toHaveLength(19);
    // Factor eigenvalues sit below component eigenvalues (the diagonal loses the uniquenesses).
    r.observedFa.slice(0, 3).forEach((v, i) => expect(v).toBeLessThan(r.observedPc[i]!));
    expect(stats.parallelAnalysis(data, { seed: 1, iterations: 20 })).toEqual(r);
    expect(() =>
      stats.parallelAnalysis(
        data.map((row) => [1, ...row]),
        { seed: 1 },
      ),
    ).toThrow(/constant/);
  });
});
