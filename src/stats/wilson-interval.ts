// Wilson score interval for a binomial proportion: well behaved at 0 and 1 and for small n,
// unlike the Wald interval. z = 1.959963984540054 gives a 95% interval.

export interface ProportionInterval {
  estimate: number;
  lower: number;
  upper: number;
  n: number;
}

/** The Wilson score interval of a proportion (95% by default). */
export function wilsonInterval(successes: number, n: number, z = 1.959963984540054): ProportionInterval {
  if (!(successes >= 0 && successes <= Math.max(n, 0)) || Number.isNaN(n))
    throw new Error(`wilsonInterval: successes must lie in [0, n], got ${successes} of ${n}`);
  if (n <= 0) return { estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN, n: 0 };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { estimate: p, lower: Math.max(0, centre - half), upper: Math.min(1, centre + half), n };
}
