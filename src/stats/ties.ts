// Ties for the rank statistics (Spearman, Kendall, Mann-Whitney). Values computed in floating
// point (a gap, a mean, a residual) that are equal in exact arithmetic often differ in their
// last bits: 0.7 - 0.4 is 0.29999999999999993, 0.5 - 0.2 is 0.3. Compared exactly they would
// count as two ranks, and the statistic would rank rounding noise. The rule: two values tie
// when they differ by at most TIE_TOLERANCE times the largest magnitude in the sample. Rounding
// noise in a value computed from numbers of the data's scale is a few ulps of that scale
// (about 1e-16 of it); differences below 1e-12 of it carry no information a rank test could
// use. Groups are formed on the sorted values from each group's smallest member, so a chain of
// small steps never merges values further apart than the tolerance.

/** Relative tolerance (to the sample's largest finite magnitude) within which two values tie. */
const TIE_TOLERANCE = 1e-12;

/** The absolute tie tolerance of a sample: TIE_TOLERANCE times its largest finite magnitude. */
export function tieTolerance(x: ArrayLike<number>): number {
  let scale = 0;
  for (let i = 0; i < x.length; i++) {
    const a = Math.abs(x[i]!);
    if (a > scale && a !== Number.POSITIVE_INFINITY) scale = a;
  }
  return TIE_TOLERANCE * scale;
}

/** Scratch for the sorted copy (resampling loops call snapTies thousands of times). */
let scratch = new Float64Array(0);

/**
 * The values with every group of near-equal values (TIE_TOLERANCE) replaced by the group's
 * smallest member, so that exact comparisons see the ties; the array itself when nothing
 * changes (no copy: the common case costs one sort of a scratch copy). NaN values are left as
 * they are.
 */
export function snapTies<T extends ArrayLike<number>>(x: T): T | Float64Array {
  const n = x.length;
  if (n < 2) return x;
  const tol = tieTolerance(x);
  if (tol === 0) return x;
  if (scratch.length < n) scratch = new Float64Array(n);
  const sorted = scratch.subarray(0, n);
  for (let i = 0; i < n; i++) sorted[i] = x[i]!;
  sorted.sort(); // NaN last
  let near = false;
  for (let i = 1; i < n && !near; i++) {
    const d = sorted[i]! - sorted[i - 1]!;
    near = d > 0 && d <= tol;
  }
  if (!near) return x;
  // Group from each group's smallest member, and map every value to its group's.
  const representative = new Map<number, number>();
  for (let i = 0; i < n; ) {
    const first = sorted[i]!;
    if (Number.isNaN(first)) break;
    representative.set(first, first);
    let j = i + 1;
    // (An infinity ties only with itself: Infinity - Infinity is NaN.)
    while (j < n && (sorted[j] === first || sorted[j]! - first <= tol)) representative.set(sorted[j++]!, first);
    i = j;
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = representative.get(x[i]!) ?? x[i]!;
  return out;
}

/** Whether every value ties with the first (TIE_TOLERANCE): a constant variable, up to rounding. */
export function isConstant(x: ArrayLike<number>): boolean {
  if (x.length === 0) return true;
  let min = x[0]!;
  let max = x[0]!;
  for (let i = 1; i < x.length; i++) {
    if (x[i]! < min) min = x[i]!;
    if (x[i]! > max) max = x[i]!;
  }
  return max === min || max - min <= tieTolerance(x);
}
