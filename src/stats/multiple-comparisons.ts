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
