// Money as reports show it: an unknown cost says so, never $0.

/** `$0.0123`, or `unknown` when the price of some call is not known. */
export function formatUsd(usd: number | null | undefined, digits = 4): string {
  return usd === null || usd === undefined ? 'unknown' : `$${usd.toFixed(digits)}`;
}
