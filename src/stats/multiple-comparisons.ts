// Multiple-comparison adjustments as R's p.adjust: missing p-values (null or NaN) stay missing
// and do not count in n.

type P = number | null;

function present(p: readonly P[]): number[] {
  p.forEach((v, i) => {
    if (v !== null && !Number.isNaN(v) && !(v >= 0 && v <= 1)) throw new Error(`p-value ${i} is ${v}, outside [0, 1]`);
  });
  return p.map((v, i) => (v === null || Number.isNaN(v) ? -1 : i)).filter((i) => i >= 0);
}

/** Bonferroni-adjusted p-values (missing values stay missing and are not counted). */
export function bonferroni(p: readonly P[]): P[] {
  const idx = present(p);
  const n = idx.length;
  return p.map((v) => (v === null || Number.isNaN(v) ? null : Math.min(1, v * n)));
}

/** Holm's step-down adjustment. */
export function holm(p: readonly P[]): P[] {
  const idx = present(p).sort((a, b) => (p[a] as number) - (p[b] as number));
  const n = idx.length;
  const out: P[] = p.map(() => null);
  let running = 0;
  idx.forEach((i, rank) => {
    running = Math.max(running, Math.min(1, (n - rank) * (p[i] as number)));
    out[i] = running;
  });
  return out;
}

/** Benjamini-Hochberg step-up adjustment (false discovery rate). */
export function benjaminiHochberg(p: readonly P[]): P[] {
  const idx = present(p).sort((a, b) => (p[b] as number) - (p[a] as number));
  const n = idx.length;
  const out: P[] = p.map(() => null);
  let running = 1;
  idx.forEach((i, k) => {
    const rank = n - k;
    running = Math.min(running, ((p[i] as number) * n) / rank);
    out[i] = Math.min(1, running);
  });
  return out;
}

/**
 * Holm's adjustment when some p-values are upper bounds (a bootstrap p with no replicate beyond
 * the null is only known to lie below 2/B): the adjusted values as holm gives them, and which
 * of them are upper bounds too. Holm's adjusted values never decrease when an input grows, so
 * every value computed from bounds is a bound; it is exact only when no bound can lower it:
 * its own p is exact, no bound p lies at or above it (a smaller true value would move that test
 * ahead of it and shrink its multiplier), and the step-down maximum it takes is an exact term.
 */
export function holmWithBounds(p: readonly P[], upperBound: readonly boolean[]): { adjusted: P[]; upperBound: boolean[] } {
  if (upperBound.length !== p.length) throw new Error(`holmWithBounds: ${upperBound.length} bound flags for ${p.length} p-values`);
  const idx = present(p).sort((a, b) => (p[a] as number) - (p[b] as number));
  const n = idx.length;
  const adjusted: P[] = p.map(() => null);
  const bound = p.map(() => false);
  const largestBound = Math.max(Number.NEGATIVE_INFINITY, ...idx.filter((i) => upperBound[i]).map((i) => p[i] as number));
  let running = 0;
  let runningIsBound = false;
  idx.forEach((i, rank) => {
    const term = Math.min(1, (n - rank) * (p[i] as number));
    if (term > running) {
      running = term;
      runningIsBound = upperBound[i]!;
    } else if (term === running) runningIsBound &&= upperBound[i]!;
    adjusted[i] = running;
    bound[i] = upperBound[i]! || runningIsBound || largestBound >= (p[i] as number);
  });
  return { adjusted, upperBound: bound };
}
