// Kendall's concordance count by sorting (Knight 1966): order the pairs by x then y, count the
// tied pairs in x, in y and in both, and count the discordant pairs as the inversions of y in
// that order with a merge sort. O(n log n) against O(n^2) for comparing every pair; the counts
// are the same integers. The values are copied into work buffers kept between calls
// (resampling loops call this thousands of times on vectors of the same length), and each sort
// has its own merge loop so that the comparisons stay inline.

let xs = new Float64Array(0);
let ys = new Float64Array(0);
let order: Int32Array = new Int32Array(0);
let spare: Int32Array = new Int32Array(0);

function ensure(n: number): void {
  if (order.length < n) {
    xs = new Float64Array(n);
    ys = new Float64Array(n);
    order = new Int32Array(n);
    spare = new Int32Array(n);
  }
}

/** Swaps the work buffers when the sorted order ended in `spare`. */
function settle(src: Int32Array): void {
  if (src !== order) {
    spare = order;
    order = src;
  }
}

/** Stable bottom-up merge sort of order[0..n) by x, then y. */
function sortByXY(n: number): void {
  let src = order;
  let dst = spare;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = src[i]!;
        const b = src[j]!;
        const xa = xs[a]!;
        const xb = xs[b]!;
        if (xb < xa || (xb === xa && ys[b]! < ys[a]!)) {
          dst[k++] = b;
          j++;
        } else {
          dst[k++] = a;
          i++;
        }
      }
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  settle(src);
}

/** Stable merge sort of order[0..n) by y; returns the strict inversions (pairs out of y order). */
function sortByYCountingInversions(n: number): number {
  let src = order;
  let dst = spare;
  let inversions = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = src[i]!;
        const b = src[j]!;
        // Take from the right only when it is strictly smaller: equal values are not inversions.
        if (ys[b]! < ys[a]!) {
          dst[k++] = b;
          j++;
          inversions += mid - i;
        } else {
          dst[k++] = a;
          i++;
        }
      }
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  settle(src);
  return inversions;
}

/**
 * S = concordant - discordant pairs, and the pairs tied in x and in y (each counting the pairs
 * tied in both), for finite x and y of the same length; undefined when two values of x (or of
 * y) differ by no more than tolX (tolY) without being equal: near-ties the caller snaps first.
 */
export function kendallS(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  tolX = 0,
  tolY = 0,
): { s: number; tiesX: number; tiesY: number } | undefined {
  const n = x.length;
  ensure(n);
  for (let i = 0; i < n; i++) {
    xs[i] = x[i]!;
    ys[i] = y[i]!;
    order[i] = i;
  }
  sortByXY(n);
  // Sorted by x: near-ties in x are neighbours.
  for (let i = 1; i < n; i++) {
    const d = xs[order[i]!]! - xs[order[i - 1]!]!;
    if (d > 0 && d <= tolX) return undefined;
  }
  let tiesX = 0;
  let tiesXY = 0;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    const xi = xs[order[i]!]!;
    while (j < n && xs[order[j]!] === xi) j++;
    const t = j - i;
    tiesX += (t * (t - 1)) / 2;
    // Within a run of equal x the order is by y: runs of equal y are the joint ties.
    for (let a = i; a < j; ) {
      let b = a + 1;
      const ya = ys[order[a]!]!;
      while (b < j && ys[order[b]!] === ya) b++;
      const u = b - a;
      tiesXY += (u * (u - 1)) / 2;
      a = b;
    }
    i = j;
  }
  const discordant = sortByYCountingInversions(n);
  for (let i = 1; i < n; i++) {
    const d = ys[order[i]!]! - ys[order[i - 1]!]!;
    if (d > 0 && d <= tolY) return undefined;
  }
  let tiesY = 0;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    const yi = ys[order[i]!]!;
    while (j < n && ys[order[j]!] === yi) j++;
    const t = j - i;
    tiesY += (t * (t - 1)) / 2;
    i = j;
  }
  const n0 = (n * (n - 1)) / 2;
  return { s: n0 - tiesX - tiesY + tiesXY - 2 * discordant, tiesX, tiesY };
}
