// Kendall's concordance count by sorting (Knight 1966): order the pairs by x then y, count the
// tied pairs in x, in y and in both, and count the discordant pairs as the inversions of y in
// that order with a merge sort. O(n log n) against O(n^2) for comparing every pair; the counts
// are the same integers. Work buffers are kept between calls (resampling loops call this
// thousands of times on vectors of the same length).

let order = new Int32Array(0);
let spare = new Int32Array(0);

function ensure(n: number): void {
  if (order.length < n) {
    order = new Int32Array(n);
    spare = new Int32Array(n);
  }
}

/** Stable bottom-up merge sort of order[0..n) by key(a, b) < 0; returns the number of strict inversions. */
function mergeSort(n: number, before: (a: number, b: number) => boolean): number {
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
        // Take from the right only when it is strictly before: equal keys are not inversions.
        if (before(src[j]!, src[i]!)) {
          dst[k++] = src[j++]!;
          inversions += mid - i;
        } else dst[k++] = src[i++]!;
      }
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== order) {
    spare = order;
    order = src;
  }
  return inversions;
}

/** Pairs with equal key among consecutive entries of order[0..n). */
function tiedPairs(n: number, equal: (a: number, b: number) => boolean): number {
  let ties = 0;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && equal(order[i]!, order[j]!)) j++;
    const t = j - i;
    ties += (t * (t - 1)) / 2;
    i = j;
  }
  return ties;
}

/**
 * S = concordant - discordant pairs, and the pairs tied in x and in y (each counting the pairs
 * tied in both), for finite x and y of the same length.
 */
export function kendallS(x: ArrayLike<number>, y: ArrayLike<number>): { s: number; tiesX: number; tiesY: number } {
  const n = x.length;
  ensure(n);
  for (let i = 0; i < n; i++) order[i] = i;
  mergeSort(n, (a, b) => x[a]! < x[b]! || (x[a] === x[b] && y[a]! < y[b]!));
  const tiesX = tiedPairs(n, (a, b) => x[a] === x[b]);
  const tiesXY = tiedPairs(n, (a, b) => x[a] === x[b] && y[a] === y[b]);
  const discordant = mergeSort(n, (a, b) => y[a]! < y[b]!);
  const tiesY = tiedPairs(n, (a, b) => y[a] === y[b]);
  const n0 = (n * (n - 1)) / 2;
  return { s: n0 - tiesX - tiesY + tiesXY - 2 * discordant, tiesX, tiesY };
}
