// Small helpers shared by the IRT tests: correlation, bias, RMSE, and a panel as IRT responses.

import { matrixToIrtResponses, type SimulatedIrtPanel, simulateIrtPanel, type IrtSimulationOptions } from '../src/analysis/index.js';

export function corr(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

export function bias(est: ArrayLike<number>, truth: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < est.length; i++) s += est[i]! - truth[i]!;
  return s / est.length;
}

export function rmse(est: ArrayLike<number>, truth: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < est.length; i++) s += (est[i]! - truth[i]!) ** 2;
  return Math.sqrt(s / est.length);
}

/** A simulated single-suite panel with `items` items spread over five categories. */
export function panel(
  models: number,
  items: number,
  model: IrtSimulationOptions['model'],
  seed: number,
  extra: Partial<IrtSimulationOptions> = {},
): SimulatedIrtPanel {
  const cats = ['belief', 'desire', 'emotion', 'intention', 'knowledge'];
  const per = Object.fromEntries(cats.map((c, k) => [c, Math.floor(items / 5) + (k < items % 5 ? 1 : 0)]));
  return simulateIrtPanel({ models, suites: [{ name: 'sim', items: per }], model, seed, ...extra });
}

export function responsesOf(p: SimulatedIrtPanel) {
  return matrixToIrtResponses(p.matrix);
}

/**
 * The true abilities rescaled to mean 0 and SD 1 over the panel, and the item parameters on
 * that scale: the scale the calibration identifies (its abilities are N(0, 1) over the panel).
 */
export function standardisedTruth(p: SimulatedIrtPanel): { theta: number[]; a: number[]; b: number[] } {
  const t = p.truth.theta;
  const m = t.reduce((s, v) => s + v, 0) / t.length;
  const sd = Math.sqrt(t.reduce((s, v) => s + (v - m) ** 2, 0) / t.length);
  return { theta: t.map((v) => (v - m) / sd), a: p.truth.a.map((a) => a * sd), b: p.truth.b.map((b) => (b - m) / sd) };
}
