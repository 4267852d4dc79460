// Small closed forms: normalised entropy, pass@k and pass^k.

import { lnChoose } from './distributions.js';
import { requireCounts } from './validate.js';

function requireDraws(fn: string, n: number, c: number, k: number): void {
  if (![n, c, k].every((v) => Number.isInteger(v) && v >= 0) || c > n)
    throw new Error(`${fn}: needs whole numbers with 0 <= c <= n and k >= 0, got n = ${n}, c = ${c}, k = ${k}`);
}

/**
 * Shannon entropy of counts in nats, divided by ln K (K categories, empty ones included; 0 when
 * K <= 1). No observations (every count 0, or none) have no distribution: NaN with a `reason`.
 */
export function normalizedEntropy(
  counts: number[],
  categories = counts.length,
): { nats: number; bits: number; normalized: number; reason?: string } {
  requireCounts('normalizedEntropy', 'counts', counts);
  const n = counts.reduce((a, b) => a + b, 0);
  if (n === 0) return { nats: Number.NaN, bits: Number.NaN, normalized: Number.NaN, reason: 'no observations: every count is 0' };
  let h = 0;
  for (const c of counts) if (c > 0) h -= (c / n) * Math.log(c / n);
  h = h === 0 ? 0 : h;
  return { nats: h, bits: h / Math.LN2, normalized: categories <= 1 ? 0 : h / Math.log(categories) };
}

/** Unbiased pass@k from n samples with c correct (the HumanEval product form). */
export function passAtK(n: number, c: number, k: number): number {
  requireDraws('passAtK', n, c, k);
  if (k > n) throw new Error(`k (${k}) exceeds n (${n})`);
  if (n - c < k) return 1;
  let prod = 1;
  for (let i = n - c + 1; i <= n; i++) prod *= 1 - k / i;
  return 1 - prod;
}

/** pass^k: the probability that k draws without replacement are all correct, C(c,k)/C(n,k). */
export function passHatK(n: number, c: number, k: number): number {
  requireDraws('passHatK', n, c, k);
  if (k > n) throw new Error(`k (${k}) exceeds n (${n})`);
  if (c < k) return 0;
  return Math.exp(lnChoose(c, k) - lnChoose(n, k));
}
