// Leave-one-item-out Kendall tau-b between two benchmarks' per-model accuracies, for every item
// of each benchmark: the jackknife values behind the BCa acceleration of the stage-1 interval.
// Dropping a binary item lowers each model's count by 0 or 1, so only pairs of models whose
// counts differ by at most one can change order; each leave-one-out value is the full sample's
// concordance count corrected on those pairs alone (the same integers as counting afresh).

function countsOf(flat: Uint8Array, models: number): Int32Array {
  const c = new Int32Array(models);
  for (let k = 0; k < flat.length; k++) c[k % models]! += flat[k]!;
  return c;
}

/** Pairs (m, m') with |c_m - c_m'| <= 1, as two parallel lists. */
function closePairs(c: Int32Array): { first: Int32Array; second: Int32Array } {
  const order = Array.from(c.keys()).sort((x, y) => c[x]! - c[y]!);
  const first: number[] = [];
  const second: number[] = [];
  for (let i = 0; i < order.length; i++) {
    for (let j = i + 1; j < order.length && c[order[j]!]! - c[order[i]!]! <= 1; j++) {
      first.push(order[i]!);
      second.push(order[j]!);
    }
  }
  return { first: Int32Array.from(first), second: Int32Array.from(second) };
}

/** Leave-one-out tau for each item of `own` (flattened item-major), the other side fixed. */
function leaveOneOut(own: Uint8Array, other: Uint8Array, models: number): Float64Array {
  const M = models;
  const n = own.length / M;
  const c = countsOf(own, M);
  const o = countsOf(other, M);
  const { first, second } = closePairs(c);
  // Full-sample S and ties, on counts (the same order as accuracies).
  let s = 0;
  let tiesOwn = 0;
  let tiesOther = 0;
  for (let a = 0; a < M; a++) {
    for (let b = a + 1; b < M; b++) {
      const d1 = Math.sign(c[a]! - c[b]!);
      const d2 = Math.sign(o[a]! - o[b]!);
      s += d1 * d2;
      if (d1 === 0) tiesOwn++;
      if (d2 === 0) tiesOther++;
    }
  }
  const n0 = (M * (M - 1)) / 2;
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const row = k * M;
    let ds = 0;
    let dt = 0;
    for (let q = 0; q < first.length; q++) {
      const a = first[q]!;
      const b = second[q]!;
      const before = Math.sign(c[a]! - c[b]!);
      const after = Math.sign(c[a]! - own[row + a]! - (c[b]! - own[row + b]!));
      if (before === after) continue;
      ds += (after - before) * Math.sign(o[a]! - o[b]!);
      dt += (after === 0 ? 1 : 0) - (before === 0 ? 1 : 0);
    }
    const denom = Math.sqrt((n0 - tiesOwn - dt) * (n0 - tiesOther));
    out[k] = denom === 0 ? Number.NaN : (s + ds) / denom;
  }
  return out;
}

/** Jackknife tau values: leaving out each item of benchmark A, then each item of B. */
export function jackknifeTau(a: Uint8Array, b: Uint8Array, models: number): { a: Float64Array; b: Float64Array } {
  return { a: leaveOneOut(a, b, models), b: leaveOneOut(b, a, models) };
}
