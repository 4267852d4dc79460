// Combining a panel's scores for one field: median (default), mean, or majority (the most
// frequent value; a tie goes to the tied value nearest the median, then the lower).

export type Aggregation = 'median' | 'mean' | 'majority';

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Combine one field's scores from several judges: median, mean, or majority (ties to the value nearest the median, then the lower). */
export function aggregate(values: number[], how: Aggregation): number {
  if (values.length === 0) throw new Error('nothing to aggregate');
  if (how === 'mean') return values.reduce((a, b) => a + b, 0) / values.length;
  if (how === 'median') return median(values);
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const med = median(values);
  return [...counts]
    .filter(([, c]) => c === top)
    .map(([v]) => v)
    .sort((a, b) => Math.abs(a - med) - Math.abs(b - med) || a - b)[0]!;
}
