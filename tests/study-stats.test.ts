// The statistics the studies added: the Clopper-Pearson interval (DialToM's expert ceiling),
// two-rater agreement (Cohen's kappa and Gwet's AC1 for judge-human agreement) and BERTScore's
// greedy matching, each against the paper's printed value where there is one and against an
// independent computation written here; and the token embeddings BERTScore reads from a GGUF.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bertScore, clopperPearsonInterval, regularizedBeta, twoRaterAgreement } from '../src/stats/index.js';
import { openTokenEmbedder } from '../src/models/index.js';
import { llamaInstalled } from './helpers/llama.js';

/** P(X <= k) for X ~ Binomial(n, p), by the pmf recursion (independent of the beta function). */
function binomCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  let pmf = (1 - p) ** n;
  let sum = pmf;
  for (let i = 1; i <= k; i++) {
    pmf *= ((n - i + 1) / i) * (p / (1 - p));
    sum += pmf;
  }
  return sum;
}

/** Clopper-Pearson by bisection on binomial tails: lower solves P(X >= k; p) = a/2, upper P(X <= k; p) = a/2. */
function cpByTails(k: number, n: number): [number, number] {
  const solve = (f: (p: number) => number) => {
    let lo = 1e-12;
    let hi = 1 - 1e-12;
    for (let i = 0; i < 200; i++) {
      const mid = (lo + hi) / 2;
      if (f(mid) < 0) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  const lower = k === 0 ? 0 : solve((p) => 1 - binomCdf(k - 1, n, p) - 0.025);
  const upper = k === n ? 1 : solve((p) => 0.025 - binomCdf(k, n, p));
  return [lower, upper];
}

describe('Clopper-Pearson', () => {
  it("gives DialToM's printed expert-ceiling interval: 20 of 20 right, [83.2%, 100%]", () => {
    const ci = clopperPearsonInterval(20, 20);
    expect((ci.lower * 100).toFixed(1)).toBe('83.2');
    expect(ci.upper).toBe(1);
  });

  it('agrees with binomial tails computed independently, and with scipy.stats.beta.ppf', () => {
    for (const [k, n] of [
      [20, 20],
      [16, 20],
      [0, 10],
      [3, 7],
      [291, 900],
      [1, 1000],
      [50, 100],
    ] as const) {
      const ci = clopperPearsonInterval(k, n);
      const [lo, hi] = cpByTails(k, n);
      expect(ci.lower).toBeCloseTo(lo, 9);
      expect(ci.upper).toBeCloseTo(hi, 9);
    }
    // scipy 1.17: beta.ppf(0.025, 16, 5), beta.ppf(0.975, 17, 4), beta.ppf(0.975, 1, 10).
    expect(clopperPearsonInterval(16, 20).lower).toBeCloseTo(0.5633859970033317, 12);
    expect(clopperPearsonInterval(16, 20).upper).toBeCloseTo(0.9426660029499672, 12);
    expect(clopperPearsonInterval(0, 10).upper).toBeCloseTo(0.3084971078187607, 12);
    expect(regularizedBeta(0.3, 2, 5)).toBeCloseTo(1 - binomCdf(1, 6, 0.3), 12);
    expect(() => clopperPearsonInterval(21, 20)).toThrow(/successes must be a whole number in \[0, 20\]/);
  });

  it('covers at least 95% for every true p (n = 20)', () => {
    const intervals = Array.from({ length: 21 }, (_, k) => clopperPearsonInterval(k, 20));
    for (let p = 0.005; p < 1; p += 0.01) {
      let coverage = 0;
      intervals.forEach((ci, k) => {
        if (ci.lower <= p && p <= ci.upper) coverage += binomCdf(k, 20, p) - binomCdf(k - 1, 20, p);
      });
      expect(coverage).toBeGreaterThanOrEqual(0.95 - 1e-12);
    }
  });
});

describe('two-rater agreement', () => {
  it("Cohen's kappa of the textbook 2 x 2 example (20, 5, 10, 15: kappa 0.4) and Gwet's AC1 computed by hand", () => {
    const a = [...Array(25).fill('yes'), ...Array(25).fill('no')];
    const b = [...Array(20).fill('yes'), ...Array(5).fill('no'), ...Array(10).fill('yes'), ...Array(15).fill('no')];
    const r = twoRaterAgreement(a, b);
    expect(r.percentAgreement).toBeCloseTo(0.7, 12);
    expect(r.kappaChance).toBeCloseTo(0.5, 12);
    expect(r.kappa).toBeCloseTo(0.4, 12);
    // AC1: pe = sum_k pi_k (1 - pi_k) / (q - 1), pi_yes = (25/50 + 30/50) / 2 = 0.55.
    expect(r.ac1).toBeCloseTo((0.7 - 2 * 0.55 * 0.45) / (1 - 2 * 0.55 * 0.45), 12);
    expect(r.table).toEqual([
      [15, 10],
      [5, 20],
    ]);
  });

  it('shows the kappa paradox that AC1 avoids, and refuses unpaired labels', () => {
    // 48 of 50 agree, nearly all "correct": kappa collapses, AC1 stays high.
    const a = [...Array(48).fill(1), 1, 0];
    const b = [...Array(48).fill(1), 0, 1];
    const r = twoRaterAgreement(a, b);
    expect(r.percentAgreement).toBeCloseTo(0.96, 12);
    expect(r.kappa).toBeLessThan(0);
    expect(r.ac1).toBeGreaterThan(0.95);
    expect(twoRaterAgreement([1, 1], [1, 1]).kappa).toBeNaN();
    expect(() => twoRaterAgreement([1], [1, 0])).toThrow(/1 labels against 2/);
  });
});

describe('BERTScore', () => {
  const cos = (x: number[], y: number[]) => {
    const dot = x.reduce((s, v, i) => s + v * y[i]!, 0);
    return dot / Math.sqrt(x.reduce((s, v) => s + v * v, 0) * y.reduce((s, v) => s + v * v, 0));
  };
  const vectors = (n: number, seed: number) =>
    Array.from({ length: n }, (_, i) => Array.from({ length: 5 }, (_, d) => Math.sin(seed * 7.1 + i * 3.3 + d * 1.7) + 0.2));

  it('greedy matching by cosine, as computed here token by token', () => {
    const cand = vectors(4, 1);
    const ref = vectors(6, 2);
    const recall = ref.reduce((s, r) => s + Math.max(...cand.map((c) => cos(r, c))), 0) / ref.length;
    const precision = cand.reduce((s, c) => s + Math.max(...ref.map((r) => cos(r, c))), 0) / cand.length;
    const r = bertScore(cand, ref);
    expect(r.recall).toBeCloseTo(recall, 12);
    expect(r.precision).toBeCloseTo(precision, 12);
    expect(r.f1).toBeCloseTo((2 * precision * recall) / (precision + recall), 12);
    const rescaled = bertScore(cand, ref, { baseline: 0.8 });
    expect(rescaled.f1).toBeCloseTo((r.f1 - 0.8) / 0.2, 12);
    // idf weights: the weighted mean of the best matches.
    const w = [1, 2, 0.5, 3];
    const wp = cand.reduce((s, c, i) => s + w[i]! * Math.max(...ref.map((x) => cos(x, c))), 0) / w.reduce((a, b) => a + b, 0);
    expect(bertScore(cand, ref, { idf: { candidate: w, reference: ref.map(() => 1) } }).precision).toBeCloseTo(wp, 12);
    expect(bertScore(cand, cand).f1).toBeCloseTo(1, 12);
    expect(() => bertScore([], ref)).toThrow(/a text has no tokens/);
  });

  it.skipIf(!llamaInstalled)(
    'reads one contextual vector per token from a causal GGUF, the same for a shared prefix',
    async () => {
      const e = await openTokenEmbedder(join(import.meta.dirname, 'fixtures', 'models', 'stories260k-f32.gguf'));
      try {
        const a = await e.embed('Lily was sad.');
        const b = await e.embed('Lily was sad. She cried.');
        expect(a.length).toBeGreaterThan(2);
        expect(b.length).toBeGreaterThan(a.length);
        // Causal attention: the first tokens' vectors do not depend on what follows.
        for (let i = 0; i < a.length - 1; i++) for (let d = 0; d < a[i]!.length; d++) expect(b[i]![d]).toBeCloseTo(a[i]![d]!, 5);
        expect(bertScore(a, a).f1).toBeCloseTo(1, 10);
        expect(e.describe).toMatch(/last hidden layer of .*stories260k-f32\.gguf \(llama\)/);
      } finally {
        await e.close();
      }
      await expect(openTokenEmbedder('/nonexistent/model.gguf')).rejects.toThrow(
        /no such GGUF file \(BERTScore needs a local embedding model\)/,
      );
    },
    120_000,
  );
});
