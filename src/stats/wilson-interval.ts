// Wilson score interval for a binomial proportion: well behaved at 0 and 1 and for small n,
// unlike the Wald interval. z = 1.959963984540054 gives a 95% interval.

export interface ProportionInterval {
  estimate: number;
  lower: number;
  upper: number;
  n: number;
  /** Why estimate and bounds are NaN (no trials); absent when they are defined. */
  reason?: string;
}

/** The Wilson score interval of a proportion (95% by default); NaN with a `reason` when n is 0. It contains the estimate, and has positive width whenever n > 0. A z that is not a finite number > 0 throws. */
export function wilsonInterval(successes: number, n: number, z = 1.959963984540054): ProportionInterval {
  if (!(successes >= 0 && successes <= Math.max(n, 0)) || Number.isNaN(n))
    throw new Error(`wilsonInterval: successes must lie in [0, n], got ${successes} of ${n}`);
  // z <= 0 would give an interval of no width (or one turned inside out), NaN one of NaN bounds.
  if (!(z > 0 && z < Number.POSITIVE_INFINITY)) throw new Error(`wilsonInterval: z must be a finite number > 0, got ${z}`);
  if (n <= 0) return { estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN, n: 0, reason: 'no trials: the proportion is undefined' };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // The interval contains p in exact arithmetic; rounding can leave the bound at 1 - 2e-16 when
  // p = 1 (and above 0 when p = 0), so the bounds are held on the estimate's side.
  return { estimate: p, lower: Math.min(p, Math.max(0, centre - half)), upper: Math.max(p, Math.min(1, centre + half)), n };
}
