// Money as reports show it: an unknown cost says so, never $0, and a cost too small for the
// digits shown says that it is not zero.

/** `$0.0123`; `<$0.0001` for a positive cost that would round to zero; `unknown` when some call's price is not known. */
export function formatUsd(usd: number | null | undefined, digits = 4): string {
  if (usd === null || usd === undefined) return 'unknown';
  const smallest = 10 ** -digits;
  if (usd > 0 && usd < smallest / 2) return `<$${smallest.toFixed(digits)}`;
  return `$${usd.toFixed(digits)}`;
}
