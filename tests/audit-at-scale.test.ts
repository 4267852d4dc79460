// The audit at scale computes what it computed before (issue 18): stage-1/2/3 outputs equal,
// to the last bit, those of the build before this work on the same seeds (fixture written by
// that build, tests/fixtures/audit-before), and the leading-eigenvalue parallel analysis
// matches the dense decompositions it replaces to a stated tolerance with the same counts.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Matrix } from 'ml-matrix';
import { describe, expect, it } from 'vitest';
import * as stats from '../src/stats/index.js';

import { createRng } from '../src/core/index.js';
import { auditMatrices, flatAccuracies, flatten, PackedItems, simulatePanel } from '../src/studies/audit/index.js';
import { jackknifeTau } from '../src/studies/audit/analysis/tau-jackknife.js';
import { pairDotsWasm, pairDotsWasmBytes } from '../src/stats/pair-dots-wasm.js';
import {
  packedSumsKernelLoaded,
  packedSumsWasmBytes,
  resetPackedSumsKernel,
  withoutPackedSumsKernel,
} from '../src/studies/audit/analysis/packed-sums-wasm.js';
import type { AuditItem } from '../src/studies/audit/analysis/benchmark-matrix.js';
import { pairDotsJs } from '../src/stats/wide-block.js';

interface Panel {
  name: string;
  models: number;
  a: Record<string, number>;
  b: Record<string, number>;
  seed: number;
}
const before = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'audit-before', 'audit-before.json'), 'utf8'));
const roundTrip = (x: unknown) => JSON.parse(JSON.stringify(x));
/**
 * Deep equality, numbers within `rel` of the larger magnitude (in an array of numbers, of the
 * array's largest: an eigenvalue at rounding level beside large ones), integers exact.
 */
function closeTo(actual: unknown, expected: unknown, rel: number, path = '$', scale = 0): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (Number.isInteger(expected) && Number.isInteger(actual)) expect(actual, path).toBe(expected);
    else expect(Math.abs(actual - expected), path).toBeLessThanOrEqual(rel * Math.max(Math.abs(expected), Math.abs(actual), scale, 1e-300));
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual) && actual.length, path).toBe(expected.length);
    const top = Math.max(0, ...expected.map((e) => (typeof e === 'number' ? Math.abs(e) : 0)));
    expected.forEach((e, i) => closeTo((actual as unknown[])[i], e, rel, `${path}[${i}]`, top));
  } else if (expected && typeof expected === 'object') {
    expect(Object.keys(actual as object).sort(), path).toEqual(Object.keys(expected).sort());
    for (const [k, e] of Object.entries(expected)) closeTo((actual as Record<string, unknown>)[k], e, rel, `${path}.${k}`);
  } else expect(actual, path).toEqual(expected);
}

/** The fields the old build reported, from today's object. */
const asBefore = (now: Record<string, unknown>, old: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(old).map((k) => [k, now[k]]));

/**
 * The old build's cross-fit cells as this build reports them: a bootstrap p with no resample on
 * one side of 0 was 0 and is now the bound 2/B (flagged), and Holm adjusts those bounds.
 */
function withBootstrapBounds(cells: Array<{ pair: string[]; p: number; pHolm: number }>, iterations: number) {
  const out = cells.map((c) => (c.p === 0 ? { ...c, p: 2 / iterations } : c));
  for (const pair of new Set(out.map((c) => c.pair.join(' ~ ')))) {
    const at = out.flatMap((c, i) => (c.pair.join(' ~ ') === pair ? [i] : []));
    const adjusted = stats.holm(at.map((i) => out[i]!.p));
    at.forEach((i, k) => (out[i] = { ...out[i]!, pHolm: adjusted[k]! }));
  }
  return out;
}

describe('stage 1-3 outputs equal the build before this work (same seeds)', () => {
  for (const p of before.panels as Panel[]) {
    it(`${p.name}: ${p.models} models, categories ${JSON.stringify(p.a)} / ${JSON.stringify(p.b)}`, async () => {
      const panel = simulatePanel({
        models: p.models,
        benchmarks: [
          { name: 'A', items: p.a },
          { name: 'B', items: p.b },
        ],
        structure: 'single',
        seed: p.seed,
      });
      const s = before.settings;
      // The old build's methods: the percentile interval, every shared category.
      const now = roundTrip(
        await auditMatrices(panel.matrices, {
          ...s,
          convergence: { ...s.convergence, interval: 'percentile' },
          categories: 'all',
        }),
      );
      const old = before[p.name];
      for (const key of ['convergence', 'convergenceFiltered'] as const) {
        expect(now[key].cells.map((c: Record<string, unknown>, i: number) => asBefore(c, old[key].cells[i]))).toEqual(old[key].cells);
        expect(now[key].pairs.map((c: Record<string, unknown>, i: number) => asBefore(c, old[key].pairs[i]))).toEqual(old[key].pairs);
        expect(now[key].overallMeanTau).toBe(old[key].overallMeanTau);
      }
      expect(
        now.filter.benchmarks.map(
          (b: { name: string; retention: unknown; kept: number; total: number; flags: Array<Record<string, unknown>> }) => ({
            name: b.name,
            retention: b.retention,
            kept: b.kept,
            total: b.total,
            flaggedSha256: createHash('sha256')
              .update(JSON.stringify(b.flags.filter((f) => !f.kept).map((f) => [f.id, f.reason, f.pointBiserial])))
              .digest('hex'),
          }),
        ),
      ).toEqual(old.filter.benchmarks);
      expect(now.crossFit.cells.map((c: Record<string, unknown>, i: number) => asBefore(c, old.crossFit.cells[i]))).toEqual(
        withBootstrapBounds(old.crossFit.cells, s.crossFit.iterations),
      );
      expect(asBefore(now.crossFit.aggregate, old.crossFit.aggregate)).toEqual(old.crossFit.aggregate);
      expect(now.crossFit.settings).toEqual(old.crossFit.settings);
      // Factor structure: the same counts and EFA factors; eigenvalues and shares to 1e-9 relative
      // (the Gram matrix now sums two columns at a time in WebAssembly SIMD: another order of the same sums).
      now.structure.forEach((x: Record<string, unknown>, i: number) => closeTo(asBefore(x, old.structure[i]), old.structure[i], 1e-9));
    });
  }
});

describe('the WebAssembly Gram kernel', () => {
  it("is the assembly of src/stats/pair-dots.wat and gives the JavaScript kernel's sums to rounding", async () => {
    const wabt = await (await import('wabt')).default();
    const wat = readFileSync(join(__dirname, '..', 'src', 'stats', 'pair-dots.wat'), 'utf8');
    const mod = wabt.parseWat('pair-dots.wat', wat, { simd: true });
    mod.validate();
    expect(Buffer.from(mod.toBinary({}).buffer).equals(Buffer.from(pairDotsWasmBytes()))).toBe(true);
    const rng = createRng(12);
    for (const [n, p] of [
      [1, 5],
      [7, 3],
      [13, 515],
      [30, 1001],
    ] as const) {
      const left = Float64Array.from({ length: n * p }, () => rng.next() - 0.5);
      const right = Float64Array.from({ length: n * p }, () => rng.next() - 0.5);
      for (const [l, r] of [
        [left, left],
        [left, right],
      ] as const) {
        const fast = pairDotsWasm(l, r, n, p, 256)!;
        const plain = pairDotsJs(l, r, n, p);
        for (let a = 0; a < n; a++) for (let b = a; b < n; b++) expect(Math.abs(fast[a * n + b]! - plain[a * n + b]!)).toBeLessThan(1e-12);
      }
    }
  });
});

/** pcaVariance as written before it read data variable by variable (row-major), the reference for bit-identity. */
function rowMajorPcaEigenvalues(data: number[][]): number[] {
  const n = data.length;
  const p0 = data[0]!.length;
  const keep: number[] = [];
  for (let j = 0; j < p0; j++) if (data.some((r) => r[j] !== data[0]![j])) keep.push(j);
  const p = keep.length;
  const z = new Float64Array(n * p);
  const mean = new Float64Array(p);
  const sd = new Float64Array(p);
  for (let i = 0; i < n; i++) for (let c = 0; c < p; c++) mean[c]! += data[i]![keep[c]!]!;
  for (let c = 0; c < p; c++) mean[c]! /= n;
  for (let i = 0; i < n; i++) for (let c = 0; c < p; c++) sd[c]! += (data[i]![keep[c]!]! - mean[c]!) ** 2;
  for (let c = 0; c < p; c++) sd[c] = Math.sqrt(sd[c]! / (n - 1));
  for (let i = 0; i < n; i++) for (let c = 0; c < p; c++) z[i * p + c] = (data[i]![keep[c]!]! - mean[c]!) / sd[c]!;
  let values: number[];
  if (p <= n) {
    const R = new Float64Array(p * p);
    for (let a = 0; a < p; a++)
      for (let b = a; b < p; b++) {
        let t = 0;
        for (let i = 0; i < n; i++) t += z[i * p + a]! * z[i * p + b]!;
        R[a * p + b] = t / (n - 1);
        R[b * p + a] = t / (n - 1);
      }
    values = stats.symmetricEigenvalues(R, p);
  } else {
    const scale = 1 / Math.sqrt(n - 1);
    for (let k = 0; k < z.length; k++) z[k]! *= scale;
    values = stats.symmetricEigenvalues(stats.WideBlock.ofStandardized(z, n, p).gramArray(), n);
  }
  return values.map((v) => Math.max(0, v));
}

describe("PCA of responses held item by item (the audit's structure)", () => {
  it("gives the row-major computation's eigenvalues to the bit, wide and narrow, constant items left out", () => {
    for (const [n, p, seed] of [
      [27, 500, 21],
      [20, 8, 22],
      [5, 5, 23],
      [2, 40, 24],
    ] as const) {
      const rows = widePanel(n, p, seed);
      // Two constant items, the first and one in the middle.
      for (const r of rows) {
        r.splice(0, 0, 1);
        r.splice(3, 0, 0);
      }
      const items = rows[0]!.length;
      const byItem = new Uint8Array(n * items);
      rows.forEach((r, i) => r.forEach((v, j) => (byItem[j * n + i] = v)));
      const flat = stats.pcaVarianceOfVariables(byItem, n, items);
      expect(flat.eigenvalues).toEqual(rowMajorPcaEigenvalues(rows));
      expect(stats.pcaVariance(rows)).toEqual(flat);
      expect(flat.variables).toBe(items - 2);
      // And the dense correlation matrix's eigenvalues, to rounding.
      const kept = rows.map((r) => r.filter((_, j) => j !== 0 && j !== 3));
      const dense = stats.symmetricEigen(new Matrix(stats.correlationMatrix(kept))).values;
      flat.eigenvalues.forEach((v, i) => expect(Math.abs(v - Math.max(0, dense[i]!))).toBeLessThan(1e-9 * dense[0]!));
    }
    expect(() => stats.pcaVarianceOfVariables(new Uint8Array(5), 2, 3)).toThrow(/5 values for 2 observations x 3 variables/);
    expect(() => stats.pcaVarianceOfVariables(new Uint8Array(0), 0, 0)).toThrow(/no rows/);
  });

  it("writes rows straight into the Gram kernel's memory: a block's own Gram matrix, and a resident block's next one unspoilt", () => {
    const rows = widePanel(12, 300, 31);
    const a = stats.WideBlock.fromRows(rows);
    const gram = a.gramArray();
    expect(stats.gramOfRows(a.n, a.p, (z) => z.set(a.z))).toEqual(gram);
    // Another block of exactly a's size (its rows in reverse order), written where a's rows stayed.
    const other = [...rows].reverse();
    const byItem = new Uint8Array(a.n * a.p);
    other.forEach((r, i) => r.forEach((v, j) => (byItem[j * a.n + i] = v)));
    stats.pcaVarianceOfVariables(byItem, a.n, a.p);
    expect(a.gramArray()).toEqual(gram);
  });
});

describe('packed bootstrap sums at every category size', () => {
  it('equal the plain per-model sums exactly (five, four, three and two models per double; groups of six and eight; drawn and counted), in WebAssembly and in JavaScript', () => {
    const rng = createRng(8);
    for (const [models, items, lanes] of [
      [30, 9000, 16], // 8,192 or more items: three per double
      [200, 700, 40], // many lanes: through per-item counts
      [190, 9000, 64], // both
      [3, 131_100, 6], // 2^17 or more items: two per double (one group of six lanes)
      [70, 1000, 16], // below 1,024 items: five per double
      [27, 900, 6], // the paper's 27 models, five to a double: one group of six lanes
      [27, 3001, 8], // 27 models, four to a double: one group of eight lanes (odd draw count)
    ] as const) {
      const its = Array.from({ length: items }, (_, k) => ({
        id: String(k),
        category: 'belief',
        responses: Uint8Array.from({ length: models }, () => (rng.next() < 0.7 ? 1 : 0)),
      }));
      const packed = new PackedItems(its, models);
      // As many models to a double as 53 bits hold with a base above the item count.
      expect(packed.digits).toBe(items < 1024 ? 5 : items < 8192 ? 4 : items < 2 ** 17 ? 3 : 2);
      expect(packed.lanes).toBe(lanes);
      const flat = flatten(its, models);
      for (let r = 0; r < 3; r++) {
        const idx = rng.fillInts(new Int32Array(items), items);
        if (r === 2) idx.fill(items - 1); // one item drawn every time: the largest digit sum
        const plain = Array.from(flatAccuracies(flat, models, idx));
        expect(Array.from(packed.accuracies(idx, new Float64Array(models)))).toEqual(plain);
        expect(withoutPackedSumsKernel(() => Array.from(packed.accuracies(idx, new Float64Array(models))))).toEqual(plain);
      }
    }
  });

  it('in the WebAssembly kernel: the assembly of packed-sums.wat; lanes kept for two owners, copied again for a third and after a larger one', async () => {
    const wabt = await (await import('wabt')).default();
    const wat = readFileSync(join(__dirname, '..', 'src', 'studies', 'audit', 'analysis', 'packed-sums.wat'), 'utf8');
    const mod = wabt.parseWat('packed-sums.wat', wat, { simd: true });
    mod.validate();
    expect(Buffer.from(mod.toBinary({}).buffer).equals(Buffer.from(packedSumsWasmBytes()))).toBe(true);
    expect(packedSumsKernelLoaded()).toBe(true);
    resetPackedSumsKernel();
    const rng = createRng(9);
    const make = (models: number, items: number) => {
      const its = Array.from({ length: items }, () => ({
        responses: Uint8Array.from({ length: models }, () => (rng.next() < 0.5 ? 1 : 0)),
      }));
      return { packed: new PackedItems(its, models), flat: flatten(its as AuditItem[], models), models, items };
    };
    // Two owners alternating and repeating, a third (two slots), a larger one (a new layout), the
    // owners resident before it again, then more draws than ever from a smaller array (a new
    // layout for the indices alone) and the owners resident before that. (A PackedItems sums at
    // most as many draws as its digits' base allows: its item count, as the bootstrap draws.)
    const owners = [make(27, 500), make(27, 500), make(27, 500), make(27, 5000), make(3, 6000)];
    expect([owners[3]!.packed.lanes, owners[4]!.packed.lanes]).toEqual([8, 6]);
    const calls: Array<[number, number]> = [
      ...[0, 1, 1, 0, 0, 1, 2, 0, 1, 3, 1, 0, 3, 3, 2].map((o): [number, number] => [o, owners[o]!.items + 7]),
      [4, 6000],
      [3, 5000],
      [2, 500],
      [4, 6000],
    ];
    for (const [o, draws] of calls) {
      const { packed, flat, models, items } = owners[o]!;
      const idx = rng.fillInts(new Int32Array(draws), items);
      expect(Array.from(packed.accuracies(idx, new Float64Array(models)))).toEqual(Array.from(flatAccuracies(flat, models, idx)));
    }
  });
});

describe('Kendall tau by sorting', () => {
  it('equals the pairwise count (kendallTauB) on tied and untied data either side of the switch', () => {
    const rng = createRng(3);
    for (const n of [63, 64, 65, 100, 301]) {
      for (const levels of [3, 20, 1000]) {
        const x = Float64Array.from({ length: n }, () => Math.floor(rng.next() * levels) / levels);
        const y = Float64Array.from({ length: n }, (_, i) => (x[i]! + Math.floor(rng.next() * levels) / levels) / 2);
        expect(stats.kendallTau(x, y)).toBe(stats.kendallTauB(x, y).tau);
      }
    }
    const constant = new Float64Array(100).fill(0.5);
    expect(
      stats.kendallTau(
        constant,
        Float64Array.from({ length: 100 }, (_, i) => i),
      ),
    ).toBeNaN();
  });
});

describe('leave-one-item-out tau (BCa acceleration)', () => {
  it('equals recounting each leave-one-out sample', () => {
    const rng = createRng(2);
    for (const models of [5, 27, 80]) {
      const a = Uint8Array.from({ length: 40 * models }, () => (rng.next() < 0.6 ? 1 : 0));
      const b = Uint8Array.from({ length: 33 * models }, () => (rng.next() < 0.5 ? 1 : 0));
      const fast = jackknifeTau(a, b, models);
      const direct = (own: Uint8Array, other: Uint8Array) => {
        const n = own.length / models;
        const accOther = flatAccuracies(other, models);
        return Array.from({ length: n }, (_, k) => {
          const rest = Uint8Array.from([...own.subarray(0, k * models), ...own.subarray((k + 1) * models)]);
          return stats.kendallTau(flatAccuracies(rest, models), accOther);
        });
      };
      expect(Array.from(fast.a)).toEqual(direct(a, b));
      expect(Array.from(fast.b)).toEqual(direct(b, a));
    }
  });
});

/** n models x p binary items from a two-factor model, constant items dropped. */
function widePanel(n: number, p: number, seed: number, duplicate = false): number[][] {
  const rng = createRng(seed);
  const theta = Array.from({ length: n }, () => [rng.next() * 4 - 2, rng.next() * 4 - 2]);
  const data = theta.map((t) =>
    Array.from({ length: p }, (_, j) => (rng.next() < 1 / (1 + Math.exp(-(1.5 * t[j % 2]! + ((j % 7) - 3) * 0.3))) ? 1 : 0)),
  );
  if (duplicate) data[1] = data[0]!.slice();
  const keep = data[0]!.map((_, j) => j).filter((j) => data.some((r) => r[j] !== data[0]![j]));
  return data.map((r) => keep.map((j) => r[j]!));
}

describe('leading eigenvalues instead of dense decompositions', () => {
  it('Lanczos gives the leading eigenpairs of a symmetric matrix to 1e-10 relative, repeated eigenvalues included', () => {
    const rng = createRng(5);
    const n = 60;
    // Q diag(values) Q' with a known spectrum (a double eigenvalue at the top).
    const values = Array.from({ length: n }, (_, i) => (i < 2 ? 50 : 40 - i * 0.5));
    const M = new Matrix(n, n);
    for (let i = 0; i < n; i++)
      for (let j = i; j < n; j++) {
        const v = rng.next();
        M.set(i, j, v);
        M.set(j, i, v);
      }
    const Q = stats.symmetricEigen(M).vectors;
    const A = Q.mmul(Matrix.diag(values)).mmul(Q.transpose());
    const flat = Float64Array.from(A.to1DArray());
    const apply = (x: Float64Array, y: Float64Array) => {
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += flat[i * n + j]! * x[j]!;
        y[i] = s;
      }
    };
    const r = stats.lanczosLeading(apply, n, 6);
    const sorted = [...values].sort((a, b) => b - a);
    r.values.forEach((v, i) => expect(Math.abs(v - sorted[i]!) / sorted[0]!).toBeLessThan(1e-10));
    // Each vector is an eigenvector: ||A v - lambda v|| small.
    r.vectors.forEach((v, i) => {
      const av = new Float64Array(n);
      apply(v, av);
      const res = Math.sqrt(av.reduce((s, x, k) => s + (x - r.values[i]! * v[k]!) ** 2, 0));
      expect(res).toBeLessThan(1e-8 * sorted[0]!);
    });
  });

  it('one-factor principal axes: the leading Ritz values equal the dense one-block path to 1e-9 relative', () => {
    for (const [n, p, seed] of [
      [15, 300, 5],
      [60, 900, 6],
    ] as const) {
      const block = stats.WideBlock.fromRows(widePanel(n, p, seed));
      const dense = stats.wideOneFactor(block, { blocks: 1 });
      const gram = block.gramArray();
      const g = stats.gramLeading(gram, n, 8);
      const lead = stats.wideOneFactorLeading(block, 8, { gram, first: g.vectors[0]! })!;
      expect(lead.iterations).toBe(dense.iterations);
      lead.reducedEigenvalues.forEach((v, i) =>
        expect(Math.abs(v - dense.reducedEigenvalues[i]!) / dense.reducedEigenvalues[0]!).toBeLessThan(1e-9),
      );
      lead.communalities.forEach((h, j) => expect(Math.abs(h - dense.communalities[j]!)).toBeLessThan(1e-9));
      const denseGram = stats.symmetricEigen(block.gram()).values;
      g.values.forEach((v, i) => expect(Math.abs(v - denseGram[i]!) / denseGram[0]!).toBeLessThan(1e-10));
    }
    // Two models with identical responses: a second null direction, so the dense path is used.
    const dup = stats.WideBlock.fromRows(widePanel(12, 200, 7, true));
    const gram = dup.gramArray();
    expect(stats.wideOneFactorLeading(dup, 4, { gram, first: stats.gramLeading(gram, 12, 1).vectors[0]! })).toBeUndefined();
  });

  it('parallel analysis: the same counts and resamples; leading values within 1e-9 of the dense ones', () => {
    for (const [n, p, seed] of [
      [20, 600, 2],
      [45, 700, 3],
      [12, 200, 4],
    ] as const) {
      const data = widePanel(n, p, seed, seed === 4);
      const dense = stats.parallelAnalysis(data, { seed: 1, iterations: 12 });
      // Without the simulated side, the resampled side is unchanged (the generator is advanced past it).
      const noSim = stats.parallelAnalysis(data, { seed: 1, iterations: 12, simulated: false });
      expect(noSim.resampledPcQ).toEqual(dense.resampledPcQ);
      expect(noSim.resampledFaQ).toEqual(dense.resampledFaQ);
      expect(noSim.simulatedPcQ).toEqual([]);
      const lead = stats.parallelAnalysis(data, { seed: 1, iterations: 12, simulated: false, leading: 3 });
      expect([lead.nComponents, lead.nFactors]).toEqual([dense.nComponents, dense.nFactors]);
      const close = (a: number[], b: number[]) => a.forEach((v, i) => expect(Math.abs(v - b[i]!) / Math.abs(b[0]!)).toBeLessThan(1e-9));
      close(lead.observedPc, dense.observedPc);
      close(lead.observedFa, dense.observedFa);
      close(lead.resampledPcQ, dense.resampledPcQ);
      close(lead.resampledFaQ, dense.resampledFaQ);
      expect(lead.leading).toBeGreaterThan(Math.max(lead.nComponents, lead.nFactors));
    }
  });
});
