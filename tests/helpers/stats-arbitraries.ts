// Generators and checks shared by the statistics' property tests (fast-check, fixed seed).

import fc from 'fast-check';

export const RUNS = { seed: 42, numRuns: 300 };

/** Values with many ties (small integers), or spread doubles, or tenths (rounding noise in their sums). */
export const value = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -20, max: 20 }).map((k) => k / 10),
);
export const sample = (minLength = 0, maxLength = 40) => fc.array(value, { minLength, maxLength });
/** Paired values with a sort key each, to permute the pairs. */
export const pairs = (minLength = 0, maxLength = 40) =>
  fc.array(fc.tuple(value, value, fc.double({ min: 0, max: 1, noNaN: true })), { minLength, maxLength });
export const permuted = <T>(rows: Array<[...T[], number]> | Array<readonly unknown[]>, keyAt: number) =>
  [...rows].sort((a, b) => (a[keyAt] as number) - (b[keyAt] as number));
/** Eighths in [-10, 10]: exact in binary, so that scaling and shifting them loses nothing but rounding. */
export const eighth = fc.integer({ min: -80, max: 80 }).map((k) => k / 8);
/** A power of 2 from 2^-1000 to 2^1000: scaling by it is exact, and reaches magnitudes whose squares overflow or underflow. */
export const powerOfTwo = fc.integer({ min: -1000, max: 1000 }).map((k) => 2 ** k);
export const counts = (minLength: number, maxLength: number, max = 30) => fc.array(fc.integer({ min: 0, max }), { minLength, maxLength });

/** A p-value: in [0, 1], or NaN with a reason given. */
export function validP(p: number, reason: string | undefined): boolean {
  return Number.isNaN(p) ? typeof reason === 'string' && reason.length > 0 : p >= 0 && p <= 1;
}
/** -v, without turning 0 into -0 (NaN stays NaN). */
export const neg = (v: number) => (v === 0 ? 0 : -v);
/** Equal, or both NaN, or within a relative 1e-12 (sums in another order). */
export function same(a: number, b: number, tol = 1e-12): boolean {
  return (Number.isNaN(a) && Number.isNaN(b)) || a === b || Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
}
