// IRT calibration: recovery of known parameters at 27, 100 and 300 models; agreement with an
// independent dense EM and with direct maximisation of the marginal log posterior written
// here; the standard errors against a numerical Hessian; convergence with missing answers.

import { describe, expect, it } from 'vitest';
import { calibrateIrt, estimateAbilities, type IrtCalibrationOptions, type IrtResponses, normalQuadrature } from '../src/stats/index.js';
import { bias, corr, panel, responsesOf, rmse, standardisedTruth } from './irt-helpers.js';

describe('recovery of simulated 2PL parameters (200 items; truth rescaled to the panel)', () => {
  // Bounds: measured values at seeds 1-3 (see the README's IRT section) with room for noise.
  const cases = [
    { models: 27, rA: 0.35, rB: 0.88, rT: 0.97, biasA: 0.3, rmseA: 0.65, biasB: 0.2, rmseB: 0.7 },
    { models: 100, rA: 0.7, rB: 0.95, rT: 0.97, biasA: 0.2, rmseA: 0.45, biasB: 0.1, rmseB: 0.4 },
    { models: 300, rA: 0.85, rB: 0.98, rT: 0.97, biasA: 0.1, rmseA: 0.3, biasB: 0.05, rmseB: 0.25 },
  ];
  for (const c of cases) {
    it(`${c.models} models`, () => {
      const p = panel(c.models, 200, '2pl', 1);
      const r = responsesOf(p);
      const fit = calibrateIrt(r, { model: '2pl' });
      expect(fit.converged).toBe(true);
      const ab = estimateAbilities(fit.items, r.values, c.models);
      const t = standardisedTruth(p);
      expect(corr(fit.items.a, t.a)).toBeGreaterThan(c.rA);
      expect(corr(fit.items.b, t.b)).toBeGreaterThan(c.rB);
      expect(corr(ab.theta, t.theta)).toBeGreaterThan(c.rT);
      expect(Math.abs(bias(fit.items.a, t.a))).toBeLessThan(c.biasA);
      expect(rmse(fit.items.a, t.a)).toBeLessThan(c.rmseA);
      expect(Math.abs(bias(fit.items.b, t.b))).toBeLessThan(c.biasB);
      expect(rmse(fit.items.b, t.b)).toBeLessThan(c.rmseB);
      // Standard errors of b cover the truth about 95% of the time.
      let covered = 0;
      for (let i = 0; i < 200; i++) if (Math.abs(fit.items.b[i]! - t.b[i]!) <= 1.96 * fit.se.b[i]!) covered++;
      expect(covered / 200).toBeGreaterThan(c.models === 27 ? 0.8 : 0.88);
    });
  }

  it('1PL: one shared a, recovered; b correlates > 0.98 at 100 models', () => {
    const p = panel(100, 200, '1pl', 1);
    const fit = calibrateIrt(responsesOf(p), { model: '1pl' });
    const t = standardisedTruth(p);
    expect(new Set(fit.items.a).size).toBe(1);
    expect(Math.abs(fit.items.a[0]! - t.a[0]!)).toBeLessThan(0.1);
    expect(corr(fit.items.b, t.b)).toBeGreaterThan(0.98);
    expect(fit.se.a[0]).toBeGreaterThan(0);
  });

  it('3PL with the floor fixed at 1/4 and with it estimated under a Beta prior, 300 models', () => {
    const p = panel(300, 200, '3pl', 1, { guessing: 0.25 });
    const t = standardisedTruth(p);
    const fixed = calibrateIrt(responsesOf(p), { model: '3pl', guessing: 0.25 });
    expect([...fixed.items.c].every((c) => c === 0.25)).toBe(true);
    expect(corr(fixed.items.a, t.a)).toBeGreaterThan(0.75);
    expect(corr(fixed.items.b, t.b)).toBeGreaterThan(0.96);
    const est = calibrateIrt(responsesOf(p), { model: '3pl', guessing: 0.25, estimateGuessing: true });
    expect(Math.abs(bias(est.items.c, p.truth.c))).toBeLessThan(0.03);
    expect(corr(est.items.b, t.b)).toBeGreaterThan(0.95);
    expect([...est.se.c].every((s) => s > 0 && s < 0.2)).toBe(true);
  });

  it('20% of answers missing at random: still recovered at 100 models', () => {
    const p = panel(100, 200, '2pl', 1, { missingShare: 0.2 });
    const r = responsesOf(p);
    expect(r.values.filter(Number.isNaN).length).toBeGreaterThan(3000);
    const fit = calibrateIrt(r, { model: '2pl' });
    const t = standardisedTruth(p);
    expect(corr(fit.items.a, t.a)).toBeGreaterThan(0.7);
    expect(corr(fit.items.b, t.b)).toBeGreaterThan(0.94);
  });
});

// ---- An independent implementation: plain dense loops, numerical derivatives. ----

const Q = normalQuadrature(41, 6);

interface PlainPriors {
  sdLogA: number;
  sdB: number;
  /** Beta(alpha, beta) on c when c is estimated. */
  c?: { alpha: number; beta: number };
}

/** Per-item log f at each node: y log P + (1 - y) log(1 - P). */
function logLikAtNode(y: number, a: number, b: number, c: number, theta: number): number {
  const P = c + (1 - c) / (1 + Math.exp(-a * (theta - b)));
  return y * Math.log(P) + (1 - y) * Math.log(1 - P);
}

/** Log prior with the normal priors centred at the items' means (the floated centre) or at 0. */
function logPrior(params: number[][], pr: PlainPriors, floated: boolean): number {
  const la = params.map((p) => Math.log(p[0]!));
  const bs = params.map((p) => p[1]!);
  const ma = floated ? la.reduce((s, v) => s + v, 0) / la.length : 0;
  const mb = floated ? bs.reduce((s, v) => s + v, 0) / bs.length : 0;
  let lp = 0;
  for (let i = 0; i < params.length; i++) {
    lp -= (la[i]! - ma) ** 2 / (2 * pr.sdLogA ** 2) + (bs[i]! - mb) ** 2 / (2 * pr.sdB ** 2);
    if (pr.c) lp += (pr.c.alpha - 1) * Math.log(params[i]![2]!) + (pr.c.beta - 1) * Math.log(1 - params[i]![2]!);
  }
  return lp;
}

/** The marginal log posterior, summed person by person over the quadrature grid. */
function marginalLogPosterior(Y: number[][], params: number[][], pr: PlainPriors, floated: boolean): number {
  let total = 0;
  for (const row of Y) {
    let s = 0;
    for (let q = 0; q < Q.nodes.length; q++) {
      let l = Math.log(Q.weights[q]!);
      row.forEach((y, i) => {
        if (!Number.isNaN(y)) l += logLikAtNode(y, params[i]![0]!, params[i]![1]!, params[i]![2]!, Q.nodes[q]!);
      });
      s += Math.exp(l);
    }
    total += Math.log(s);
  }
  return total + logPrior(params, pr, floated);
}

/** Maximise f over x by Newton steps on finite-difference derivatives, with step halving. */
function newtonMaximise(f: (x: number[]) => number, x0: number[], iters = 60): { x: number[]; hessian: number[][] } {
  let x = x0.slice();
  const n = x.length;
  const h = 1e-4;
  const hessianAt = (z: number[]) => {
    const H = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    const f0 = f(z);
    for (let i = 0; i < n; i++)
      for (let j = i; j < n; j++) {
        const e = (di: number, dj: number) => {
          const w = z.slice();
          w[i]! += di;
          w[j]! += dj;
          return f(w);
        };
        const v = i === j ? (e(h, 0) - 2 * f0 + e(-h, 0)) / (h * h) : (e(h, h) - e(h, -h) - e(-h, h) + e(-h, -h)) / (4 * h * h);
        H[i]![j] = v;
        H[j]![i] = v;
      }
    return H;
  };
  const solve = (A: number[][], g: number[]) => {
    const M = A.map((row, i) => [...row, g[i]!]);
    for (let c = 0; c < n; c++) {
      let p = c;
      for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
      [M[c], M[p]] = [M[p]!, M[c]!];
      for (let r = 0; r < n; r++) {
        if (r === c) continue;
        const k = M[r]![c]! / M[c]![c]!;
        for (let cc = c; cc <= n; cc++) M[r]![cc]! -= k * M[c]![cc]!;
      }
    }
    return M.map((row, i) => row[n]! / row[i]!);
  };
  // Levenberg-Marquardt damping: the log posterior is not concave everywhere in (log a, b),
  // so a plain Newton step can point downhill far from the optimum.
  let mu = 0;
  for (let it = 0; it < iters; it++) {
    const g = x.map((_, i) => {
      const up = x.slice();
      const dn = x.slice();
      up[i]! += h;
      dn[i]! -= h;
      return (f(up) - f(dn)) / (2 * h);
    });
    if (Math.max(...g.map(Math.abs)) < 1e-7) break;
    const H = hessianAt(x);
    const f0 = f(x);
    for (let attempt = 0; attempt < 60; attempt++) {
      const step = solve(
        H.map((r, i) => r.map((v, j) => -v + (i === j ? mu : 0))),
        g,
      );
      const next = x.map((v, i) => v + step[i]!);
      if (f(next) > f0) {
        x = next;
        mu /= 10;
        break;
      }
      mu = mu === 0 ? 1e-2 : mu * 10;
    }
  }
  return { x, hessian: hessianAt(x) };
}

/** Start values for the direct maximiser, (log a, b[, logit c]) per item: a = 1, b from the proportion correct. */
function startFromProportions(Y: number[][], withC = false): number[] {
  const J = Y[0]!.length;
  const x: number[] = [];
  for (let i = 0; i < J; i++) {
    const ys = Y.map((row) => row[i]!).filter((v) => !Number.isNaN(v));
    const p = Math.min(0.95, Math.max(0.05, ys.reduce((s, v) => s + v, 0) / ys.length));
    x.push(0, -1.2 * Math.log(p / (1 - p)));
    if (withC) x.push(Math.log(0.25 / 0.75));
  }
  return x;
}

function toRows(r: IrtResponses): number[][] {
  return Array.from({ length: r.nPersons }, (_, j) => Array.from(r.values.subarray(j * r.nItems, (j + 1) * r.nItems)));
}

/**
 * A dense Bock-Aitkin EM written plainly: full posterior per person, M-step by numerical Newton
 * per item with the normal priors centred at the items' current means when `floated`; with
 * `standardise`, the items are then rescaled so that the panel's posterior ability mean and SD
 * are 0 and 1 (the library's default).
 */
function plainEm(Y: number[][], J: number, pr: PlainPriors, iters: number, opts: { floated: boolean; standardise: boolean }): number[][] {
  let params = Array.from({ length: J }, () => [1, 0, 0]);
  for (let it = 0; it < iters; it++) {
    let m1 = 0;
    let m2 = 0;
    const ma = opts.floated ? params.reduce((s, p) => s + Math.log(p[0]!), 0) / J : 0;
    const mb = opts.floated ? params.reduce((s, p) => s + p[1]!, 0) / J : 0;
    const r = Array.from({ length: J }, () => new Array<number>(Q.nodes.length).fill(0));
    const n = Array.from({ length: J }, () => new Array<number>(Q.nodes.length).fill(0));
    for (const row of Y) {
      const l = Q.nodes.map((t, q) => {
        let s = Math.log(Q.weights[q]!);
        row.forEach((y, i) => {
          if (!Number.isNaN(y)) s += logLikAtNode(y, params[i]![0]!, params[i]![1]!, 0, t);
        });
        return s;
      });
      const m = Math.max(...l);
      const w = l.map((v) => Math.exp(v - m));
      const tot = w.reduce((s, v) => s + v, 0);
      w.forEach((v, q) => {
        m1 += (v / tot) * Q.nodes[q]!;
        m2 += (v / tot) * Q.nodes[q]! ** 2;
      });
      row.forEach((y, i) => {
        if (Number.isNaN(y)) return;
        w.forEach((v, q) => {
          r[i]![q]! += (y * v) / tot;
          n[i]![q]! += v / tot;
        });
      });
    }
    params = params.map((p, i) => {
      const obj = (x: number[]) => {
        let s = -((x[0]! - ma) ** 2) / (2 * pr.sdLogA ** 2) - (x[1]! - mb) ** 2 / (2 * pr.sdB ** 2);
        Q.nodes.forEach((t, q) => {
          const z = Math.exp(x[0]!) * (t - x[1]!);
          s += r[i]![q]! * -Math.log1p(Math.exp(-z)) + (n[i]![q]! - r[i]![q]!) * -Math.log1p(Math.exp(z));
        });
        return s;
      };
      const { x } = newtonMaximise(obj, [Math.log(p[0]!), p[1]!], 20);
      return [Math.exp(x[0]!), x[1]!, 0];
    });
    if (opts.standardise) {
      const mean = m1 / Y.length;
      const sd = Math.sqrt(m2 / Y.length - mean * mean);
      params = params.map((p) => [p[0]! * sd, (p[1]! - mean) / sd, 0]);
    }
  }
  return params;
}

const FIXED_PRIORS: IrtCalibrationOptions['priors'] = { logA: { mean: 0, sd: 0.5 }, b: { mean: 0, sd: 2 } };

describe('against an independent implementation on the same data', () => {
  const p = panel(60, 6, '2pl', 4, { missingShare: 0.1 });
  const r = responsesOf(p);
  const Y = toRows(r);

  it('the default estimator (floating prior centres, panel-standardised scale) equals a plain dense EM doing the same: |diff| < 1e-4', () => {
    const ours = calibrateIrt(r, { model: '2pl', priors: FIXED_PRIORS, tolerance: 1e-9, maxIterations: 2000 });
    const plain = plainEm(Y, 6, { sdLogA: 0.5, sdB: 2 }, 150, { floated: true, standardise: true });
    for (let i = 0; i < 6; i++) {
      expect(Math.abs(ours.items.a[i]! - plain[i]![0]!)).toBeLessThan(1e-4);
      expect(Math.abs(ours.items.b[i]! - plain[i]![1]!)).toBeLessThan(1e-4);
    }
  });

  it('plain EM (parameterExpansion: false) reaches the same fixed point as the dense EM, and both maximise the marginal log posterior (< 2e-4)', () => {
    for (const floated of [false, true]) {
      const ours = calibrateIrt(r, {
        model: '2pl',
        priors: FIXED_PRIORS,
        floatPriors: floated,
        parameterExpansion: false,
        tolerance: 1e-10,
        maxIterations: 20000,
      });
      const plain = plainEm(Y, 6, { sdLogA: 0.5, sdB: 2 }, 150, { floated, standardise: false });
      const f = (x: number[]) =>
        marginalLogPosterior(
          Y,
          Array.from({ length: 6 }, (_, i) => [Math.exp(x[2 * i]!), x[2 * i + 1]!, 0]),
          { sdLogA: 0.5, sdB: 2 },
          floated,
        );
      const { x } = newtonMaximise(f, startFromProportions(Y));
      for (let i = 0; i < 6; i++) {
        expect(Math.abs(ours.items.a[i]! - plain[i]![0]!)).toBeLessThan(2e-4);
        expect(Math.abs(ours.items.b[i]! - plain[i]![1]!)).toBeLessThan(2e-4);
        expect(Math.abs(ours.items.a[i]! - Math.exp(x[2 * i]!))).toBeLessThan(2e-4);
        expect(Math.abs(ours.items.b[i]! - x[2 * i + 1]!)).toBeLessThan(2e-4);
      }
      // The log posterior the EM reports is the one maximised here.
      if (!floated) expect(ours.logPosterior).toBeCloseTo(f(x), 4);
    }
  });

  it('without priors, the default estimator is the maximum likelihood: direct maximisation agrees (< 2e-4)', () => {
    const q = panel(120, 4, '2pl', 6, { discrimination: { meanLog: 0, sdLog: 0.2 } });
    const rq = responsesOf(q);
    const Yq = toRows(rq);
    const ours = calibrateIrt(rq, { model: '2pl', priors: { logA: null, b: null }, tolerance: 1e-10, maxIterations: 5000 });
    const f = (x: number[]) =>
      marginalLogPosterior(
        Yq,
        Array.from({ length: 4 }, (_, i) => [Math.exp(x[2 * i]!), x[2 * i + 1]!, 0]),
        { sdLogA: Number.POSITIVE_INFINITY, sdB: Number.POSITIVE_INFINITY },
        false,
      );
    const { x } = newtonMaximise(f, startFromProportions(Yq));
    for (let i = 0; i < 4; i++) {
      expect(Math.abs(ours.items.a[i]! - Math.exp(x[2 * i]!))).toBeLessThan(2e-4);
      expect(Math.abs(ours.items.b[i]! - x[2 * i + 1]!)).toBeLessThan(2e-4);
    }
    expect(ours.logLikelihood).toBeCloseTo(f(x), 5);
  });

  it('standard errors equal the inverse of the numerical Hessian block per item (1e-3 relative), and the full inverse within 15%', () => {
    const ours = calibrateIrt(r, {
      model: '2pl',
      priors: FIXED_PRIORS,
      floatPriors: false,
      parameterExpansion: false,
      tolerance: 1e-10,
      maxIterations: 20000,
    });
    // Hessian in (log a, b) of every item at our estimates.
    const x = Array.from({ length: 12 }, (_, k) => (k % 2 === 0 ? Math.log(ours.items.a[k / 2]!) : ours.items.b[(k - 1) / 2]!));
    const f = (z: number[]) =>
      marginalLogPosterior(
        Y,
        Array.from({ length: 6 }, (_, i) => [Math.exp(z[2 * i]!), z[2 * i + 1]!, 0]),
        { sdLogA: 0.5, sdB: 2 },
        false,
      );
    const { hessian } = newtonMaximise(f, x, 0);
    for (let i = 0; i < 6; i++) {
      const h11 = -hessian[2 * i]![2 * i]!;
      const h12 = -hessian[2 * i]![2 * i + 1]!;
      const h22 = -hessian[2 * i + 1]![2 * i + 1]!;
      const det = h11 * h22 - h12 * h12;
      const seLogA = Math.sqrt(h22 / det);
      const seB = Math.sqrt(h11 / det);
      expect(ours.se.a[i]! / (ours.items.a[i]! * seLogA)).toBeCloseTo(1, 3);
      expect(ours.se.b[i]! / seB).toBeCloseTo(1, 3);
    }
    // Full inverse (all items jointly) by Gauss-Jordan.
    const n = 12;
    const M = hessian.map((row, i) => [...row.map((v) => -v), ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
    for (let c = 0; c < n; c++) {
      const piv = M[c]![c]!;
      for (let k = 0; k < 2 * n; k++) M[c]![k]! /= piv;
      for (let rr = 0; rr < n; rr++) {
        if (rr === c) continue;
        const m = M[rr]![c]!;
        for (let k = 0; k < 2 * n; k++) M[rr]![k]! -= m * M[c]![k]!;
      }
    }
    for (let i = 0; i < 6; i++) {
      const fullSeB = Math.sqrt(M[2 * i + 1]![n + 2 * i + 1]!);
      expect(Math.abs(ours.se.b[i]! / fullSeB - 1)).toBeLessThan(0.15);
    }
  });

  it('3PL with c estimated under a Beta(6, 16) prior: EM and direct maximisation agree (< 5e-4)', () => {
    const p3 = panel(80, 4, '3pl', 9, { guessing: 0.25 });
    const r3 = responsesOf(p3);
    const Y3 = toRows(r3);
    const ours = calibrateIrt(r3, {
      model: '3pl',
      guessing: 0.25,
      estimateGuessing: true,
      priors: { ...FIXED_PRIORS, c: { alpha: 6, beta: 16 } },
      floatPriors: false,
      parameterExpansion: false,
      tolerance: 1e-10,
      maxIterations: 20000,
      mStepIterations: 10,
    });
    const f = (z: number[]) =>
      marginalLogPosterior(
        Y3,
        Array.from({ length: 4 }, (_, i) => [Math.exp(z[3 * i]!), z[3 * i + 1]!, 1 / (1 + Math.exp(-z[3 * i + 2]!))]),
        { sdLogA: 0.5, sdB: 2, c: { alpha: 6, beta: 16 } },
        false,
      );
    const { x } = newtonMaximise(f, startFromProportions(Y3, true));
    for (let i = 0; i < 4; i++) {
      expect(Math.abs(ours.items.a[i]! - Math.exp(x[3 * i]!))).toBeLessThan(5e-4);
      expect(Math.abs(ours.items.b[i]! - x[3 * i + 1]!)).toBeLessThan(5e-4);
      expect(Math.abs(ours.items.c[i]! - 1 / (1 + Math.exp(-x[3 * i + 2]!)))).toBeLessThan(5e-4);
    }
  });

  it('without priors, parameter-expanded and plain EM reach the same maximum likelihood', () => {
    const q = panel(200, 8, '2pl', 5);
    const rr = responsesOf(q);
    const none = { logA: null, b: null };
    const px = calibrateIrt(rr, { model: '2pl', priors: none, tolerance: 1e-8, maxIterations: 5000 });
    const plain = calibrateIrt(rr, { model: '2pl', priors: none, parameterExpansion: false, tolerance: 1e-9, maxIterations: 20000 });
    expect(px.converged && plain.converged).toBe(true);
    expect(px.iterations).toBeLessThan(plain.iterations);
    expect(px.logLikelihood).toBeCloseTo(plain.logLikelihood, 4);
    for (let i = 0; i < 8; i++) expect(Math.abs(px.items.b[i]! - plain.items.b[i]!)).toBeLessThan(1e-3);
  });
});

describe('input checks', () => {
  it('refuses cells outside [0, 1], a 3PL without a floor and fewer than two persons', () => {
    expect(() => calibrateIrt({ nPersons: 2, nItems: 1, values: Float64Array.of(1, 2) }, { model: '2pl' })).toThrow(
      /person 1, item 0: 2 is not in \[0, 1\]/,
    );
    expect(() => calibrateIrt({ nPersons: 2, nItems: 1, values: Float64Array.of(1, 0) }, { model: '3pl' })).toThrow(/needs `guessing`/);
    expect(() => calibrateIrt({ nPersons: 1, nItems: 1, values: Float64Array.of(1) }, { model: '2pl' })).toThrow(/at least 2 persons/);
  });

  it('is deterministic: the same data give the same bytes', () => {
    const p = panel(40, 30, '2pl', 2);
    const a = calibrateIrt(responsesOf(p), { model: '2pl' });
    const b = calibrateIrt(responsesOf(p), { model: '2pl' });
    expect(Buffer.from(a.items.a.buffer).equals(Buffer.from(b.items.a.buffer))).toBe(true);
    expect(Buffer.from(a.se.b.buffer).equals(Buffer.from(b.se.b.buffer))).toBe(true);
  });
});
