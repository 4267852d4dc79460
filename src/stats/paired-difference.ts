// Newcombe's hybrid score interval for the difference of two proportions measured on the same
// units (method 10 of Newcombe 1998, Statistics in Medicine 17:2635): the Wilson intervals of
// the two marginal proportions combined by "square and add", with the correlation between them
// (the phi coefficient of the 2x2 table, corrected towards zero when positive) taken out.
// Unlike a bootstrap over units it keeps positive width when every unit is discordant the same
// way, and unlike the Wald interval it never leaves [-1, 1]. Fagerland, Lydersen & Laake (2014)
// recommend it for paired binomial data.

import { wilsonInterval } from './wilson-interval.js';

/** A paired 2x2 table: units both got right, only the first, only the second, neither. */
export interface PairedCounts {
  both: number;
  onlyFirst: number;
  onlySecond: number;
  neither: number;
}

export interface PairedDifferenceInterval {
  /** First proportion minus the second. */
  estimate: number;
  lower: number;
  upper: number;
  n: number;
  /** Why there is no interval, when there is none. */
  note?: string;
}

/** Newcombe's hybrid score interval (method 10) for p1 - p2 from a paired 2x2 table; 95% by default. */
export function newcombePairedInterval(t: PairedCounts, z = 1.959963984540054): PairedDifferenceInterval {
  const cells = [t.both, t.onlyFirst, t.onlySecond, t.neither];
  if (cells.some((c) => !Number.isInteger(c) || c < 0))
    throw new Error(`newcombePairedInterval: counts must be whole numbers >= 0, got ${cells.join(', ')}`);
  const n = t.both + t.onlyFirst + t.onlySecond + t.neither;
  if (n === 0) return { estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN, n, note: 'no units' };
  const first = t.both + t.onlyFirst;
  const second = t.both + t.onlySecond;
  const p1 = first / n;
  const p2 = second / n;
  const estimate = (t.onlyFirst - t.onlySecond) / n;
  const w1 = wilsonInterval(first, n, z);
  const w2 = wilsonInterval(second, n, z);
  // phi, with Newcombe's correction: a positive ad - bc loses n/2 (not below 0); 0 when a margin is empty.
  const margins = first * (n - first) * second * (n - second);
  let phi = 0;
  if (margins > 0) {
    const ad = t.both * t.neither - t.onlyFirst * t.onlySecond;
    const corrected = ad > n / 2 ? ad - n / 2 : Math.min(ad, 0);
    phi = corrected / Math.sqrt(margins);
  }
  // max(0, ...): the radicands are sums of squares less at most twice their product, >= 0 but for rounding.
  const below = Math.sqrt(Math.max(0, (p1 - w1.lower) ** 2 + (w2.upper - p2) ** 2 - 2 * phi * (p1 - w1.lower) * (w2.upper - p2)));
  const above = Math.sqrt(Math.max(0, (p2 - w2.lower) ** 2 + (w1.upper - p1) ** 2 - 2 * phi * (p2 - w2.lower) * (w1.upper - p1)));
  return { estimate, lower: Math.max(-1, estimate - below), upper: Math.min(1, estimate + above), n };
}
