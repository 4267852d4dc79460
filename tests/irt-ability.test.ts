// Ability estimates (EAP, MAP, MLE), item and test information, and item fit, each against a
// direct computation written here.

import { describe, expect, it } from 'vitest';
import { createRng } from '../src/core/index.js';
import { estimateAbility, irtItemInformation, irtItems, irtProbability, irtTestInformation, itemFit } from '../src/stats/index.js';

function randomItems(n: number, seed: number, c = 0) {
  const rng = createRng(seed);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    a.push(0.5 + 2 * rng.next());
    b.push(-2.5 + 5 * rng.next());
  }
  return irtItems(a, b, new Array(n).fill(c));
}

function answers(items: ReturnType<typeof randomItems>, theta: number, seed: number): Float64Array {
  const rng = createRng(seed);
  return Float64Array.from(items.a, (_, i) => (rng.next() < irtProbability(items.a[i]!, items.b[i]!, items.c[i]!, theta) ? 1 : 0));
}

/** Log posterior with an N(0, 1) prior, written directly. */
function logPost(items: ReturnType<typeof randomItems>, y: ArrayLike<number>, t: number, prior = true): number {
  let s = prior ? -0.5 * t * t : 0;
  for (let i = 0; i < y.length; i++) {
    if (Number.isNaN(y[i]!)) continue;
    const p = irtProbability(items.a[i]!, items.b[i]!, items.c[i]!, t);
    s += y[i]! * Math.log(p) + (1 - y[i]!) * Math.log(1 - p);
  }
  return s;
}

/**
 * Posterior mean and SD by brute force: the mode located on a 0.01 grid over [-12, 12], then
 * 20,001 points over the mode +- 1.5 (the posterior is far narrower than that here) or over
 * [-12, 12] when it is wide.
 */
function bruteEap(items: ReturnType<typeof randomItems>, y: ArrayLike<number>): { mean: number; sd: number } {
  let mode = 0;
  let best = Number.NEGATIVE_INFINITY;
  for (let t = -12; t <= 12; t += 0.01) {
    const l = logPost(items, y, t);
    if (l > best) {
      best = l;
      mode = t;
    }
  }
  const narrow = logPost(items, y, mode + 1.5) < best - 50 && logPost(items, y, mode - 1.5) < best - 50;
  const [lo, hi] = narrow ? [mode - 1.5, mode + 1.5] : [-12, 12];
  const n = 20001;
  let w = 0;
  let m1 = 0;
  let m2 = 0;
  for (let k = 0; k < n; k++) {
    const t = lo + ((hi - lo) * k) / (n - 1);
    const e = Math.exp(logPost(items, y, t) - best);
    w += e;
    m1 += e * t;
    m2 += e * t * t;
  }
  return { mean: m1 / w, sd: Math.sqrt(m2 / w - (m1 / w) ** 2) };
}

describe('ability estimates against direct computation', () => {
  const cases = [
    { name: '2PL, 8 items', items: randomItems(8, 1), theta: 0.7 },
    { name: '2PL, 1,500 items (posterior SD about 0.04)', items: randomItems(1500, 2), theta: -0.4 },
    { name: '3PL (c = 0.25), 30 items', items: randomItems(30, 3, 0.25), theta: 1.2 },
  ];
  for (const c of cases) {
    it(`${c.name}: EAP and posterior SD within 1e-5 of brute-force integration`, () => {
      const y = answers(c.items, c.theta, 7);
      y[0] = Number.NaN; // a missing answer is skipped
      const e = estimateAbility(c.items, y, { method: 'eap' });
      const ref = bruteEap(c.items, y);
      expect(Math.abs(e.theta - ref.mean)).toBeLessThan(1e-5);
      expect(Math.abs(e.se - ref.sd)).toBeLessThan(1e-5);
      expect(e.n).toBe(c.items.a.length - 1);
    });
    it(`${c.name}: MAP and MLE are where the numerical derivative of the log posterior / likelihood vanishes`, () => {
      const y = answers(c.items, c.theta, 7);
      for (const [method, prior] of [
        ['map', true],
        ['mle', false],
      ] as const) {
        const e = estimateAbility(c.items, y, { method });
        const h = 1e-5;
        const d = (logPost(c.items, y, e.theta + h, prior) - logPost(c.items, y, e.theta - h, prior)) / (2 * h);
        expect(Math.abs(d)).toBeLessThan(1e-4 * Math.max(1, Math.sqrt(c.items.a.length)));
        // It is the maximum: nearby points are lower.
        expect(logPost(c.items, y, e.theta, prior)).toBeGreaterThan(logPost(c.items, y, e.theta + 0.01, prior));
        expect(logPost(c.items, y, e.theta, prior)).toBeGreaterThan(logPost(c.items, y, e.theta - 0.01, prior));
      }
    });
  }

  it('MLE is +-Infinity for all-correct and all-wrong answers, MAP and EAP stay finite', () => {
    const items = randomItems(10, 4);
    const ones = new Float64Array(10).fill(1);
    expect(estimateAbility(items, ones, { method: 'mle' }).theta).toBe(Number.POSITIVE_INFINITY);
    expect(estimateAbility(items, new Float64Array(10), { method: 'mle' }).theta).toBe(Number.NEGATIVE_INFINITY);
    const eap = estimateAbility(items, ones);
    expect(Number.isFinite(eap.theta) && eap.theta > 0.5).toBe(true);
    expect(Math.abs(eap.theta - bruteEap(items, ones).mean)).toBeLessThan(1e-5);
  });
});

describe('information', () => {
  it("item information equals P'(theta)^2 / (P (1 - P)) by numerical differentiation, for 2PL and 3PL", () => {
    for (const [a, b, c] of [
      [1.3, 0.4, 0],
      [2.2, -1, 0.25],
      [0.6, 2, 0.2],
    ] as const)
      for (const t of [-3, -1, 0, 0.5, 2.5]) {
        const h = 1e-6;
        const dp = (irtProbability(a, b, c, t + h) - irtProbability(a, b, c, t - h)) / (2 * h);
        const p = irtProbability(a, b, c, t);
        expect(irtItemInformation(a, b, c, t)).toBeCloseTo((dp * dp) / (p * (1 - p)), 7);
      }
  });

  it('test information is the sum of item informations', () => {
    const items = randomItems(25, 5, 0.2);
    const ti = irtTestInformation(items, [-1, 0, 1]);
    for (const [k, t] of [-1, 0, 1].entries()) {
      let s = 0;
      for (let i = 0; i < 25; i++) s += irtItemInformation(items.a[i]!, items.b[i]!, items.c[i]!, t);
      expect(ti[k]).toBeCloseTo(s, 10);
    }
  });
});

describe('item fit (infit / outfit)', () => {
  const N = 400;
  const J = 30;
  const items = randomItems(J, 6);
  const rng = createRng(8);
  const theta = Array.from({ length: N }, () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next()));
  const values = new Float64Array(N * J);
  for (let j = 0; j < N; j++)
    for (let i = 0; i < J; i++) values[j * J + i] = rng.next() < irtProbability(items.a[i]!, items.b[i]!, 0, theta[j]!) ? 1 : 0;
  // Item 0 answered against the model (a reversed key).
  for (let j = 0; j < N; j++) values[j * J] = 1 - values[j * J]!;

  it('matches the mean-square formulas computed directly', () => {
    const fit = itemFit(items, { nPersons: N, nItems: J, values }, theta);
    for (const i of [0, 5, 17]) {
      let z2 = 0;
      let r2 = 0;
      let w = 0;
      for (let j = 0; j < N; j++) {
        const p = irtProbability(items.a[i]!, items.b[i]!, 0, theta[j]!);
        const y = values[j * J + i]!;
        z2 += (y - p) ** 2 / (p * (1 - p));
        r2 += (y - p) ** 2;
        w += p * (1 - p);
      }
      expect(fit.outfit[i]).toBeCloseTo(z2 / N, 10);
      expect(fit.infit[i]).toBeCloseTo(r2 / w, 10);
    }
  });

  it('is near 1 for items that follow the model and flags the reversed item', () => {
    const fit = itemFit(items, { nPersons: N, nItems: J, values }, theta);
    const rest = Array.from(fit.infit).slice(1);
    expect(rest.reduce((s, v) => s + v, 0) / rest.length).toBeGreaterThan(0.95);
    expect(rest.reduce((s, v) => s + v, 0) / rest.length).toBeLessThan(1.05);
    expect(
      Array.from(fit.infitT)
        .slice(1)
        .filter((t) => Math.abs(t) > 2.5).length,
    ).toBeLessThanOrEqual(2);
    expect(fit.outfit[0]).toBeGreaterThan(2);
    expect(fit.infitT[0]).toBeGreaterThan(5);
  });
});
