// Classical test theory: the corrected item-total (item-rest, point-biserial) correlation.

import { pearson } from './correlation.js';
import { requireMatrix } from './validate.js';
import { variableMajor } from './variable-major.js';

/**
 * For each item (column of a subjects x items matrix), the Pearson correlation between the item
 * and the sum of the other items; null when the item or the rest score has zero variance
 * (as psych::alpha's r.drop and cor(X[,j], rowSums(X) - X[,j]) in R).
 */
export function itemRestCorrelation(matrix: ArrayLike<ArrayLike<number>>): Array<number | null> {
  // A NaN cell would otherwise turn its item into null, which reads as zero variance.
  if (matrix.length) requireMatrix('itemRestCorrelation', matrix);
  const { values, n, p } = variableMajor(matrix);
  return itemRestCorrelationOfItems(values, n, p);
}

/**
 * itemRestCorrelation of data held item by item: values[j * n + i] is subject i's score on item
 * j (an audit's item-major responses), finite numbers, not checked. The same sums in the same
 * order, so the same correlations, without a subjects x items array of arrays.
 */
export function itemRestCorrelationOfItems(values: ArrayLike<number>, n: number, p: number): Array<number | null> {
  const total = new Float64Array(n);
  // Each subject's total summed over the items in order, as the row-wise version does.
  for (let j = 0; j < p; j++) {
    const base = j * n;
    for (let i = 0; i < n; i++) total[i]! += values[base + i]!;
  }
  const item = new Float64Array(n);
  const rest = new Float64Array(n);
  const out: Array<number | null> = new Array(p);
  for (let j = 0; j < p; j++) {
    const base = j * n;
    for (let i = 0; i < n; i++) {
      item[i] = values[base + i]!;
      rest[i] = total[i]! - values[base + i]!;
    }
    const r = pearson(item, rest);
    out[j] = Number.isNaN(r) ? null : r;
  }
  return out;
}
