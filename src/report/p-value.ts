// p-values as the reports print them: four decimals where they suffice, two significant digits
// in scientific notation below 0.0001 (a p of 9.9e-46 is not 0.0000), a bound as "< bound",
// and "-" for an undefined p.

/** The smallest p printed with four decimals; smaller ones are printed in scientific notation. */
const FIXED_FROM = 1e-4;

/**
 * A p-value for a table or report: NaN as '-', an upper bound (a bootstrap p with no replicate
 * beyond the null) as '< 0.002', values from 0.0001 on with four decimals, smaller ones as
 * '9.9e-46', and 0 (below the smallest double) as '< 1e-300'.
 */
export function formatPValue(p: number, opts: { upperBound?: boolean } = {}): string {
  if (Number.isNaN(p)) return '-';
  const shown = p >= FIXED_FROM ? p.toFixed(4) : p.toExponential(1);
  if (opts.upperBound) return `< ${shown}`;
  if (p === 0) return '< 1e-300';
  return shown;
}
